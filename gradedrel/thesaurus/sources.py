"""Where thesauri come from: the ``thesauri:`` config section (the only place their
URLs and sha256 pins are written; the NASA Thesaurus is pinned in config/config.yaml).

Each entry names a download URL, its sha256, and the local path the project
keeps it at. :func:`ensure` makes the local copy exist and verifies it
(:func:`gradedrel.core.downloads.fetch`).
"""
from __future__ import annotations

from pathlib import Path
from typing import Mapping

import yaml

from gradedrel.core.downloads import fetch

#: The project's own config, beside the package (used when no other config is given).
PROJECT_CONFIG = Path(__file__).resolve().parents[2] / "config" / "config.yaml"


def project_thesauri(config_path: str | Path | None = None) -> dict:
    """The ``thesauri`` section of ``config_path`` if it exists, else of the project's config."""
    for path in (config_path, PROJECT_CONFIG):
        if path is not None and Path(path).exists():
            with open(path, encoding="utf-8") as handle:
                return dict((yaml.safe_load(handle) or {}).get("thesauri") or {})
    return {}


def entry(name: str, config: Mapping | None = None) -> dict:
    """The config entry for thesaurus ``name`` (``config["thesauri"][name]``)."""
    configured = dict((config or {}).get("thesauri", {}) or {})
    if name in configured:
        return dict(configured[name])
    raise ValueError(f"config: no thesaurus named {name!r} under 'thesauri' "
                     f"(known: {sorted(configured)})")


def ensure(name: str, config: Mapping | None = None, root: str | Path = ".") -> Path:
    """The verified local copy of thesaurus ``name``, downloaded if absent.

    A relative ``path`` is taken from ``root`` (the working directory of the run).
    """
    spec = entry(name, config)
    path = Path(spec["path"])
    if not path.is_absolute():
        path = Path(root) / path
    return fetch(spec["url"], path, spec["sha256"])
