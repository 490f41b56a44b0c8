"""The conda route: environment.yml is generated from requirements.lock, self-contained, and
agrees with it pin for pin; the workflow has no `conda:` directives (conda is not tested)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import yaml
from conftest import load_script

ROOT = Path(__file__).resolve().parent.parent
GENERATOR = ROOT / "tools" / "make_environment.py"


def _generator():
    return load_script(GENERATOR, "make_environment")


def _environment():
    return yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))


def test_environment_pins_equal_the_lock():
    dependencies = _environment()["dependencies"]
    (pip_section,) = [item["pip"] for item in dependencies if isinstance(item, dict)]
    assert pip_section == _generator().lock_requirements()


def test_environment_is_self_contained():
    environment = _environment()
    conda = [item for item in environment["dependencies"] if isinstance(item, str)]
    assert "openjdk=17" in conda and "pip" in conda
    assert any(re.fullmatch(r"python=3\.1[1-3]", item) for item in conda)
    (pip_section,) = [item["pip"] for item in environment["dependencies"]
                      if isinstance(item, dict)]
    assert not [item for item in pip_section if item.startswith("-")], \
        "no -r/-e lines: Snakemake copies env files elsewhere, where relative paths break"
    assert all("==" in item for item in pip_section)


def test_generator_check_agrees():
    result = subprocess.run([sys.executable, str(GENERATOR), "--check"], capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stderr


def test_generator_check_catches_a_drift(tmp_path, monkeypatch):
    module = _generator()
    lock = tmp_path / "requirements.lock"
    lock.write_text("# comment\nfoo==1.0\nbar==2.0 ; python_full_version < \"3.12\"\n")
    monkeypatch.setattr(module, "LOCK", lock)
    monkeypatch.setattr(module, "ENVIRONMENT", tmp_path / "environment.yml")
    assert module.main([]) == 0
    written = yaml.safe_load((tmp_path / "environment.yml").read_text())
    assert written["dependencies"][-1]["pip"] == ["foo==1.0", 'bar==2.0 ; python_full_version < "3.12"']
    assert module.main(["--check"]) == 0
    lock.write_text("foo==1.1\n")
    assert module.main(["--check"]) == 1

# Every script rule names environment.yml as its conda environment (issue 20, item 2): checked
# in tests/workflow/test_workflow.py beside the lint.
