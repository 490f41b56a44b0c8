"""Write environment.yml (the conda route) from requirements.lock (the pip route).

The conda environment is self-contained: Python, Java 17 and pip from conda-forge, and every
Python package at the lock's exact version through pip (the same wheels as the pip route;
conda-forge's builds of these would be other builds). No `-r requirements.lock`: a relative
path breaks when the file is copied elsewhere, as Snakemake does with env files.

    python tools/make_environment.py          # rewrite environment.yml
    python tools/make_environment.py --check  # exit 1 if environment.yml differs from the lock
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"
ENVIRONMENT = ROOT / "environment.yml"

HEADER = """\
# The conda route: the same pinned Python packages as the pip route, plus Java 17 for Terrier.
# GENERATED from requirements.lock by `python tools/make_environment.py`; do not edit by hand
# (tests/test_setup_environment.py checks that the two agree).
#   conda env create -f environment.yml && conda activate gradedrel
#   pip install --no-deps -e . && snakemake --cores 2 --rerun-incomplete
name: gradedrel
channels:
  - conda-forge
dependencies:
  - python=3.11
  - openjdk=17
  - pip
  - pip:
"""


def lock_requirements(path: Path | None = None) -> list[str]:
    """The lock's requirement lines (environment markers kept), without comments."""
    lines = []
    for line in (path or LOCK).read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            lines.append(line)
    return lines


def _quote(requirement: str) -> str:
    # YAML: a marker holds quotes and ';', so quote the whole item with single quotes.
    if any(ch in requirement for ch in "\"';:#"):
        return "'" + requirement.replace("'", "''") + "'"
    return requirement


def render(requirements: list[str]) -> str:
    return HEADER + "".join(f"      - {_quote(item)}\n" for item in requirements)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="compare instead of writing; exit 1 on a difference")
    args = parser.parse_args(argv)
    text = render(lock_requirements())
    if args.check:
        current = ENVIRONMENT.read_text(encoding="utf-8") if ENVIRONMENT.exists() else ""
        if current != text:
            print(f"{ENVIRONMENT.name} differs from {LOCK.name}: run "
                  "python tools/make_environment.py", file=sys.stderr)
            return 1
        return 0
    ENVIRONMENT.write_text(text, encoding="utf-8")
    print(f"wrote {ENVIRONMENT.name}: {len(lock_requirements())} pinned packages from {LOCK.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
