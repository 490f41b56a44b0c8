"""Every public definition of the package has a docstring: each function, class and method
of gradedrel/ whose name does not start with "_" (a method: of a public class), read with
ast from the source files, so nothing is imported."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "gradedrel"
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def undocumented(source: str, where: str = "<string>") -> list[str]:
    """'where:line qualified.name' of each public definition in ``source`` without one."""
    found = []

    def walk(body, prefix):
        for node in body:
            if not isinstance(node, DEFINITIONS) or node.name.startswith("_"):
                continue
            if ast.get_docstring(node) is None:
                found.append(f"{where}:{node.lineno} {prefix}{node.name}")
            if isinstance(node, ast.ClassDef):
                walk(node.body, f"{prefix}{node.name}.")

    walk(ast.parse(source).body, "")
    return found


def test_every_public_definition_has_a_docstring():
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 100
    missing = [entry for path in files for entry in
               undocumented(path.read_text(encoding="utf-8"),
                            path.relative_to(PACKAGE.parent).as_posix())]
    assert not missing, "public definitions without a docstring:\n" + "\n".join(missing)


def test_the_check_sees_what_it_should():
    source = '''
def public(): pass
def _private(): pass
class Shown:
    """Documented."""
    def method(self): pass
    def _helper(self): pass
    def __len__(self): return 0
class _Hidden:
    def method(self): pass
async def fetch():
    """Documented."""
'''
    assert undocumented(source) == ["<string>:2 public", "<string>:6 Shown.method"]
