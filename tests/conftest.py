"""Shared test helpers: the repository root, the fixture collection, running Snakemake,
a hand-written thesaurus and term pipeline, and Cranfield indexed with Terrier."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings as _hypothesis_settings

# Hypothesis' examples per test where a test does not set its own: "ci" (the default, as
# Hypothesis' own default) or "long" (HYPOTHESIS_PROFILE=long: the fuzzed readers at length).
_hypothesis_settings.register_profile("ci", max_examples=100)
_hypothesis_settings.register_profile("long", max_examples=2000)
_hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "tests" / "fixtures" / "tiny"
# Tests live in one folder per stage (tests/<stage>/, as gradedrel/<stage>/); the shared
# helpers beside this file stay importable from all of them.
sys.path.insert(0, str(Path(__file__).resolve().parent))

# ir_datasets fixes its cache paths on import: choose them before any import of it.
# CI points IR_DATASETS_HOME at a seeded copy; elsewhere the project's own .data/.
os.environ.setdefault("IR_DATASETS_HOME", str(ROOT / ".data" / "ir_datasets"))

from gradedrel.thesaurus import Concept, Thesaurus  # noqa: E402
from thesaurus_cases import thesaurus_of  # noqa: E402


def pytest_collection_modifyitems(items):
    """Tests that start Java/Terrier are marked ``terrier`` (left out of ``make test-fast``)."""
    for item in items:
        if {"terrier_started", "cranfield_index"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.terrier)


def load_script(path: Path, name: str):
    """A script of the project that is not part of the package (tools/, benchmarks/),
    imported from its file as module ``name``."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def tiny_workdir(tmp_path: Path) -> Path:
    """A working directory holding a copy of the tiny fixture collection under fixture/."""
    shutil.copytree(TINY, tmp_path / "fixture")
    return tmp_path


def run_snakemake(workdir: Path, *args: str, configfile: Path | list | None = None,
                  snakefile: Path | None = None, cores: int = 1,
                  timeout: int = 900) -> subprocess.CompletedProcess:
    """The one Snakemake runner of the tests: the project's Snakefile (or ``snakefile``)
    run in ``workdir`` (never in the checkout, so no .snakemake/ is written there), the
    package imported from beside the Snakefile. ``args`` are targets and options."""
    snakefile = Path(snakefile or ROOT / "Snakefile")
    env = dict(os.environ)
    env["PYTHONPATH"] = str(snakefile.parent) + os.pathsep + env.get("PYTHONPATH", "")
    command = [sys.executable, "-m", "snakemake", "-s", str(snakefile),
               "--directory", str(workdir), "--cores", str(cores), "--nocolor"]
    command += list(args)
    if configfile is not None:  # last: --configfile takes every value after it
        files = configfile if isinstance(configfile, list) else [configfile]
        command += ["--configfile", *map(str, files)]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=timeout)


def planned_rules(result: subprocess.CompletedProcess) -> set[str]:
    """The rules a dry run (``-n``) would run."""
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    lines = (result.stdout + result.stderr).splitlines()
    return {line.split()[1].rstrip(":") for line in lines
            if line.startswith(("rule ", "localrule ")) and line.rstrip().endswith(":")}


# What a finished project holds besides its results: the workflow and the package.
PROJECT_FILES = ["Snakefile", "environment.yml", "workflow", "scripts", "config", "gradedrel"]


def copy_project(source: Path, target: Path) -> Path:
    """Copy a project with its results and .snakemake/ as `cp -a` does (times kept)."""
    shutil.copytree(source, target, symlinks=True,
                    ignore=shutil.ignore_patterns("__pycache__"))
    return target


def copy_checkout_files(names, target: Path) -> Path:
    """The checkout's files and folders ``names`` copied into a new folder ``target``
    (folders without their ``__pycache__``)."""
    target.mkdir()
    for name in names:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, target / name)
    return target


def built_once(tmp_path_factory, name: str, build) -> Path:
    """``build(folder)`` run once a test session, its ``folder`` returned: a folder of the
    session's temporary directory. Under pytest-xdist (``make test`` runs ``-n 2``) the workers
    share it: the first to ask builds it while the others wait on a lock, then they reuse it;
    a build that failed fails them too (with its message) rather than being tried again."""
    import fcntl

    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        folder = tmp_path_factory.mktemp(name)
        build(folder)
        return folder
    root = tmp_path_factory.getbasetemp().parent  # the run's folder, above each worker's
    folder, outcome = root / name, root / f"{name}.outcome"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not outcome.exists():
            try:
                folder.mkdir()
                build(folder)
            except BaseException as error:
                outcome.write_text(f"failed in {os.environ['PYTEST_XDIST_WORKER']}: {error}")
                raise
            outcome.write_text("built")
    if outcome.read_text() != "built":
        pytest.fail(f"{name}: {outcome.read_text()}")
    return folder


