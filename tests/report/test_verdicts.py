"""The pre-registered verdict rules (docs/preregistration.md), on hand-worked cases."""
import math

import pytest

from gradedrel.report import verdicts as v
from gradedrel.report.verdicts import Interval


def iv(lo, hi, est=None):
    return Interval((lo + hi) / 2 if est is None else est, lo, hi, 0.95)


@pytest.mark.parametrize("lo,hi,published,verdict,size", [
    (2.0, 9.0, 15.1, v.HOLDS, v.SMALLER),          # excludes 0 and the published effect
    (2.0, 20.0, 15.1, v.HOLDS, v.AS_PUBLISHED),
    (16.0, 20.0, 15.1, v.HOLDS, v.LARGER),
    (-3.7, 10.9, 15.1, v.DOES_NOT_HOLD, ""),        # the pilot: 0 inside, +15.1 outside
    (-3.7, 18.0, 15.1, v.INCONCLUSIVE, ""),
    (-9.0, -1.0, 15.1, v.DOES_NOT_HOLD, ""),        # a reversal
    (-5.0, -1.0, -3.7, v.HOLDS, v.AS_PUBLISHED),   # a claimed decrease (SUM/e below SUM/u)
    (-1.0, 2.0, -3.7, v.DOES_NOT_HOLD, ""),
    (-4.0, 2.0, -3.7, v.INCONCLUSIVE, ""),
    (1.0, 3.0, -3.7, v.DOES_NOT_HOLD, ""),
    (0.0, 20.0, 15.1, v.INCONCLUSIVE, ""),           # lo = 0 does not exclude 0
])
def test_directional(lo, hi, published, verdict, size):
    got = v.directional(iv(lo, hi), published)
    assert (got.verdict, got.size) == (verdict, size)


def test_directional_needs_a_published_direction():
    with pytest.raises(ValueError):
        v.directional(iv(1, 2), 0.0)
    assert v.directional(Interval(1.0, math.nan, math.nan, 0.95), 5.0).verdict == v.INCONCLUSIVE


def test_equivalence():
    inside = [iv(-2, 3), iv(-4.9, 4.9)]
    assert v.equivalence(inside, 5).verdict == v.HOLDS
    assert v.equivalence(inside + [iv(-1, 6)], 5).verdict == v.INCONCLUSIVE
    assert v.equivalence(inside + [iv(5.5, 9)], 5).verdict == v.DOES_NOT_HOLD
    assert v.equivalence(inside + [iv(-9, -5)], 5).verdict == v.DOES_NOT_HOLD
    assert v.equivalence([], 5).verdict == v.INCONCLUSIVE


@pytest.mark.parametrize("low,high,p,verdict", [
    (6.0, 20.0, 0.001, v.HOLDS),
    (6.0, 20.0, 0.2, v.INCONCLUSIVE),      # interval reaches the published 18.8
    (6.0, 15.0, 0.2, v.DOES_NOT_HOLD),     # not significant and 18.8 excluded
    (3.0, 15.0, 0.001, v.DOES_NOT_HOLD),   # significant but not shown large, 18.8 excluded
    (3.0, 25.0, 0.001, v.INCONCLUSIVE),
])
def test_large_spread(low, high, p, verdict):
    assert v.large_spread(iv(low, high), p, margin=5, published=18.8).verdict == verdict


def test_all_of():
    h, n, i = (v.Verdict(x) for x in (v.HOLDS, v.DOES_NOT_HOLD, v.INCONCLUSIVE))
    assert v.all_of([h, h]).verdict == v.HOLDS
    assert v.all_of([h, i]).verdict == v.INCONCLUSIVE
    assert v.all_of([h, i, n]).verdict == v.DOES_NOT_HOLD
    assert v.all_of([]).verdict == v.INCONCLUSIVE


def test_ratio_verdict():
    assert v.ratio_verdict(Interval(0.5, 0.3, 0.8, 0.95), 0.55).verdict == v.HOLDS
    assert v.ratio_verdict(Interval(0.9, 0.7, 1.2, 0.95), 0.55).verdict == v.DOES_NOT_HOLD
    assert v.ratio_verdict(Interval(0.8, 0.5, 1.2, 0.95), 0.55).verdict == v.INCONCLUSIVE
    assert v.ratio_verdict(Interval(1.0, 0.0, 1.2, 0.95), 0.55).verdict == v.INCONCLUSIVE
    # a ratio's null is 1, and its reasons say so (issue 30: "does not exclude 1", not 0)
    assert v.ratio_verdict(Interval(0.9, 0.7, 1.2, 0.95), 0.55).reason == \
        "the interval excludes the published effect and does not exclude 1"
    assert v.ratio_verdict(Interval(0.5, 0.3, 0.8, 0.95), 0.55).reason == \
        "the interval excludes 1 on the paper's side"
    assert v.ratio_verdict(Interval(0.8, 0.5, 1.2, 0.95), 0.55).reason == \
        "the interval contains both 1 and the published effect"
    assert v.directional(Interval(1.0, -0.5, 3.0, 0.95), 15.1).reason == \
        "the interval excludes the published effect and does not exclude 0"
