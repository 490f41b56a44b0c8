"""What stands behind a result: software versions and the configuration, hashed.

Provenance records carry no timestamps or host names, so that the same inputs
give byte-identical files. A job's records are completed after the job (:func:`completed`,
:func:`gradedrel.core.steps.run_step`): the sha256 of every output they cover and a hash of
each section of the workflow's configuration, which `make adopt` checks a copy against
(:mod:`gradedrel.core.adoption`).
"""
from __future__ import annotations

import hashlib
import json
import platform
from importlib import metadata
from pathlib import Path
from typing import Any, Iterable, Mapping

#: A provenance record's file name: a folder's record, or the record beside one output.
RECORD_NAME = "provenance.json"
RECORD_SUFFIX = ".provenance.json"

PACKAGES = ("pyterrier", "ir_datasets", "ir_measures", "pytrec_eval-terrier",
            "pandas", "numpy", "scipy", "matplotlib", "snakemake", "gradedrel")


def package_version(name: str) -> str:
    """The installed version of distribution ``name``, or ``not installed``."""
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def package_versions(names: tuple[str, ...] = PACKAGES) -> dict[str, str]:
    """Python's version and each named package's installed version ('not installed' if absent)."""
    return {"python": platform.python_version()} | {name: package_version(name) for name in names}


def config_hash(config: Mapping[str, Any]) -> str:
    """sha256 (first 16 hex digits) of the configuration in canonical JSON (compact, keys
    sorted, non-JSON values as str)."""
    text = json.dumps(config, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def record(step: str, config: Mapping[str, Any], terrier_version: str | None = None,
           **extra: Any) -> str:
    """A provenance record as pretty JSON text (stable key order)."""
    body = {"step": step, "config_hash": config_hash(config), "config": config,
            "versions": package_versions()}
    if terrier_version is not None:
        body["versions"]["terrier"] = terrier_version
    body.update(extra)
    return json.dumps(body, sort_keys=True, indent=2, default=str) + "\n"


def is_record(path: str | Path) -> bool:
    """Whether ``path`` names a provenance record (``provenance.json``, ``<name>.provenance.json``)."""
    name = Path(path).name
    return name == RECORD_NAME or name.endswith(RECORD_SUFFIX)


def coverage(records: Iterable[str], files: Iterable[str]) -> dict[str, list[str]]:
    """Which of a job's output ``files`` each of its ``records`` covers: a folder's record
    (``provenance.json``) the files under its folder, a file's record (``<name>.provenance.json``)
    the files ``<name>.*`` beside it; and the files no record claims every file's record (a
    job of two steps: the retrieve job's runs, not its compiled queries' folder), or every
    record when the job has no file's record."""
    import os

    files = [str(f) for f in files]
    own, folders = {}, set()
    for record in map(str, records):
        if Path(record).name == RECORD_NAME:
            folder = os.path.dirname(record)
            own[record] = [f for f in files if f.startswith(folder + os.sep if folder else "")]
            folders.add(record)
        else:
            stem = record[: -len(RECORD_SUFFIX)] + "."
            own[record] = [f for f in files if f.startswith(stem)]
    claimed = {f for found in own.values() for f in found}
    rest = [f for f in files if f not in claimed]
    takers = set(own) - folders or set(own)
    return {record: sorted({*found, *(rest if record in takers else ())})
            for record, found in own.items()}


def config_sections(config: Mapping[str, Any]) -> dict[str, str]:
    """Each top-level section of the workflow's configuration (after all its layers and the
    schema's defaults) → :func:`config_hash` of it: what a record was made with, section by
    section, so that a difference is named by its section."""
    return {name: config_hash({name: value}) for name, value in config.items()}


def completed(text: str, outputs: Iterable[str | Path], config: Mapping[str, Any]) -> str:
    """The record ``text`` with ``outputs`` (``{path, sha256}`` of every output it covers,
    sorted by path) and ``workflow_config`` (:func:`config_sections` of ``config``)."""
    from gradedrel.core.io import sha256_of

    body = json.loads(text)
    body["outputs"] = [{"path": str(path), "sha256": sha256_of(path)}
                       for path in sorted(map(str, outputs))]
    body["workflow_config"] = config_sections(config)
    return json.dumps(body, sort_keys=True, indent=2, default=str) + "\n"
