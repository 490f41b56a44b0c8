"""Effort: how far down must a user scan to get what the ideal ranking gives at rank k.

For a method's averaged CG (or DCG) curve v and the averaged ideal curve I,
the effort at k is the first rank i with v[i] ≥ I[k] (Järvelin & Kekäläinen
2000, finding 4: 34 vs 62 documents for the ideal's level-3 gain at rank 10).
When v never reaches I[k] within the curve's depth N, there is no such rank:
reported as "not reached within N", never as N.
"""
from __future__ import annotations

import numpy as np

# Curves are sums of floats; a reached target must not be missed by rounding.
TOLERANCE = 1e-9


def rank_reached(curve: np.ndarray, target: float) -> int | None:
    """First 1-based rank where ``curve`` ≥ ``target``, or None if it never gets there."""
    hits = np.flatnonzero(np.asarray(curve) >= target - TOLERANCE * max(1.0, abs(target)))
    return int(hits[0]) + 1 if len(hits) else None
