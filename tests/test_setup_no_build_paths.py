"""No path or tool of the machine the project was built on appears in the project: a user has
none of them. Where a record (a curator's notes, a brief, a benchmark) referred to one, it
says in words what it was (e.g. "[the lookup tool]", "the main branch's finished job").

Every file git tracks is scanned, this one included: the patterns and examples below are
written so that they do not name such a path themselves (a "|" in an example is a "/").
"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Not after a word character, a dot, a slash, a hyphen, a tilde or a colon, so that a URL
# (https://host.org/work/...), a relative path (results/check/...) or ~/... is not a match.
_START = r"(?<![\w./~:-])"
# the folders pytest and tempfile make there, and the build machine's scratch ir_datasets
# cache; any other /tmp/NAME is taken for an example a user can type on any machine
_TMP_MADE = r"(?:pytest-|tmp[a-z0-9_]{8}\b|idh\b)"
# pattern -> why no user has it
BUILD_MACHINE = {
    _START + "/" + "(?:work|check)" + "/": "the build machine's work and CI folders "
                                            "(its checkouts, shared data, curation folders)",
    _START + "/" + "root" + "/": "the build machine's home folder (its pyenv, caches)",
    _START + "/" + r"home/[\w.-]+/": "someone's home folder",
    _START + "/" + "tmp/" + _TMP_MADE + r"[\w.-]*": "a test run's or a session's scratch "
                                                    "folder of the build machine",
    r"\bbin" + "/" + r"(?:lookup|check)\b": "the curation folders' lookup and plan-check tools",
}
PATTERN = re.compile("|".join(f"(?:{pattern})" for pattern in BUILD_MACHINE))


def _path(text: str) -> str:
    return text.replace("|", "/")


def tracked_text_files() -> dict[str, str]:
    """path -> text, for every file git tracks that is UTF-8 text (no NUL byte)."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                            check=True).stdout.decode("utf-8").split("\0")
    texts = {}
    for name in filter(None, listed):
        path = ROOT / name
        if not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data:
            continue
        try:
            texts[name] = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
    return texts


def build_machine_paths(text: str) -> list[tuple[int, str, str]]:
    """(line, match, reason) of every build-machine path in ``text``."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        for match in PATTERN.finditer(line):
            reason = next(why for pattern, why in BUILD_MACHINE.items()
                          if re.match(pattern, line[match.start():]))
            found.append((number, match.group(0), reason))
    return found


def offending(files: dict[str, str]) -> list[str]:
    """'path:line: match (reason)' for every build-machine path in ``files``."""
    return [f"{name}:{line}: {match} ({reason})" for name, text in sorted(files.items())
            for line, match, reason in build_machine_paths(text)]


def test_no_tracked_file_names_a_build_machine_path():
    files = tracked_text_files()
    assert len(files) > 400 and {"README.md", "config/config.yaml",
                                 Path(__file__).relative_to(ROOT).as_posix()} <= set(files)
    found = offending(files)
    assert not found, "say in words what these were:\n" + "\n".join(found)


def test_a_file_added_with_a_build_machine_path_fails_the_scan():
    files = tracked_text_files()
    added = dict(files, **{"docs/new.md": _path("Compare with |work|main|results.\n")})
    assert offending(added) == [
        _path("docs|new.md:1: |work| (the build machine's work and CI folders (its checkouts, "
              "shared data, curation folders))")]
    edited = {**files, "README.md": files["README.md"]
              + _path("IR_DATASETS_HOME=|tmp|pytest-of-root|idh\n")}
    assert [line.split(": ")[1].split(" (")[0] for line in offending(edited)] == [
        _path("|tmp|pytest-of-root")]


@pytest.mark.parametrize("text, match", [
    ("# (through |work|curation|bin|lookup)", "|work|"),
    ("cloned in |check|gradedrel", "|check|"),
    ('Path("|root|.pyenv|versions|3.10.13|bin|python")', "|root|"),
    ("only requests.tsv, common|*, bin|lookup and bin|check", "bin|lookup"),
    ("see |home|alice|data", "|home|alice|"),
    ("written to |tmp|pytest-of-root|pytest-3|test_x0", "|tmp|pytest-of-root"),
    ("cache in |tmp|tmpk2x9a_qz|cache", "|tmp|tmpk2x9a_qz"),
    ("IR_DATASETS_HOME=|tmp|idh .venv|bin|python", "|tmp|idh"),
    ('"|work|shared|paper|JK2000.md"', "|work|"),
])
def test_each_kind_is_found(text, match):
    assert _path(match) in [found for _, found, _ in build_machine_paths(_path(text))]


@pytest.mark.parametrize("text", [
    "a directory outside the project (`|tmp`)",    # the temporary folder of any machine
    "e.g. --out |tmp|eval",                         # an example a user can type anywhere
    "~|.ir_datasets, ~|.cache|gradedrel",           # a user's own caches
    ".snakemake|scripts|tmpab12.rule.py",
    "gradedrel thesaurus lookup, gradedrel plans check",
    "results|cranfield|plans|expert|plans.yaml",
    "https:||example.org|work|check|root|index.html",  # a URL's path
    "results|check|root|x",                           # a relative path
    "the curators' thesaurus lookup tool and plan checker",
])
def test_ordinary_text_passes(text):
    assert build_machine_paths(_path(text)) == []
