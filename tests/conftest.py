"""Shared test helpers: the repository root, the fixture collection, running Snakemake."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "tests" / "fixtures" / "tiny"


@pytest.fixture
def tiny_workdir(tmp_path: Path) -> Path:
    """A working directory holding a copy of the tiny fixture collection under fixture/."""
    shutil.copytree(TINY, tmp_path / "fixture")
    return tmp_path


def run_snakemake(workdir: Path, *args: str, configfile: Path | None = None,
                  timeout: int = 600) -> subprocess.CompletedProcess:
    """Run the project's Snakefile in ``workdir`` (the package imported from this checkout)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    command = [sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile"),
               "--directory", str(workdir), "--cores", "1", "--nocolor"]
    if configfile is not None:
        command += ["--configfile", str(configfile)]
    return subprocess.run(command + list(args), capture_output=True, text=True, env=env,
                          timeout=timeout)
