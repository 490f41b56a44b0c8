"""The workflow as a Snakemake module from a URL (issue 32, item 2; docs/module.md): the
project's tree served over HTTP, as `github(...)` becomes a URL, and read by a using
workflow through Snakemake's source cache; and its rule files read by an environment that
holds nothing but the pinned Snakemake (`snakemake --lint`, as the workflow catalog runs it,
and the main process of the conda route)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, TINY, copy_checkout_files, planned_rules, run_snakemake

pytestmark = pytest.mark.workflow

USING = '''configfile: "config/config.yaml"


module gradedrel:
    snakefile:
        "{url}/workflow/Snakefile"
    config:
        config


use rule * from gradedrel
'''

# What is served: the workflow's files, not the gradedrel package (a module from a URL
# does not bring it: the installed one runs, checked against the module's version).
SERVED = ["Snakefile", "pyproject.toml", "environment.yml", "workflow", "scripts", "config"]


def _serve(tree: Path):
    """``python -m http.server`` on a free port of 127.0.0.1 serving ``tree``, as
    (process, base URL); its log (stderr) names every file fetched."""
    server = subprocess.Popen(
        [sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1",
         "--directory", str(tree)],
        stdout=subprocess.PIPE, stderr=open(tree.parent / "http.log", "w"), text=True)
    line = server.stdout.readline()  # "Serving HTTP on 127.0.0.1 port 41234 (http://...) ..."
    port = re.search(r"port (\d+)", line)
    assert port, line
    return server, f"http://127.0.0.1:{port.group(1)}"


def _tree(where: Path, version: str | None = None) -> Path:
    """A copy of the project's served files (``version``: another one in its pyproject)."""
    copy_checkout_files(SERVED, where)
    if version is not None:
        pyproject = where / "pyproject.toml"
        text, n = re.subn(r'(?m)^version = "[^"]*"$', f'version = "{version}"',
                          pyproject.read_text())
        assert n == 1
        pyproject.write_text(text)
    return where


@pytest.fixture
def served(tmp_path):
    """The project's files served over HTTP: the base URL, and the server's log file."""
    server, url = _serve(_tree(tmp_path / "served"))
    yield url, tmp_path / "http.log"
    server.terminate()
    server.wait(timeout=30)


def _deploy(where: Path, url: str) -> Path:
    """A using workflow as `snakedeploy deploy-workflow` makes one: the module's config/
    copied (the curated plans and study designs its defaults name), its config.yaml
    replaced by the fixture's, and the fixture collection; its Snakefile names the URL."""
    where.mkdir()
    shutil.copytree(TINY, where / "fixture")
    shutil.copytree(ROOT / "config", where / "config")
    shutil.copy(TINY / "config.yaml", where / "config" / "config.yaml")
    (where / "Snakefile").write_text(USING.format(url=url))
    return where


def test_the_module_from_a_url_plans_the_whole_study(tmp_path, served):
    url, log = served
    project = _deploy(tmp_path / "deployed", url)
    result = run_snakemake(project, "-n", snakefile=project / "Snakefile")
    planned = planned_rules(result)
    assert {"thesaurus_read", "index_collection", "plan_requests", "retrieve", "evaluate_runs",
            "report_findings", "reproduce"} <= planned, planned
    # the fixture's models only, by their files (no fixture job has a model wildcard)
    assert "/BM25/" in result.stdout and "DirichletLM" not in result.stdout
    fetched = log.read_text()
    # the rule files and the module's defaults came over HTTP (Snakemake's source cache)
    for path in ("/workflow/rules/common.smk", "/config/config.yaml", "/pyproject.toml"):
        assert re.search(rf'"GET {re.escape(path)} HTTP/1\.[01]" 200', fetched), (path, fetched)
    assert "/gradedrel/" not in fetched  # the package is not fetched: the installed one runs


def test_a_job_of_the_module_from_a_url_runs_its_fetched_script(tmp_path, served):
    url, log = served
    project = _deploy(tmp_path / "deployed", url)
    done = run_snakemake(project, "results/tiny/qrels.tsv", snakefile=project / "Snakefile",
                         cores=2)
    assert done.returncode == 0, done.stderr[-3000:]
    assert (project / "results" / "tiny" / "qrels.tsv").read_text().startswith("qid\t")
    assert re.search(r'"GET /scripts/prepare_topics_qrels\.py HTTP/1\.[01]" 200',
                     log.read_text())


def test_a_module_from_a_url_of_another_version_stops_with_one_line(tmp_path):
    server, url = _serve(_tree(tmp_path / "served", version="0.0.1"))
    try:
        project = _deploy(tmp_path / "deployed", url)
        result = run_snakemake(project, "-n", snakefile=project / "Snakefile")
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert result.returncode != 0
    lines = [line for line in result.stderr.splitlines() if line.startswith("gradedrel:")]
    assert len(lines) == 1, result.stderr[-3000:]
    installed = subprocess.run([sys.executable, "-c", "import gradedrel; "
                                "print(gradedrel.__version__)"], capture_output=True,
                               text=True, check=True).stdout.strip()
    assert f"{url}/workflow/rules" in lines[0]
    assert f"needs its package, gradedrel 0.0.1, with its extra [workflow]; found {installed}" \
        in lines[0]
    # an install that works as written: from a clone (gradedrel is on no package index)
    assert lines[0].endswith("gradedrel is on no package index: clone the repository at the "
                             "module's tag or commit and pip install './gradedrel[workflow]' "
                             "(docs/module.md)"), lines[0]
    assert "Traceback" not in result.stderr
    assert not (project / "results").exists()


