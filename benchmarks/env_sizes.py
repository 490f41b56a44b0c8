"""Disk size of the four environments a user can install (issue 20, item 9):

- base: a fresh venv, ``pip install .`` (no extras): enough for ``gradedrel evaluate``;
- compare: a fresh venv, ``pip install '.[compare]'``: ``gradedrel compare`` too (issue 43);
- workflow: a fresh venv, ``pip install '.[workflow]'``: the Snakemake workflow too;
- setup: what ``make setup`` builds (every package of requirements.lock, the test tools
  included, and the project installed editable).

Base, compare and workflow install with requirements.lock as constraints, so that all hold
the same versions. Sizes are as ``du -sm`` counts them: blocks allocated, each hard-linked file
once, in MiB rounded up. Usage (from the checkout; SCRATCH is left holding the venvs)::

    python benchmarks/env_sizes.py SCRATCH [--setup-venv .venv]

Without ``--setup-venv`` it runs ``make setup VENV=SCRATCH/setup`` as well.
"""
from __future__ import annotations

import argparse
import math
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def disk_mib(folder: Path) -> float:
    """Allocated size of ``folder`` in MiB, like ``du -sm`` (symlinks not followed)."""
    seen: set[tuple[int, int]] = set()
    total = 0
    for directory, folders, files in os.walk(folder):
        for name in folders + files:
            status = os.lstat(os.path.join(directory, name))
            if (status.st_dev, status.st_ino) in seen:
                continue
            seen.add((status.st_dev, status.st_ino))
            total += status.st_blocks * 512
    return (total + os.lstat(folder).st_blocks * 512) / 2**20


def source_copy(target: Path) -> Path:
    """What ``pip install .`` builds from, copied so the build writes nothing here."""
    target.mkdir(parents=True)
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, target / name)
    shutil.copytree(ROOT / "gradedrel", target / "gradedrel",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return target


def pip_venv(venv: Path, requirement: str, python: str) -> float:
    """A fresh venv at ``venv`` with ``requirement`` installed; returns the seconds taken."""
    started = time.monotonic()
    subprocess.run([python, "-m", "venv", str(venv)], check=True)
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
                    "-c", str(ROOT / "requirements.lock"), requirement], check=True, env=env)
    return time.monotonic() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scratch", type=Path, help="an empty or new folder outside the project")
    parser.add_argument("--setup-venv", type=Path,
                        help="an existing venv made by make setup (else one is made)")
    parser.add_argument("--out", type=Path,
                        help="also write the sizes as JSON (benchmarks/measured/env_sizes.json, "
                             "which the README's numbers are checked against)")
    parser.add_argument("--python", default=sys.executable,
                        help="the interpreter the venvs are made from")
    args = parser.parse_args(argv)
    scratch = args.scratch.resolve()
    scratch.mkdir(parents=True, exist_ok=True)
    source = source_copy(scratch / "source")

    rows = []
    for name, requirement in (("base", str(source)), ("compare", f"{source}[compare]"),
                              ("workflow", f"{source}[workflow]")):
        seconds = pip_venv(scratch / name, requirement, args.python)
        rows.append((name, disk_mib(scratch / name), seconds))
    setup = args.setup_venv
    if setup is None:
        setup = scratch / "setup"
        started = time.monotonic()
        subprocess.run(["make", "--no-print-directory", "setup", f"VENV={setup}",
                        f"PYTHON={args.python}"], cwd=ROOT, check=True)
        rows.append(("setup", disk_mib(setup), time.monotonic() - started))
    else:
        rows.append(("setup", disk_mib(setup.resolve()), float("nan")))

    print("environment\tMiB\tinstall_s")
    for name, size, seconds in rows:
        print(f"{name}\t{math.ceil(size)}\t{seconds:.0f}")
    if args.out:
        import json

        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({
            "measured": time.strftime("%Y-%m-%d", time.gmtime()),
            "python": subprocess.run([args.python, "-c", "import platform; "
                                      "print(platform.python_version())"], capture_output=True,
                                     text=True, check=True).stdout.strip(),
            "sizes_mib": {name: math.ceil(size) for name, size, _ in rows},
            "install_s": {name: (None if seconds != seconds else round(seconds))
                          for name, _, seconds in rows}}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
