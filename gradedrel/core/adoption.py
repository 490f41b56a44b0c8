"""Adopting copied results: does each provenance record match this checkout?

Results copied into a fresh clone (``results/``, ``figures/``) carry their provenance
records. Before `make adopt` marks them current (tools/adopt.py), every record is checked
against the clone: its commit, its package versions, the workflow configuration it was made
with (each section's hash, against the clone's configuration after all its layers) and the
sha256 of every file it names: the inputs its job read and the outputs it covers (every
output of its job but the report pages). Any difference refuses the whole adoption. Pure
apart from reading the files a record names; the clone's facts are passed in.
"""
from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping

from gradedrel.core.errors import InputError
from gradedrel.core.io import sha256_of
from gradedrel.core.ir_metadata import IR_DATASETS_ROOT, git, source
from gradedrel.core.provenance import is_record

#: The folders of a project that hold results (and their provenance records).
RESULT_FOLDERS = ("results", "figures")


@dataclass(frozen=True)
class Clone:
    """What a record is compared with: this checkout's commit (None outside git), the
    installed versions, the roots of the files a record names, and the hash of each section
    of the workflow configuration (``config_sections``:
    :func:`gradedrel.core.provenance.config_sections`; None: not compared) the results are
    adopted with, from the config files ``config_files``."""

    root: Path
    commit: str | None
    versions: Mapping[str, str]
    ir_datasets_home: Path | None = None
    digests: dict = field(default_factory=dict, compare=False)
    config_sections: Mapping[str, str] | None = None
    config_files: tuple[str, ...] = ()

    def resolve(self, path: str, root: str | None = None) -> Path | None:
        """Where a recorded ``path`` is in this clone (None for a root it does not know)."""
        if root is None:
            return self.root / path
        if root == IR_DATASETS_ROOT and self.ir_datasets_home is not None:
            return self.ir_datasets_home / path
        return None

    def sha256(self, path: Path) -> str:
        """The file's sha256, each file read once however many records name it."""
        if path not in self.digests:
            self.digests[path] = sha256_of(path)
        return self.digests[path]


def record_files(root: Path, folders: tuple[str, ...] = RESULT_FOLDERS) -> list[Path]:
    """Every provenance record under ``root``'s result folders, sorted."""
    return sorted(p for folder in folders for p in (Path(root) / folder).rglob("*")
                  if p.is_file() and is_record(p))


def read_record(path: Path) -> dict:
    """A provenance record's JSON object; a record that is not one names its file and line."""
    try:
        value = json.loads(Path(path).read_text(encoding="utf-8"))
    except UnicodeDecodeError as error:
        raise InputError(path, None, "a UTF-8 JSON provenance record", str(error)) from None
    except json.JSONDecodeError as error:
        raise InputError(path, error.lineno, "a JSON provenance record", error.msg) from None
    if not isinstance(value, dict):
        raise InputError(path, 1, "a JSON object (a provenance record)", type(value).__name__)
    return value


def named_files(record: Any) -> Iterator[tuple[str, str | None, str]]:
    """``(path, root, sha256)`` of every file a record names with its digest, anywhere in it:
    a ``{path, sha256[, root]}`` file record, or a ``<name>`` path beside ``<name>_sha256``."""
    if isinstance(record, Mapping):
        path, digest = record.get("path"), record.get("sha256")
        if isinstance(path, str) and isinstance(digest, str):
            root = record.get("root")
            yield path, root if isinstance(root, str) else None, digest
        for key, value in record.items():
            if key.endswith("_sha256") and isinstance(value, str):
                named = record.get(key[: -len("_sha256")])
                if isinstance(named, str):
                    yield named, None, value
            elif key != "config":  # the configuration names settings, not files read
                yield from named_files(value)
    elif isinstance(record, list):
        for value in record:
            yield from named_files(value)


