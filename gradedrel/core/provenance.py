"""What stands behind a result: software versions and the configuration, hashed.

Provenance records carry no timestamps or host names, so that the same inputs
give byte-identical files.
"""
from __future__ import annotations

import hashlib
import json
import platform
from importlib import metadata
from typing import Any, Mapping

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