@pytest.fixture(scope="session")
def snakemake_only(tmp_path_factory) -> Path:
    """A venv holding only Snakemake at the version of requirements.lock (its dependencies
    pinned by the lock too), built once a session; its snakemake executable."""
    pin = re.search(r"(?m)^snakemake==(\S+)$", (ROOT / "requirements.lock").read_text())
    assert pin
    venv = tmp_path_factory.mktemp("snakemake-only") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    install = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
         "-c", str(ROOT / "requirements.lock"), f"snakemake=={pin.group(1)}"],
        capture_output=True, text=True, env=env, timeout=1800)
    assert install.returncode == 0, install.stderr[-3000:]
    return venv / "bin" / "snakemake"


@pytest.mark.slow
def test_the_rule_files_are_read_with_snakemake_alone(tmp_path, snakemake_only):
    python = snakemake_only.parent / "python"
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    # the venv really lacks the package's heavy dependencies (else the test proves nothing)
    absent = subprocess.run(
        [str(python), "-c", "import importlib.util as u; print([m for m in ('numpy', "
         "'pandas', 'lxml', 'ir_datasets', 'pyterrier', 'tqdm', 'gradedrel') if u.find_spec(m)])"],
        capture_output=True, text=True, env=env, cwd=tmp_path, check=True)
    assert absent.stdout.strip() == "[]", absent.stdout
    result = subprocess.run(
        [str(snakemake_only), "-s", str(ROOT / "workflow" / "Snakefile"), "--directory",
         str(tmp_path), "--lint", "--cores", "1", "--nocolor"],
        capture_output=True, text=True, env=env, timeout=900)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-3000:]
    assert "Congratulations, your workflow is in a good condition!" in output, output


def test_the_catalog_claims_no_conda_route_the_environment_cannot_run():
    """The catalog's standardized usage would offer `--sdm conda` for the module from GitHub,
    whose jobs import gradedrel: environment.yml would have to bring the package itself."""
    import yaml

    catalog = yaml.safe_load((ROOT / ".snakemake-workflow-catalog.yml").read_text())
    environment = yaml.safe_load((ROOT / "environment.yml").read_text())
    pip = next(d["pip"] for d in environment["dependencies"] if isinstance(d, dict))
    brings_package = any(re.match(r"gradedrel\b", line) for line in pip)
    assert catalog["usage"]["software-stack-deployment"]["conda"] is brings_package


def test_a_module_from_a_url_without_its_config_folder_says_so_in_one_line(tmp_path, served):
    """The using directory has its config.yaml but not the project's config/ folder (the
    curated plans and study designs the defaults name): one line saying what to copy, not
    one line per missing file."""
    url, _ = served
    project = _deploy(tmp_path / "deployed", url)
    shutil.rmtree(project / "config")
    (project / "config").mkdir()
    shutil.copy(TINY / "config.yaml", project / "config" / "config.yaml")
    result = run_snakemake(project, "-n", snakefile=project / "Snakefile")
    assert result.returncode != 0
    lines = [line for line in result.stderr.splitlines() if line.startswith("gradedrel:")]
    assert len(lines) == 1, result.stdout[-3000:] + result.stderr[-3000:]
    assert "copy the project's config/ folder into the using directory" in lines[0], lines[0]
    assert "expected a file here" not in result.stderr


def test_a_module_from_a_url_without_the_extra_stops_before_any_job(tmp_path, served,
                                                                     monkeypatch):
    """The right version of the package without its [workflow] extra (PyTerrier hidden from
    the Snakemake process, as on an install of the wheel alone): one line naming what is
    missing and how to add it, at the dry run, not `No module named 'pyterrier'` in the
    first job."""
    url, _ = served
    project = _deploy(tmp_path / "deployed", url)
    hide = tmp_path / "hide"
    hide.mkdir()
    (hide / "sitecustomize.py").write_text(
        "import sys\n\n\nclass Hidden:\n    @staticmethod\n"
        "    def find_spec(name, path=None, target=None):\n"
        "        if name.split('.')[0] == 'pyterrier':\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "        return None\n\n\nsys.meta_path.insert(0, Hidden)\n")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [
        str(hide), os.environ.get("PYTHONPATH", "")])))
    result = run_snakemake(project, "-n", snakefile=project / "Snakefile")
    assert result.returncode != 0
    lines = [line for line in result.stderr.splitlines() if line.startswith("gradedrel:")]
    assert len(lines) == 1, result.stdout[-3000:] + result.stderr[-3000:]
    assert lines[0].startswith("gradedrel: the workflow's jobs need gradedrel's extra "
                               "[workflow]; missing here: pyterrier: pip install "), lines[0]
    assert "Traceback" not in result.stderr
