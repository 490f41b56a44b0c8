"""Verdicts on the paper's findings under the pre-registered rules (docs/preregistration.md).

Three verdicts: ``holds``, ``does not hold`` and ``inconclusive``. Every verdict rests on an
effect with its bootstrap interval (paired, requests resampled) and, where the paper claims
significance, a test; never on a rank order alone.

- A *directional claim* with published effect Δp (its sign is the claimed direction) and our
  95 % interval [lo, hi]: holds if the interval excludes 0 on the paper's side; does not hold
  if it excludes Δp and does not exclude 0 on the paper's side (a reversal included);
  inconclusive if it contains both 0 and Δp.
- A claim of *negligible* differences (equivalence, margin δ): holds if every 90 % interval
  lies inside (−δ, δ) (two one-sided tests at α = 0.05 each; Schuirmann 1987); does not hold
  if any lies entirely outside it; otherwise inconclusive.
- *Effort*: the first rank at which a mean cumulated-gain curve reaches a share of the mean
  ideal curve's maximum (computed by the evaluation:
  :mod:`gradedrel.evaluation.measures.effort`); the effect is the ratio of two runs'
  efforts, judged as a directional claim on the log scale (:func:`ratio_verdict`).

The intervals, p-values and minimum detectable effects are the evaluation's
(:mod:`gradedrel.evaluation.comparisons`); this module only judges them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

HOLDS = "holds"
DOES_NOT_HOLD = "does not hold"
INCONCLUSIVE = "inconclusive"

# Size of an effect that holds, against the published one.
AS_PUBLISHED = "as large as published"
SMALLER = "smaller than published"
LARGER = "larger than published"


@dataclass(frozen=True)
class Interval:
    """A point estimate with its percentile bootstrap interval."""
    estimate: float
    low: float
    high: float
    confidence: float


@dataclass(frozen=True)
class Verdict:
    """A claim's verdict, its size against the published effect and why."""

    verdict: str
    size: str = ""          # for a directional claim that holds: against the published effect
    reason: str = ""

    def __str__(self) -> str:
        return f"{self.verdict} ({self.size})" if self.size else self.verdict


# --- rules --------------------------------------------------------------------------------

def directional(interval: Interval, published: float, null: str = "0") -> Verdict:
    """The verdict on a claim that the effect has the sign of ``published`` (the paper's Δp).
    ``null`` names the no-effect value in the reasons (a ratio judged on the log scale: 1)."""
    if published == 0 or not math.isfinite(published):
        raise ValueError(f"a directional claim needs a non-zero published effect, not {published}")
    if not (math.isfinite(interval.low) and math.isfinite(interval.high)):
        return Verdict(INCONCLUSIVE, reason="no interval (too few requests)")
    sign = 1.0 if published > 0 else -1.0
    lo, hi = sorted((sign * interval.low, sign * interval.high))   # claimed direction: positive
    target = sign * published
    if lo > 0:
        size = AS_PUBLISHED if lo <= target <= hi else (SMALLER if hi < target else LARGER)
        return Verdict(HOLDS, size, f"the interval excludes {null} on the paper's side")
    if hi < target:
        why = (f"the interval lies on the opposite side of {null}" if hi < 0 else
               f"the interval excludes the published effect and does not exclude {null}")
        return Verdict(DOES_NOT_HOLD, reason=why)
    return Verdict(INCONCLUSIVE,
                   reason=f"the interval contains both {null} and the published effect")


def equivalence(intervals: Iterable[Interval], margin: float) -> Verdict:
    """Negligible differences: every (90 %) interval inside (−margin, +margin)."""
    intervals = list(intervals)
    if not intervals:
        return Verdict(INCONCLUSIVE, reason="no comparison")
    if any(not (math.isfinite(i.low) and math.isfinite(i.high)) for i in intervals):
        return Verdict(INCONCLUSIVE, reason="an interval is undefined")
    outside = [i for i in intervals if i.low >= margin or i.high <= -margin]
    if outside:
        return Verdict(DOES_NOT_HOLD, reason=f"{len(outside)} difference(s) beyond ±{margin:g}")
    if all(-margin < i.low and i.high < margin for i in intervals):
        return Verdict(HOLDS, reason=f"every difference within ±{margin:g}")
    return Verdict(INCONCLUSIVE, reason=f"some interval crosses ±{margin:g}")


def large_spread(spread: Interval, friedman_p: float, margin: float, published: float,
                 alpha: float = 0.05) -> Verdict:
    """Large and significant differences among query types (finding 1b).

    Holds if Friedman rejects at ``alpha`` and the spread's interval lies above ``margin``;
    does not hold if the interval lies below the published spread and either its lower bound
    is at most ``margin`` or Friedman does not reject; otherwise inconclusive.
    """
    significant = math.isfinite(friedman_p) and friedman_p < alpha
    if significant and spread.low > margin:
        return Verdict(HOLDS, reason="Friedman rejects and the spread exceeds the margin")
    if spread.high < published and (spread.low <= margin or not significant):
        return Verdict(DOES_NOT_HOLD, reason="the published spread is excluded and a large "
                       "significant spread is not shown")
    return Verdict(INCONCLUSIVE, reason="neither a large significant spread nor its absence is shown")


def all_of(verdicts: Iterable[Verdict]) -> Verdict:
    """Holds if every part holds; does not hold if any part does not; else inconclusive."""
    names = [v.verdict for v in verdicts]
    if not names:
        return Verdict(INCONCLUSIVE, reason="no part")
    if DOES_NOT_HOLD in names:
        return Verdict(DOES_NOT_HOLD, reason=f"{names.count(DOES_NOT_HOLD)} of {len(names)} "
                       "parts do not hold")
    if all(n == HOLDS for n in names):
        return Verdict(HOLDS, reason=f"all {len(names)} parts hold")
    return Verdict(INCONCLUSIVE, reason=f"{names.count(INCONCLUSIVE)} of {len(names)} parts "
                   "inconclusive, none does not hold")


# --- effort (computed by the evaluation: gradedrel.evaluation.measures.effort) ---------

def ratio_verdict(ratio: Interval, published: float) -> Verdict:
    """A claim that a ratio is below 1 (published ratio ``published`` < 1), judged as a
    directional claim on the log scale."""
    log = [math.log(x) if ratio.low > 0 else math.nan
           for x in (ratio.estimate, ratio.low, ratio.high)]
    return directional(Interval(*log, ratio.confidence), math.log(published), null="1")
