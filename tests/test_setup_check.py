"""The set-up check (tools/check_setup.py) that `make setup` runs before installing anything:
one line naming what to install, exit 1, for each missing piece."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import load_script

ROOT = Path(__file__).resolve().parent.parent
CHECK = ROOT / "tools" / "check_setup.py"
# An interpreter too old for the project, where pyenv has one (the newest 3.10.x it holds).
_PYENV = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")
PYTHON_310 = max((path for path in _PYENV.glob("versions/3.10.*/bin/python")
                  if re.fullmatch(r"3\.10\.\d+", path.parent.parent.name)),
                 key=lambda path: int(path.parent.parent.name.split(".")[2]),
                 default=_PYENV / "versions/3.10/bin/python")
PYTHON_310_VERSION = PYTHON_310.parent.parent.name  # e.g. 3.10.13


def _load():
    return load_script(CHECK, "check_setup")


def _run(python, env=None, prelude="pass"):
    code = (f"import sys, runpy; {prelude}; sys.argv = [{str(CHECK)!r}]; "
            f"runpy.run_path({str(CHECK)!r}, run_name='__main__')")
    return subprocess.run([str(python), "-c", code], capture_output=True, text=True, env=env)


def _one_line(result) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert result.stdout == ""
    return lines[0]


def test_this_interpreter_passes_in_one_line():
    result = subprocess.run([sys.executable, str(CHECK)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("setup check: Python 3.1")
    assert "Java" in lines[0] and lines[0].endswith("ok")


@pytest.mark.skipif(not PYTHON_310.exists(), reason="pyenv has no Python 3.10")
def test_python_310_gets_one_line_not_a_pip_error():
    result = subprocess.run([str(PYTHON_310), str(CHECK)], capture_output=True, text=True)
    assert result.returncode == 1
    line = _one_line(result)
    assert line.startswith(f"setup: Python {PYTHON_310_VERSION}")
    assert "needs Python 3.11 or newer" in line and "PYTHON=python3.11" in line


def test_old_python_reported(monkeypatch):
    module = _load()
    monkeypatch.setattr(module.sys, "version_info", (3, 10, 13, "final", 0))
    problem, found = module.check_python()
    assert found is None and "Python 3.10.13" in problem and "3.11 or newer" in problem


def test_missing_venv_module_names_the_debian_package():
    result = _run(sys.executable, prelude="sys.modules['ensurepip'] = None")
    assert result.returncode == 1
    line = _one_line(result)
    assert "venv module" in line and "apt-get install python3" in line and "-venv" in line


def test_debian_python_is_told_python3_venv(monkeypatch):
    module = _load()
    monkeypatch.setattr(module.sys, "executable", "/usr/bin/python3")
    monkeypatch.setattr(module.os.path, "realpath", lambda path: "/usr/bin/python3.11")
    assert module.venv_package() == "python3-venv"


def test_missing_java(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "JAVA_HOME"}
    env["PATH"] = str(tmp_path)  # no java here
    result = _run(sys.executable, env=env)
    assert result.returncode == 1
    line = _one_line(result)
    assert "Java 17" in line and "openjdk-17-jdk-headless" in line


@pytest.mark.parametrize("says", ['openjdk version "11.0.22" 2024-01-16',
                                  'java version "1.8.0_392"'])
def test_old_java(tmp_path, says):
    java = tmp_path / "java"
    java.write_text(f"#!/bin/sh\necho '{says}' >&2\n")
    java.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "JAVA_HOME"}
    env["PATH"] = str(tmp_path)
    result = _run(sys.executable, env=env)
    assert result.returncode == 1
    line = _one_line(result)
    assert "Java 17 or newer" in line and says in line


def fake_java(folder: Path, version: str, modules: list[str]) -> Path:
    """A `java` that answers -version like a JDK and --list-modules with ``modules``."""
    folder.mkdir(parents=True, exist_ok=True)
    java = folder / "java"
    listed = "\n".join(f"{m}@{version}" for m in modules)
    java.write_text("#!/bin/sh\n"
                    f'if [ "$1" = --list-modules ]; then printf "{listed}\\n"; exit 0; fi\n'
                    f"echo 'openjdk version \"{version}\" 2025-04-15' >&2\n")
    java.chmod(0o755)
    return java


JRE_MODULES = ["java.base", "java.logging", "java.xml", "jdk.unsupported"]


def test_java_home_wins_over_path(tmp_path, monkeypatch):
    module = _load()
    java = fake_java(tmp_path / "bin", "21.0.1", JRE_MODULES + ["jdk.compiler"])
    monkeypatch.setenv("JAVA_HOME", str(tmp_path))
    problem, found = module.check_java()
    assert problem is None and found == f"Java 21 JDK ({java})"


def test_a_jre_without_the_compiler_is_told_to_install_the_jdk(tmp_path):
    fake_java(tmp_path, "17.0.15", JRE_MODULES + ["jdk.compilerx"])   # a look-alike name
    env = {k: v for k, v in os.environ.items() if k != "JAVA_HOME"}
    env["PATH"] = str(tmp_path)
    result = _run(sys.executable, env=env)
    assert result.returncode == 1
    line = _one_line(result)
    assert "Java 17 without a compiler (module jdk.compiler" in line
    assert "apt-get install openjdk-17-jdk-headless" in line


def test_a_jdk_passes(tmp_path):
    fake_java(tmp_path, "17.0.15", JRE_MODULES + ["jdk.compiler"])
    env = {k: v for k, v in os.environ.items() if k != "JAVA_HOME"}
    env["PATH"] = str(tmp_path)
    result = _run(sys.executable, env=env)
    assert result.returncode == 0, result.stderr
    assert f"Java 17 JDK ({tmp_path / 'java'})" in result.stdout


@pytest.mark.parametrize("text,major", [('openjdk version "17.0.15" 2025-04-15', 17),
                                        ('java version "1.8.0_392"', 8),
                                        ('openjdk version "21" 2023-09-19', 21),
                                        ("no version here", None)])
def test_java_major(text, major):
    assert _load().java_major(text) == major


@pytest.mark.skipif(not PYTHON_310.exists() or shutil.which("make") is None,
                    reason="needs a Python 3.10 of pyenv and make")
def test_make_setup_stops_before_pip_on_310(tmp_path):
    venv = tmp_path / "venv"
    result = subprocess.run(["make", "--no-print-directory", "setup", f"PYTHON={PYTHON_310}",
                             f"VENV={venv}"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode != 0
    assert not venv.exists()
    assert f"setup: Python {PYTHON_310_VERSION}" in result.stderr
    assert "pip" not in result.stdout + result.stderr


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_make_setup_names_a_missing_interpreter(tmp_path):
    result = subprocess.run(["make", "--no-print-directory", "check", "PYTHON=python3.99"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode != 0
    assert "setup: python3.99 not found: install Python 3.11 or newer" in result.stderr


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_make_check_passes_here():
    result = subprocess.run(["make", "--no-print-directory", "check", f"PYTHON={sys.executable}"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("setup check: ")
