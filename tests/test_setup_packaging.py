"""Packaging: the one lock for every supported Python, licence metadata, `gradedrel --version`."""
from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SUPPORTED = ["3.11.2", "3.11.7", "3.12.1", "3.13.0"]  # Debian 12's and pyenv's, all tested


def lock_requirements() -> list[Requirement]:
    lines = (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines()
    return [Requirement(line.split("#", 1)[0]) for line in lines
            if line.split("#", 1)[0].strip()]


def pins_for(python_full_version: str) -> dict[str, str]:
    environment = dict(default_environment(), python_full_version=python_full_version,
                       python_version=".".join(python_full_version.split(".")[:2]))
    pins: dict[str, str] = {}
    for requirement in lock_requirements():
        if requirement.marker is not None and not requirement.marker.evaluate(environment):
            continue
        name = canonicalize_name(requirement.name)
        assert name not in pins, f"{name} pinned twice for Python {python_full_version}"
        (spec,) = requirement.specifier
        assert spec.operator == "==", f"{requirement} is not an exact pin"
        pins[name] = spec.version
    return pins


@pytest.mark.parametrize("python", SUPPORTED)
def test_lock_pins_every_package_once_per_python(python):
    pins = pins_for(python)
    extras = PYPROJECT["project"]["optional-dependencies"]
    for dependency in [*PYPROJECT["project"]["dependencies"], *extras["workflow"],
                       *extras["test"]]:
        name = canonicalize_name(Requirement(dependency).name)
        assert name == "gradedrel" or name in pins, dependency  # the lock holds every extra
    assert pins["rdata"] == "1.1.0"


def test_lock_differs_between_pythons_only_where_documented():
    # soupsieve >= 3 needs Python >= 3.11.5; Debian 12's 3.11.2 gets 2.10 (see the lock's header)
    reference = pins_for("3.13.0")
    for python in SUPPORTED:
        differs = {name for name, pin in pins_for(python).items() if reference[name] != pin}
        assert differs <= {"soupsieve"}, (python, differs)
        assert set(pins_for(python)) == set(reference)
    assert pins_for("3.11.2")["soupsieve"] == "2.10"
    assert pins_for("3.11.5")["soupsieve"] == "4.1.3"


def test_this_environment_matches_the_lock():
    pins = pins_for(".".join(map(str, sys.version_info[:3])))
    wrong = {name: (pin, version(name)) for name, pin in pins.items() if version(name) != pin}
    assert not wrong, f"installed versions differ from requirements.lock: {wrong}"


def test_requires_python_and_licence_metadata():
    project = PYPROJECT["project"]
    assert project["requires-python"] == ">=3.11"
    assert project["license"] == "MIT"  # SPDX expression (PEP 639), not the deprecated table
    assert project["license-files"] == ["LICENSE"]
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License")
    assert "Copyright (c) 2026 the gradedrel authors" in licence
    build = PYPROJECT["build-system"]["requires"]
    assert any(re.fullmatch(r"setuptools>=(\d+)", item) and int(item.split(">=")[1]) >= 77
               for item in build), "PEP 639 licence fields need setuptools >= 77"


def test_installed_metadata_carries_the_licence():
    from importlib.metadata import metadata

    meta = metadata("gradedrel")
    assert meta["License-Expression"] == "MIT"
    assert "LICENSE" in (meta.get_all("License-File") or [])


def test_version_from_package_metadata():
    import gradedrel

    assert gradedrel.__version__ == version("gradedrel") == PYPROJECT["project"]["version"]


def test_gradedrel_version_command(capsys):
    from gradedrel.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"gradedrel {PYPROJECT['project']['version']}"


def test_gradedrel_version_console_script():
    script = Path(sys.executable).with_name("gradedrel")
    if not script.exists():
        pytest.skip("the gradedrel console script is not installed in this environment")
    result = subprocess.run([str(script), "--version"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"gradedrel {PYPROJECT['project']['version']}"


def test_citation_file_cites_this_version_and_the_paper():
    import yaml

    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert citation["cff-version"] == "1.2.0"
    assert {"message", "title", "authors"} <= set(citation)  # the format's required keys
    assert citation["type"] == "software" and citation["license"] == PYPROJECT["project"]["license"]
    assert str(citation["version"]) == PYPROJECT["project"]["version"]
    (paper,) = citation["references"]
    assert paper["doi"] == "10.1145/345508.345545"
    assert [a["family-names"] for a in paper["authors"]] == ["Järvelin", "Kekäläinen"]
    assert (paper["year"], paper["start"], paper["end"]) == (2000, 41, 48)


def test_changelog_opens_with_this_version():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## \[?(\d+\.\d+\.\d+)\]?", text, flags=re.M)
    assert releases and releases[0] == PYPROJECT["project"]["version"], releases
