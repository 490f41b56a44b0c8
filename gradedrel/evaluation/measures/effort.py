"""Effort: how far down must a user scan to get a given amount of cumulated gain.

For a method's averaged CG (or DCG) curve v and a target gain t, the effort is the first
rank i with v[i] ≥ t; when v never reaches t within the curve's depth N there is no such
rank (reported as "not reached within N", never as N). Two targets are read:

- the paper's effort reading (Järvelin & Kekäläinen 2000, finding 4: 34 vs 62 documents for
  the ideal's level-3 gain at rank 10): t = the mean ideal curve at rank k
  (:func:`rank_reached`, the evaluation's ``effort.tsv``, which the findings read);
- *proportional effort* (docs/preregistration.md, H4): t = a share of the mean ideal
  curve's value at its last rank; the effect is the ratio of two runs' efforts, with a
  paired bootstrap over requests (curves, target and ranks recomputed in every resample):
  :func:`effort_ratio`.

One definition of "reached" for both: :data:`TOLERANCE`. :class:`RequestCurves` holds the
per-request CG curves of the runs and of the ideal, rebuilt from the evaluation's
``ranked_grades.tsv`` and the collection's ``recall_base.tsv`` (:mod:`.ranked_grades`), for
the proportional effort of the findings' comparisons (:mod:`gradedrel.evaluation.comparisons`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np

from gradedrel.evaluation.measures.cumulated_gain import cumulated_gain
from gradedrel.evaluation.measures.significance import resample_counts

# Curves are sums of floats; a reached target must not be missed by rounding.
TOLERANCE = 1e-9


def first_ranks(curves: np.ndarray, targets) -> np.ndarray:
    """First 1-based rank where each row of ``(rows, depth)`` curves reaches its row's target
    (within :data:`TOLERANCE`); a row that never reaches it gives depth + 1 (censored)."""
    curves = np.asarray(curves, dtype=np.float64)
    targets = np.asarray(targets, dtype=np.float64)
    reached = curves >= (targets - TOLERANCE * np.maximum(1.0, np.abs(targets)))[..., None]
    return np.where(reached.any(axis=1), reached.argmax(axis=1) + 1, curves.shape[1] + 1)


def rank_reached(curve: np.ndarray, target: float) -> int | None:
    """First 1-based rank where ``curve`` ≥ ``target``, or None if it never gets there."""
    rank = int(first_ranks(np.asarray(curve, dtype=np.float64)[None, :], [target])[0])
    return rank if rank <= len(curve) else None


@dataclass(frozen=True)
class EffortRatio:
    """Proportional effort of two runs (ranks; depth + 1 = not reached) and the ratio
    ``first / second`` with its percentile bootstrap interval."""
    first: int
    second: int
    estimate: float
    low: float
    high: float
    confidence: float
    censored: bool          # some rank (observed) not reached within the depth


def effort_ratio(first: np.ndarray, second: np.ndarray, ideal: np.ndarray, share: float,
                 resamples: int, confidence: float, seed: int) -> EffortRatio:
    """Proportional effort of two runs from per-request CG curves ``(requests, depth)``:
    the first rank at which the run's mean curve reaches ``share`` × the mean ideal curve's
    value at the last rank; the ratio's interval from resampling requests."""
    first, second, ideal = (np.asarray(m, dtype=np.float64) for m in (first, second, ideal))
    n, depth = first.shape
    target = share * ideal.mean(axis=0)[-1]
    e1, e2 = (int(first_ranks(c.mean(axis=0)[None, :], [target])[0]) for c in (first, second))
    censored = max(e1, e2) > depth
    if n < 2:
        return EffortRatio(e1, e2, e1 / e2, math.nan, math.nan, confidence, censored)
    counts = resample_counts(n, resamples, seed)
    targets = share * (counts @ ideal[:, -1]) / n
    ratios = first_ranks(counts @ first / n, targets) / first_ranks(counts @ second / n, targets)
    tail = (1.0 - confidence) / 2.0 * 100.0
    low, high = np.percentile(ratios, [tail, 100.0 - tail])
    return EffortRatio(e1, e2, e1 / e2, float(low), float(high), confidence, censored)


class RequestCurves:
    """Per gain profile, each run's per-request CG curves and the ideal's
    ``(requests, depth)``, requests in the evaluation's order; effort asked of them."""

    def __init__(self, curves: Mapping[str, Mapping[str, np.ndarray]],
                 ideal: Mapping[str, np.ndarray]):
        self.curves, self.ideal = curves, ideal

    @classmethod
    def from_gains(cls, gains: Mapping[str, Mapping[str, np.ndarray]],
                   ideal: Mapping[str, np.ndarray]) -> "RequestCurves":
        """From per-request gain vectors (profile → run → matrix; profile → ideal matrix)."""
        return cls({p: {run: cumulated_gain(m) for run, m in by_run.items()}
                    for p, by_run in gains.items()},
                   {p: cumulated_gain(m) for p, m in ideal.items()})

    @classmethod
    def read(cls, ranked_grades: str | Path, recall_base: str | Path,
             profiles: Mapping[str, Sequence[int]], gains: Mapping[int, float], depth: int,
             runs: Sequence[str]) -> "RequestCurves":
        """From the evaluation's ``ranked_grades.tsv`` and the collection's
        ``recall_base.tsv``, for the gain ``profiles`` (name → levels) and the gain table the
        evaluation used."""
        from gradedrel.evaluation.measures import ranked_grades as rg

        vectors, ideal = rg.vectors_by_profile(rg.read(ranked_grades, "ranked_grades"),
                                               rg.read(recall_base, "recall_base"), profiles,
                                               gains, depth, runs=runs)
        return cls.from_gains(vectors, ideal)

    def ratio(self, profile: str, first: str, second: str, share: float, resamples: int,
              confidence: float, seed: int) -> EffortRatio:
        """:func:`effort_ratio` of runs ``first`` and ``second`` under ``profile``."""
        return effort_ratio(self.curves[profile][first], self.curves[profile][second],
                            self.ideal[profile], share, resamples, confidence, seed)