@pytest.fixture(scope="session")
def finished_project(tmp_path_factory) -> Path:
    """A copy of this project with the tiny fixture collection, the whole workflow run
    once (with a fifth topic that has no query terms); tests copy it, never change it."""
    return built_once(tmp_path_factory, "finished", _finish) / "project"


def _finish(folder: Path) -> None:
    project = copy_checkout_files(PROJECT_FILES, folder / "project")
    shutil.copytree(TINY, project / "fixture")
    with open(project / "fixture" / "topics.tsv", "a") as handle:
        handle.write("5\twhat are the ... of it?\n")
    with open(project / "fixture" / "qrels.txt", "a") as handle:
        handle.write("5 0 d01 2\n")
    result = run_snakemake(project, snakefile=project / "Snakefile", cores=2,
                           configfile=project / "fixture" / "config.yaml")
    assert result.returncode == 0, result.stderr[-3000:]


STOPWORDS = {"a", "an", "and", "are", "any", "at", "be", "for", "in", "is", "of", "on", "the",
             "there", "to", "what", "with", "how", "can", "over"}
# A Porter-like toy stemmer: plural s off, plus the conflations that cause
# false matches with the real Porter stemmer.
CONFLATE = {"solutions": "solut", "solution": "solut", "solutes": "solut", "solute": "solut",
            "associated": "associ", "associations": "associ", "developed": "develop",
            "development": "develop", "gases": "gas", "bodies": "bodi", "body": "bodi"}


def toy_pipeline(token: str) -> str | None:
    if token in STOPWORDS:
        return None
    if token in CONFLATE:
        return CONFLATE[token]
    return token[:-1] if token.endswith("s") and not token.endswith("ss") else token


def small_thesaurus() -> Thesaurus:
    def c(uri, pref, alt=(), bt=(), nt=(), rt=()):
        return Concept(uri, pref, tuple(alt), tuple(bt), tuple(nt), tuple(rt))
    return thesaurus_of([
        c("#bl", "boundary layers", alt=["boundary layer flow"], nt=["#tbl", "#lbl"], rt=["#sep"]),
        c("#tbl", "turbulent boundary layer", bt=["#bl"]),
        c("#lbl", "laminar boundary layer", bt=["#bl"]),
        c("#sep", "flow separation", nt=["#tbl"], rt=["#bl"]),
        c("#flow", "~ flow", nt=["#sep"], rt=["#gas"]),
        c("#gas", "gases", alt=["gaseous state"], rt=["#flow"]),
        c("#solute", "solutes"),
        c("#assoc", "associations (organizations)"),
        c("#dev", "development"),
        c("#ht", "heat transfer", alt=["heat flow"], nt=["#conv"]),
        c("#conv", "convective heat transfer", bt=["#ht"]),
        c("#aoa", "angle of attack", alt=["incidence angle"]),
        c("#wing", "wings", rt=["#ht"]),
        c("#rare", "Zyxwv apparatus"),
    ])


@pytest.fixture
def thesaurus() -> Thesaurus:
    return small_thesaurus()


@pytest.fixture(scope="session")
def terrier_started():
    from gradedrel.core import terrier
    return terrier.start("5.11", "0.0.8")


@pytest.fixture(scope="session")
def cranfield_index(tmp_path_factory, terrier_started):
    """A Terrier index of Cranfield built as the workflow builds it (blocks, porter, terrier stopwords)."""
    from gradedrel import collection
    from gradedrel.core import terrier

    spec = collection.CollectionSpec.from_config(
        "cranfield", {"ir_datasets": "cranfield", "grade_map": {"1": 3, "2": 3, "3": 2, "4": 1, "-1": 0}})

    def build(folder: Path) -> None:
        terrier.build_index(collection.checked_documents(spec, collection.DocumentCensus()),
                            folder / "index", stemmer="porter", stopwords="terrier", blocks=True,
                            max_docno_length=collection.DOCNO_MAX_LENGTH)

    return built_once(tmp_path_factory, "cranfield", build) / "index"