def config_difference(record: Mapping, clone: Clone) -> str | None:
    """Which section of the workflow configuration ``record`` was made with differs from the
    clone's (``workflow_config``: section → hash), or None; a record without its outputs'
    checksums or its configuration cannot be checked (made by an older gradedrel)."""
    made = record.get("workflow_config")
    if not isinstance(made, Mapping) or not isinstance(record.get("outputs"), list):
        return ("holds no checksums of its outputs or its workflow configuration (made by an "
                "older gradedrel); re-make the results with this commit")
    if clone.config_sections is None:
        return None
    files = " + ".join(clone.config_files) or "its config files"
    for name in sorted(set(made) | set(clone.config_sections)):
        if made.get(name) == clone.config_sections.get(name):
            continue
        if name not in made:
            return (f"made without config section {name!r}, which this clone's configuration "
                    f"({files}) has")
        if name not in clone.config_sections:
            return (f"made with config section {name!r}, which this clone's configuration "
                    f"({files}) lacks")
        return (f"made with another config section {name!r} than this clone's "
                f"configuration ({files})")
    return None


def difference(record: Mapping, clone: Clone) -> str | None:
    """What in ``record`` first does not match ``clone`` (its commit, the versions the clone
    also has, its workflow configuration, every named file's sha256: inputs and outputs),
    or None."""
    source = record.get("source")
    if isinstance(source, Mapping):
        made = source.get("commit")
        if source.get("dirty"):
            return f"made from uncommitted changes to commit {made}, not from a commit"
        if made != clone.commit:
            here = f"this clone is at {clone.commit}" if clone.commit else \
                "this clone is not a git checkout"
            return f"made at commit {made}; {here}" if made else \
                f"made outside a git checkout; {here}"
    versions = record.get("versions")
    if isinstance(versions, Mapping):
        for name in sorted(versions):
            if name in clone.versions and str(versions[name]) != str(clone.versions[name]):
                return (f"made with {name} {versions[name]}; this environment has "
                        f"{clone.versions[name]}")
    problem = config_difference(record, clone)
    if problem:
        return problem
    for path, root, digest in named_files(record):
        where = clone.resolve(path, root)
        if where is None:
            return f"names {path} under {root!r}, a root adopt does not know"
        if not where.is_file():
            return f"names {path} ({root or 'project'}), missing here"
        if clone.sha256(where) != digest:
            return f"names {path} with sha256 {digest[:12]}…; the file here differs"
    return None


def refusals(root: Path, clone: Clone) -> tuple[int, list[str]]:
    """(how many records were checked, one line per record that does not match:
    ``path: what differs``, paths relative to ``root``)."""
    found = []
    files = record_files(root)
    for path in files:
        name = path.relative_to(root)
        try:
            problem = difference(read_record(path), clone)
        except InputError as error:  # its one line, naming the record by its relative path
            found.append(str(InputError(name, error.line, error.expected, error.found)))
            continue
        if problem:
            found.append(f"{name}: {problem}")
    return len(files), found


@dataclass(frozen=True)
class Output:
    """One row of ``snakemake --summary``: an output, its rule, its status and plan."""

    path: str
    rule: str
    status: str
    pending: bool


def summary_rows(text: str) -> list[Output]:
    """The rows of ``snakemake --summary`` output (tab-separated, with a header naming
    ``output_file``, ``rule``, ``status``, ``plan``)."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("output_file\t")), None)
    if start is None:
        raise InputError("snakemake --summary", None, "a header line starting 'output_file'",
                         lines[0] if lines else "no output")
    rows = csv.DictReader(io.StringIO("\n".join(lines[start:])), delimiter="\t",
                          quoting=csv.QUOTE_NONE)
    return [Output(row["output_file"], row["rule"], row["status"],
                   row["plan"] != "no update") for row in rows if row.get("plan")]


def git_state(root: Path) -> tuple[str | None, str | None]:
    """(the commit of the project at ``root``, the first tracked file that differs from it);
    (None, None) outside a git checkout of the project."""
    made = source(root)
    if not made["commit"] or not made["dirty"]:
        return made["commit"], None
    status = git(root, "status", "--porcelain", "--untracked-files=no") or ""
    changed = [line[3:] for line in status.splitlines() if line.strip()]
    return made["commit"], changed[0] if changed else "(a tracked file)"
