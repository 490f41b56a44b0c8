"""One error type for bad input: it names the file, the line and what was expected.

Scripts catch it and print its one-line message; nothing else in the package
prints or exits.
"""
from __future__ import annotations

from pathlib import Path

#: The most characters of a found value a message shows (a longer one is cut, its length named).
FOUND_LIMIT = 200


def shown(found: object) -> str:
    """``found`` as a message shows it: its repr, a text longer than :data:`FOUND_LIMIT`
    characters cut there and its whole length given in bytes (a 10 MB line is not a
    10 MB message)."""
    if isinstance(found, (str, bytes)) and len(found) > FOUND_LIMIT:
        size = len(found.encode("utf-8", "replace") if isinstance(found, str) else found)
        return f"{found[:FOUND_LIMIT]!r}… (cut; {size} bytes in all)"
    return repr(found)


class InputError(ValueError):
    """Bad input, located: ``path:line: expected …, found …``."""

    def __init__(self, path: str | Path | None, line: int | None, expected: str,
                 found: object = None):
        self.path = None if path is None else str(path)
        self.line = line
        self.expected = expected
        self.found = found
        where = self.path or "<input>"
        if line is not None:
            where = f"{where}:{line}"
        message = f"{where}: expected {expected}"
        if found is not None:
            message += f"; found {shown(found)}"
        super().__init__(message)


def once(seen: dict, key, path: str | Path, line: int, expected: str, found: object) -> None:
    """Record ``key`` first seen at ``line``; a key seen again is an :class:`InputError`
    (``expected …; first at line n``) — one judgement, one ranked document per pair."""
    if key in seen:
        raise InputError(path, line, f"{expected}; first at line {seen[key]}", found)
    seen[key] = line


class CorruptCache(InputError):
    """A cache file that cannot be read: one line naming the file, why, and that deleting
    it is the remedy (it is rebuilt from its source when next needed)."""

    def __init__(self, path: str | Path, why: str, what: str = "cache"):
        self.path, self.line, self.expected, self.found = str(path), None, f"a {what}", why
        ValueError.__init__(self, f"{path}: a corrupt {what} ({why}); delete it: it is rebuilt "
                                  "from its source when next needed")
