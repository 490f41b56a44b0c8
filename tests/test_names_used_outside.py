"""Every name the benchmarks, tools and workflow scripts import from gradedrel exists: they
run on demand or inside a job, so a name a refactoring removed would otherwise surface only
when somebody next runs them (``gradedrel.cli.load_qrels`` once broke
benchmarks/evaluate_process.py this way)."""
import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(p for folder in ("benchmarks", "tools", "study/procedures", "scripts")
               for p in (ROOT / folder).glob("*.py"))


def imported_names(path: Path):
    """``(line, module, name)`` of each ``from gradedrel… import name`` in ``path``."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("gradedrel"):
            for alias in node.names:
                yield node.lineno, node.module, alias.name


def missing_names(path: Path) -> list[str]:
    """``file:line: module.name`` of each imported name that is neither an attribute nor a
    submodule of its module."""
    missing = []
    for line, module, name in imported_names(path):
        if not hasattr(importlib.import_module(module), name):
            try:
                importlib.import_module(f"{module}.{name}")
            except ModuleNotFoundError:
                missing.append(f"{path.name}:{line}: {module}.{name}")
    return missing


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_gradedrel_name_imported_exists(path):
    assert missing_names(path) == []


def test_the_check_sees_a_missing_name_and_accepts_a_submodule(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from gradedrel.cli import no_such_name, main\n"
                   "from gradedrel.evaluation import tables\n", encoding="utf-8")
    assert missing_names(bad) == ["bad.py:1: gradedrel.cli.no_such_name"]
