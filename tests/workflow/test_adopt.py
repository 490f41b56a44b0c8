"""Results copied into a fresh copy of the project are adopted (tools/adopt.py, `make adopt`)
when their provenance matches it, with or without their times, and then nothing re-runs;
a copy whose records differ from the clone is refused, and nothing in it is changed."""
import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import PROJECT_FILES, ROOT, planned_rules, run_snakemake
from gradedrel.core.adoption import record_files

pytestmark = pytest.mark.workflow

RESULTS = ("results", "figures")


def fresh_clone(finished: Path, target: Path, keep_times: bool) -> Path:
    """The project's files as a new clone has them (every file as new as the clone), then
    the finished project's results copied in: as `cp -a` (times kept) or as `cp -r` does
    (times of the copy, the files copied in shuffled order)."""
    target.mkdir()
    for name in [*PROJECT_FILES, "fixture"]:
        source = finished / name
        if source.is_dir():
            shutil.copytree(source, target / name, copy_function=shutil.copyfile,
                            ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copyfile(source, target / name)
    for name in RESULTS:
        if keep_times:
            shutil.copytree(finished / name, target / name, symlinks=True)
            continue
        files = [p for p in (finished / name).rglob("*") if p.is_file()]
        random.Random(32).shuffle(files)
        for path in files:
            copy = target / path.relative_to(finished)
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, copy)
            time.sleep(0.002)  # distinct times, in the shuffled order
    return target


def planned(project: Path) -> set[str]:
    return planned_rules(run_snakemake(project, "-n", snakefile=project / "Snakefile",
                                       configfile=project / "fixture" / "config.yaml"))


def adopt(project: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, str(ROOT / "tools" / "adopt.py"),
                           "--directory", str(project),
                           "--snakemake", str(Path(sys.executable).with_name("snakemake")),
                           "--configfile", "fixture/config.yaml"],
                          capture_output=True, text=True, env=env, timeout=900)


def state(project: Path) -> dict[str, tuple[int, bytes]]:
    """Every file of the results and of Snakemake's records: its time and bytes."""
    files = [p for folder in (*RESULTS, ".snakemake") for p in (project / folder).rglob("*")
             if p.is_file() and "log" not in p.relative_to(project).parts[:2]]
    return {str(p.relative_to(project)): (p.stat().st_mtime_ns, p.read_bytes()) for p in files}


@pytest.mark.parametrize("keep_times", [True, False], ids=["times-kept", "times-new"])
def test_copied_results_adopted_rerun_nothing(finished_project, tmp_path, keep_times):
    project = fresh_clone(finished_project, tmp_path / "clone", keep_times)
    # as Snakemake sees the copy: the scripts are newer than the results, or the results
    # are not in the order of their jobs; the retrieval re-runs
    assert {"retrieve", "evaluate_runs"} <= planned(project)
    records = record_files(project)
    # the figures' records too: every figure under figures/ is covered by one
    assert any(p.is_relative_to(project / "figures") for p in records)
    result = adopt(project)
    assert result.returncode == 0, result.stderr
    assert f"{len(records)} provenance records match this clone" in result.stdout
    assert planned(project) == set()
    assert not result.stderr.strip()


def test_results_whose_provenance_differs_are_refused_and_left_alone(finished_project,
                                                                     tmp_path):
    project = fresh_clone(finished_project, tmp_path / "clone", keep_times=True)
    run = project / "results" / "tiny" / "runs" / "auto" / "BM25" / "SUM-e.run"
    with open(run, "a") as handle:  # one result edited after its evaluation
        handle.write("1 Q0 d09 99 0.1 edited\n")
    record = project / "results" / "tiny" / "runs" / "auto" / "InQuery" / "SUM-u.provenance.json"
    body = json.loads(record.read_text())
    body["source"]["commit"] = "0" * 40  # made at another commit
    record.write_text(json.dumps(body, indent=2))
    before = state(project)

    result = adopt(project)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert lines == [
        "adopt: results/tiny/evaluation/auto/BM25/provenance.json: names "
        "results/tiny/runs/auto/BM25/SUM-e.run with sha256 "
        f"{json.loads((project / 'results/tiny/evaluation/auto/BM25/provenance.json').read_text())['runs']['SUM/e']['sha256'][:12]}"
        "…; the file here differs",
        # the run's own record covers it (its sha256 as retrieve wrote it)
        "adopt: results/tiny/runs/auto/BM25/SUM-e.provenance.json: names "
        "results/tiny/runs/auto/BM25/SUM-e.run with sha256 "
        f"{json.loads((project / 'results/tiny/evaluation/auto/BM25/provenance.json').read_text())['runs']['SUM/e']['sha256'][:12]}"
        "…; the file here differs",
        "adopt: results/tiny/runs/auto/InQuery/SUM-u.provenance.json: made at commit "
        f"{'0' * 40}; this clone is not a git checkout",
        "adopt: refused: 3 difference(s) from this clone; nothing was changed"]
    assert state(project) == before  # no time touched, no metadata written
    assert {"retrieve", "evaluate_runs"} <= planned(project)


def edit_means(project: Path) -> str:
    path = "results/tiny/evaluation/auto/BM25/means.tsv"
    with open(project / path, "a") as handle:  # a table edited after its job
        handle.write("AvP(level=3)\tSUM/u\t0.99\n")
    return path


def empty_figure(project: Path) -> str:
    path = next(str(p.relative_to(project)) for p in sorted((project / "figures").rglob("*.png")))
    (project / path).write_bytes(b"")
    return path


def change_grade_map(project: Path) -> str:
    config = project / "fixture" / "config.yaml"
    text = config.read_text()
    assert '"2": 3' in text
    config.write_text(text.replace('"2": 3', '"2": 2'))  # after the results were made
    return "config section 'collections'"


@pytest.mark.parametrize("change", [edit_means, empty_figure, change_grade_map])
def test_an_edited_output_or_another_configuration_is_refused_naming_it(finished_project,
                                                                       tmp_path, change):
    # before: the records named only the inputs their jobs read, not their outputs nor
    # the configuration they were made with, and all three were adopted
    project = fresh_clone(finished_project, tmp_path / "clone", keep_times=True)
    named = change(project)
    before = state(project)
    result = adopt(project)
    assert result.returncode == 1, result.stdout
    lines = result.stderr.strip().splitlines()
    assert lines[-1].startswith("adopt: refused") and lines[-1].endswith("nothing was changed")
    assert lines[:-1] and all(named in line for line in lines[:-1]), lines
    assert state(project) == before  # no time touched, no metadata written
    assert planned(project)
