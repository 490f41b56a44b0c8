"""tools/adopt.py's own choices (`make adopt`): where the files a record names under the
ir_datasets home are looked for, as the workflow chooses that home; the configuration a
copy is compared with; the config files `make adopt` passes."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, load_script

adopt = load_script(ROOT / "tools" / "adopt.py", "adopt_tool")


@pytest.fixture
def project(tmp_path) -> Path:
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.yaml").write_text("data:\n  ir_datasets_home: null\n")
    return tmp_path


def test_the_config_names_the_home_before_the_environment(project, monkeypatch):
    monkeypatch.setenv("IR_DATASETS_HOME", "/elsewhere")
    (project / "over.yaml").write_text("data:\n  ir_datasets_home: .data/ird\n")
    # a relative home is the project's folder's, as the workflow run there reads it
    assert adopt.ir_datasets_home(project, ["over.yaml"]) == project / ".data" / "ird"


def test_without_a_configured_home_the_environments_then_the_users(project, monkeypatch):
    monkeypatch.setenv("IR_DATASETS_HOME", "/elsewhere/ird")
    assert adopt.ir_datasets_home(project, []) == Path("/elsewhere/ird")
    monkeypatch.delenv("IR_DATASETS_HOME")
    monkeypatch.setenv("HOME", "/users/someone")
    assert adopt.ir_datasets_home(project, []) == Path("/users/someone/.ir_datasets")


def make_adopt(*variables: str) -> subprocess.CompletedProcess:
    return subprocess.run(["make", "--no-print-directory", "-n", "adopt", *variables], cwd=ROOT,
                          capture_output=True, text=True)


def adopt_command(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 0, result.stderr
    return next(line for line in result.stdout.splitlines() if "tools/adopt.py" in line)


def test_make_adopt_takes_any_config_files_and_still_config_nfcorpus():
    # before: only CONFIG=nfcorpus; any other config files could not be given
    files = "config/config.yaml config/nfcorpus/testbed.yaml"
    assert adopt_command(make_adopt(f"CONFIGFILES={files}")).endswith(f"--configfile {files}")
    assert adopt_command(make_adopt("CONFIG=nfcorpus")).endswith(f"--configfile {files}")
    assert "--configfile" not in adopt_command(make_adopt())


def test_the_configuration_compared_is_the_workflows_after_all_layers(project):
    # the schema's defaults filled in, the given files over config/config.yaml, as the
    # Snakefile's config is when a job writes its record
    (project / "over.yaml").write_text("evaluation:\n  depth: 50\n  cutoffs: [10]\n")
    config = adopt.workflow_config(project, ["over.yaml"])
    assert config["evaluation"]["depth"] == 50 and config["evaluation"]["levels"] == [1, 2, 3]
    assert config["data"]["ir_datasets_home"] is None
    assert adopt.config_files(project, ["over.yaml"]) == [project / "config" / "config.yaml",
                                                          project / "over.yaml"]
