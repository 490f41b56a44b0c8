"""The package's code lines, counted the way the bounds in tests/test_bounds.py count them.

A line is a code line when a token of code starts on it, ends on it or spans it (a string
over three lines is three code lines; a call wrapped over four lines, four). Not code: blank
lines, comments, and documentation — a statement that is only a string (docstrings of
modules, classes and functions, and the strings documenting an attribute), parenthesised or
implicitly concatenated; a blank or comment line inside brackets is not counted either.
Read with :mod:`tokenize`, so the count is the source's, whatever its layout.

    python benchmarks/code_lines.py [PACKAGE] [--top N]

prints the total, a table per part (each subpackage; ``(top)`` for the package's own
modules) and the N largest modules (default 10). PyTerrier, counted this way, is 10,283 code
lines; ranx 4,174; ir_measures 2,583 (issue 44).
"""
from __future__ import annotations

import argparse
import io
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Tokens that are layout, not code.
LAYOUT = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
          tokenize.ENDMARKER, tokenize.ENCODING}


def _literal(token: tokenize.TokenInfo) -> bool:
    """A string literal (an f-string is an expression: Python 3.11 tokenizes it as one)."""
    return token.type == tokenize.STRING and "f" not in token.string.split(
        token.string[-1])[0].lower()


def _is_documentation(tokens: list[tokenize.TokenInfo]) -> bool:
    """Whether a statement's tokens are only string literals (in parentheses or not)."""
    return any(map(_literal, tokens)) and all(
        _literal(t) or (t.type == tokenize.OP and t.string in "()") for t in tokens)


def code_lines(source: str) -> int:
    """The number of code lines of Python ``source`` (see the module's docstring)."""
    return len(code_line_numbers(source))


def code_line_numbers(source: str) -> set[int]:
    """The numbers (from 1) of the code lines of Python ``source``."""
    lines: set[int] = set()
    statement: list[tokenize.TokenInfo] = []

    def close() -> None:
        if statement and not _is_documentation(statement):
            for token in statement:
                lines.update(range(token.start[0], token.end[0] + 1))
        statement.clear()

    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NEWLINE or (token.type == tokenize.OP and token.string == ";"):
            close()
        elif token.type not in LAYOUT:
            statement.append(token)
        elif token.type in (tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER):
            close()
    close()
    return lines


def census(package: Path) -> dict[str, int]:
    """Module path (relative to the package's parent, ``gradedrel/report/tables.py``) →
    its code lines, for every ``.py`` file under ``package``."""
    package = Path(package)
    return {path.relative_to(package.parent).as_posix(): code_lines(
                path.read_text(encoding="utf-8"))
            for path in sorted(package.rglob("*.py"))}


def part(module: str) -> str:
    """The part a module belongs to: its subpackage (``report``), or ``(top)``."""
    parts = module.split("/")
    return parts[1] if len(parts) > 2 else "(top)"


def by_part(counts: dict[str, int]) -> dict[str, int]:
    """Part → code lines, largest first."""
    out: dict[str, int] = {}
    for module, n in counts.items():
        out[part(module)] = out.get(part(module), 0) + n
    return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))


def report(counts: dict[str, int], top: int = 10) -> str:
    """The total, the table per part and the ``top`` largest modules, as text."""
    parts = by_part(counts)
    width = max(map(len, [*parts, "part"]))
    lines = [f"code lines: {sum(counts.values())} in {len(counts)} modules", "",
             f"{'part':<{width}}  {'modules':>7}  {'lines':>6}"]
    for name, n in parts.items():
        modules = sum(part(m) == name for m in counts)
        lines.append(f"{name:<{width}}  {modules:>7}  {n:>6}")
    lines += ["", f"the {top} largest modules:"]
    largest = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
    width = max((len(module) for module, _ in largest), default=0)
    lines += [f"{module:<{width}}  {n:>6}" for module, n in largest]
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("package", nargs="?", default=str(ROOT / "gradedrel"))
    parser.add_argument("--top", type=int, default=10, help="largest modules shown")
    args = parser.parse_args(argv)
    print(report(census(Path(args.package)), args.top))


if __name__ == "__main__":
    main()
