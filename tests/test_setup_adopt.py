"""tools/adopt.py's own choices (`make adopt`): where the files a record names under the
ir_datasets home are looked for, as the workflow chooses that home."""
from __future__ import annotations

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
