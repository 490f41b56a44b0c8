"""Rule params that hash by content, not by the order their mapping keys were written in.

Snakemake compares each param's ``repr`` with the one it recorded, and a dict's ``repr``
follows its key order, so a config rewritten in another key order re-ran every job.
:func:`canonical` wraps every mapping in :class:`CanonicalDict`, a dict whose ``repr``
lists the keys sorted. Where key order matters to an output, the code writing it fixes
the order itself (e.g. ``Settings.from_config`` orders gain profiles).
"""
from __future__ import annotations

from typing import Any, Mapping


class CanonicalDict(dict):
    """A dict whose ``repr`` is independent of insertion order (keys sorted by their repr)."""

    def __repr__(self) -> str:
        items = sorted(self.items(), key=lambda item: repr(item[0]))
        return "{" + ", ".join(f"{k!r}: {v!r}" for k, v in items) + "}"

    def __reduce__(self):  # pickled (Snakemake hands params to scripts) as itself
        return (CanonicalDict, (dict(self),))


def canonical(value: Any) -> Any:
    """``value`` with every mapping (at any depth, in lists and tuples too) a
    :class:`CanonicalDict`; everything else unchanged."""
    if isinstance(value, Mapping):
        return CanonicalDict((k, canonical(v)) for k, v in value.items())
    if isinstance(value, list):
        return [canonical(v) for v in value]
    if isinstance(value, tuple):
        return tuple(canonical(v) for v in value)
    return value


def plain(value: Any, sort: bool = False) -> Any:
    """``value`` as JSON- and YAML-friendly values: mappings with text keys (in their own
    order; ``sort``: sorted by their text at every depth, where config's order does not
    matter), tuples as lists; anything else as it is."""
    if isinstance(value, Mapping):
        keys = sorted(value, key=str) if sort else value
        return {str(k): plain(value[k], sort) for k in keys}
    if isinstance(value, (list, tuple)):
        return [plain(v, sort) for v in value]
    return value
