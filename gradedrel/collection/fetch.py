"""A collection's ir_datasets files, materialised before any compute job (the local rule
``collection_fetch``, docs/cluster.md): the compute jobs that read the collection then find
every file in ``data.ir_datasets_home`` and need no network.

ir_datasets downloads a file on first use and checks it against the md5 it ships for that
file. :func:`materialise` reads every part the collection takes from ir_datasets once
(documents, topics, judgements), which downloads and checks whatever is missing, and records
what was read: the number of records per part and each file ir_datasets opened under its
home, with size and sha256 (the manifest, ``results/<collection>/downloads.json``).
Collections given as local files need no fetch (:func:`needs_fetch`).
"""
from __future__ import annotations

import contextlib
import functools
import os
import sys
from pathlib import Path
from typing import Callable, Iterator

from gradedrel.collection.spec import CollectionSpec
from gradedrel.core.io import sha256_of

#: What each part reads from its ir_datasets dataset (the method iterated).
PART_ITERATORS = {"docs": "docs_iter", "topics": "queries_iter", "qrels": "qrels_iter"}

_OPENED: list[set[str]] = []   # the sets being filled by active :func:`files_opened` blocks


@functools.cache  # an audit hook cannot be removed: one for the process, idle outside
def _hook() -> None:
    sys.addaudithook(_audit)


def _audit(event: str, args: tuple) -> None:
    if event == "open" and _OPENED and isinstance(args[0], (str, bytes, os.PathLike)):
        name = os.fsdecode(args[0])
        for opened in _OPENED:
            opened.add(name)


@contextlib.contextmanager
def files_opened() -> Iterator[set[str]]:
    """The names of the files this process opens inside the block (Python's ``open``
    audit event: builtins.open, io, gzip, os.open alike)."""
    _hook()
    opened: set[str] = set()
    _OPENED.append(opened)
    try:
        yield opened
    finally:
        _OPENED.remove(opened)


def needs_fetch(spec: CollectionSpec) -> bool:
    """Whether any part of the collection comes from ir_datasets."""
    return any(spec.ir_datasets_id(part) for part in PART_ITERATORS)


def under(home: str | Path, names: set[str]) -> list[Path]:
    """The files among ``names`` that exist under ``home``, as paths relative to it, sorted."""
    root = Path(home).resolve()
    paths = {Path(name).resolve() for name in names}  # a relative name: from the cwd
    return sorted(p.relative_to(root) for p in paths if p.is_file() and root in p.parents)


def materialise(spec: CollectionSpec, home: str | Path,
                load: Callable[[str], object] | None = None) -> dict:
    """Read every ir_datasets part of ``spec`` once (downloading and md5-checking what is
    missing under ``home``); return the manifest: per part its id and record count, and
    every file read under ``home`` with its size and sha256. ``load`` (an id -> dataset
    function) defaults to ``ir_datasets.load``; IR_DATASETS_HOME must already name ``home``
    (:func:`gradedrel.collection.use_ir_datasets_home`)."""
    if load is None:
        import ir_datasets  # imported late: IR_DATASETS_HOME must be set first

        load = ir_datasets.load
    parts: dict[str, dict] = {}
    with files_opened() as opened:
        for part, method in PART_ITERATORS.items():
            ids = spec.ir_datasets_sources(part)
            if not ids:
                continue
            count = 0
            for dataset_id in ids:
                found = sum(1 for _ in getattr(load(dataset_id), method)())
                if found == 0:
                    raise ValueError(f"ir_datasets:{dataset_id}: no {part} (expected at least "
                                     f"one record from {method}())")
                count += found
            parts[part] = {"ir_datasets": ids[0] if len(ids) == 1 else list(ids),
                           "records": count}
    files = [{"path": path.as_posix(), "bytes": (Path(home) / path).stat().st_size,
              "sha256": sha256_of(Path(home) / path)} for path in under(home, opened)]
    if parts and not files:
        raise ValueError(f"ir_datasets read no file under {home}: is IR_DATASETS_HOME set to "
                         "it before ir_datasets is imported?")
    return {"collection": spec.name, "parts": parts, "files": files}

