"""The base install (`pip install gradedrel`, no extras) simulated in this environment: a
subprocess in which every package that only the extras bring (``[compare]``, ``[workflow]``)
cannot be imported, running ``gradedrel.cli.main``; it reports what the command tried to
import. ``extras=("compare",)`` simulates ``pip install '.[compare]'`` instead.

The blocked packages are derived, not listed: the distributions the extras require
(pyproject.toml), with their requirements, minus those the base dependencies (and the
installed extras) require, mapped to the names they are imported by (``python-terrier`` →
``pyterrier``, ``pyjnius`` → ``jnius``, …).
"""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import tomllib
from importlib.metadata import PackageNotFoundError, distribution, packages_distributions
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _closure(requirements: list[str]) -> set[str]:
    """The distributions ``requirements`` install here, with everything they require, the
    extras they ask for included (canonical names)."""
    seen: set[tuple[str, frozenset]] = set()
    names: set[str] = set()
    stack = [(Requirement(item), frozenset({""})) for item in requirements]
    while stack:
        requirement, parent_extras = stack.pop()
        if requirement.marker is not None and not any(
                requirement.marker.evaluate({"extra": extra}) for extra in parent_extras):
            continue
        name = canonicalize_name(requirement.name)
        extras = frozenset(requirement.extras) | {""}
        if (name, extras) in seen:
            continue
        if name == "gradedrel":  # an extra of the project itself: its requirements
            seen.add((name, extras))
            stack += [(Requirement(item), frozenset({""})) for extra in requirement.extras
                      for item in PROJECT["optional-dependencies"][extra]]
            continue
        seen.add((name, extras))
        names.add(name)
        try:
            stack += [(Requirement(item), extras) for item in distribution(name).requires or []]
        except PackageNotFoundError:  # not installed here, so nothing of it can be imported
            pass
    return names


def base_distributions(extras: tuple[str, ...] = ()) -> set[str]:
    """What ``pip install .`` installs (with ``extras``: ``pip install '.[extras]'``)."""
    return _closure(PROJECT["dependencies"] + [f"gradedrel[{extra}]" for extra in extras])


def workflow_only_distributions(extras: tuple[str, ...] = ()) -> set[str]:
    """What the ``[workflow]`` extra (the ``[compare]`` one within it) adds to the base
    install (with ``extras``)."""
    return _closure(PROJECT["optional-dependencies"]["workflow"]) - base_distributions(extras)


def workflow_only_modules(extras: tuple[str, ...] = ()) -> set[str]:
    """Top-level import names provided only by the workflow-only distributions."""
    only = workflow_only_distributions(extras)
    return {module for module, dists in packages_distributions().items()
            if dists and {canonicalize_name(d) for d in dists} <= only
            and not module.startswith("_") and not _in_the_standard_library(module)}


def _in_the_standard_library(module: str) -> bool:
    # a stray top-level name a distribution ships (e.g. "test") that the standard library has
    if module in sys.stdlib_module_names:
        return True
    spec = importlib.util.find_spec(module)
    stdlib = sysconfig.get_paths()["stdlib"]
    return bool(spec and spec.origin and spec.origin.startswith(stdlib + os.sep))


_CHILD = textwrap.dedent("""
    import json, sys
    blocked, attempted = set(json.loads(sys.argv[1])), []
    block = json.loads(sys.argv[3])

    class Absent:
        # a meta-path finder before every other: it notes every import of a workflow-only
        # package and, when blocking, makes it fail as if the package were not installed
        @staticmethod
        def find_spec(name, path=None, target=None):
            if name.split(".")[0] in blocked:
                attempted.append(name)
                if block:
                    raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, Absent)
    from gradedrel.cli import main
    try:
        code = main(json.loads(sys.argv[2]))
    except SystemExit as stop:  # --help, --version
        code = stop.code
    present = sorted(m for m in sys.modules if m.split(".")[0] in blocked)
    print(json.dumps({"code": code, "attempted": sorted(set(attempted)), "present": present}),
          file=sys.stderr)
""")


#: A base dependency the light commands must not need either: lxml reads thesauri only
#: (``thesaurus lookup``). Blocked with the workflow-only packages where no extra brings it.
ALSO_ABSENT = {"lxml"}


def absent_modules(extras: tuple[str, ...] = ()) -> set[str]:
    """What the simulated install (with ``extras``) lacks: the workflow-only packages (and,
    without extras, :data:`ALSO_ABSENT`)."""
    return workflow_only_modules(extras) | (set() if extras else ALSO_ABSENT)


def run_without_workflow_packages(argv: list[str], cwd: Path | None = None,
                                  block: bool = True, extras: tuple[str, ...] = ()) -> dict:
    """``gradedrel <argv>`` in a fresh interpreter where the packages the install with
    ``extras`` (default: none) lacks are absent (``block=False``: present, as here, and only
    watched). Returns the exit code,
    the imports of workflow-only packages the command attempted, the workflow-only modules
    in ``sys.modules`` at its end (with ``block``, none can be), its stdout and the rest of
    its stderr."""
    result = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps(sorted(absent_modules(extras))),
         json.dumps(argv), json.dumps(block)], capture_output=True, text=True, cwd=cwd,
        timeout=300)
    *lines, last = result.stderr.rstrip("\n").split("\n") or [""]
    try:
        report = json.loads(last)
    except json.JSONDecodeError:
        raise AssertionError(f"the command died: {result.stderr[-3000:]}") from None
    return dict(report, stdout=result.stdout, stderr="\n".join(lines))


def source_copy(target: Path) -> Path:
    """What `pip install .` builds from (pyproject, README, LICENSE, the package), copied so
    that the build writes nothing into the checkout."""
    target.mkdir()
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, target / name)
    for folder in ("gradedrel", "config"):   # setup.py copies config/'s defaults in
        shutil.copytree(ROOT / folder, target / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return target
