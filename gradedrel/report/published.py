"""The paper's published numbers, read from a reference file (never written in code).

The file (``config/published/jk2000.yaml``) holds the AvP table of Järvelin &
Kekäläinen (SIGIR 2000), the effort numbers of finding 4, the DCG advantage at
rank 50 (not read: no report shows it), the testbed and the paper's setting.
:func:`load` checks the shape of what it reads and names the file and key on any problem.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, get_type_hints

from gradedrel.core import yaml_io
from gradedrel.core.errors import InputError


@dataclass(frozen=True)
class EffortSpec:
    """One effort row: documents to scan to reach the ideal gain at rank k (each field's type
    is the one :func:`from_mapping` checks and converts the file's value to)."""

    id: str
    profile: str
    kind: str
    base: int
    k: int
    strong: float
    others: float


@dataclass(frozen=True)
class Published:
    """The paper's published numbers: setting, requests, recall bases, AvP and effort."""

    source: str
    setting: Mapping[str, str]
    requests: int
    recall_base: Mapping[int, int]
    avp: Mapping[int, Mapping[str, float]]   # level -> query type -> AvP in 0..1
    effort: tuple[EffortSpec, ...]

    def avp_of(self, level: int, query_type: str) -> float:
        """The published AvP (0..1); NaN for a query type the paper did not run."""
        return self.avp.get(level, {}).get(query_type, math.nan)


def _need(raw: Mapping, key, path: str, where: str, kind=None):
    """``raw[key]`` (as ``kind``; a float must be a number); InputError naming the key."""
    if not isinstance(raw, Mapping) or key not in raw:
        raise InputError(path, None, f"key '{where}{key}'", "missing")
    value = raw[key]
    if kind is float and (isinstance(value, bool) or not isinstance(value, (int, float))):
        raise InputError(path, None, f"a number at '{where}{key}'", value)
    return value if kind is None else kind(value)


def from_mapping(raw: Mapping, path: str = "<published>") -> Published:
    """Check and convert the reference file's content; AvP is rescaled to 0..1."""
    scale = _need(raw, "avp_scale", path, "", float)
    avp_raw = _need(raw, "avp", path, "")
    avp: dict[int, dict[str, float]] = {}
    for level in (1, 2, 3):
        row = _need(avp_raw, level, path, "avp.")
        if not isinstance(row, Mapping):
            raise InputError(path, None, f"a mapping query type -> AvP at 'avp.{level}'", row)
        # the paper's query types; a structure it did not run simply has no value here
        avp[level] = {str(qt): _need(row, qt, path, f"avp.{level}.", float) / scale
                      for qt in row}
    effort = tuple(EffortSpec(**{key: _need(item, key, path, f"effort[{i}].", kind)
                                 for key, kind in get_type_hints(EffortSpec).items()})
                   for i, item in enumerate(_need(raw, "effort", path, "")))
    testbed = _need(raw, "testbed", path, "")
    return Published(
        source=str(_need(raw, "source", path, "")),
        setting={str(k): str(v) for k, v in _need(raw, "setting", path, "").items()},
        requests=_need(testbed, "requests", path, "testbed.", int),
        recall_base={int(k): int(v)
                     for k, v in _need(testbed, "recall_base", path, "testbed.").items()},
        avp=avp, effort=effort)


def load(path: str | Path) -> Published:
    """The published numbers from a YAML file (config/published/*.yaml); InputError for invalid
    YAML."""
    return from_mapping(yaml_io.load_file(path) or {}, str(path))
