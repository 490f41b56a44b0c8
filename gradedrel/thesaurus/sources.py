"""Where thesauri come from: the ``thesauri:`` config section, with the NASA default.

Each entry names a download URL, its sha256, and the local path the project
keeps it at. :func:`ensure` makes the local copy exist and verifies it
(:func:`gradedrel.downloads.fetch`).
"""
from __future__ import annotations

from pathlib import Path
from typing import Mapping

from ..downloads import fetch

#: The NASA Thesaurus in SKOS (NASA STI Program, github.com/nasa/dictionaries),
#: pinned to one commit; see the project's data README.
NASA = {
    "url": ("https://github.com/nasa/dictionaries/raw/"
            "7cfa4ff370a1190dbe770ba86098d0b5ab40e3a8/thesauri/STI/"
            "NASA_Thesaurus_Alpha_SKOS.xml.bz2"),
    "sha256": "d0c979aa8ce75344e5d6d2459e5e4e4cbec473b30eff4281133bea54772d9102",
    "path": ".data/thesauri/nasa/NASA_Thesaurus_Alpha_SKOS.xml.bz2",
}
DEFAULTS = {"nasa": NASA}


def entry(name: str, config: Mapping | None = None) -> dict:
    """The config entry for thesaurus ``name`` (``config["thesauri"][name]``),
    falling back to the built-in default of that name."""
    configured = dict((config or {}).get("thesauri", {}) or {})
    if name in configured:
        return {**DEFAULTS.get(name, {}), **configured[name]}
    if name in DEFAULTS:
        return dict(DEFAULTS[name])
    known = sorted(set(configured) | set(DEFAULTS))
    raise ValueError(f"config: no thesaurus named {name!r} under 'thesauri' (known: {known})")


def ensure(name: str, config: Mapping | None = None, root: str | Path = ".") -> Path:
    """The verified local copy of thesaurus ``name``, downloaded if absent.

    A relative ``path`` is taken from ``root`` (the working directory of the run).
    """
    spec = entry(name, config)
    path = Path(spec["path"])
    if not path.is_absolute():
        path = Path(root) / path
    return fetch(spec["url"], path, spec["sha256"])
