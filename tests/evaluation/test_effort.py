"""Effort (gradedrel.evaluation.measures.effort) on hand-worked examples: the rank at which a
mean CG curve reaches a target, proportional effort and its ratio with the bootstrap over
requests, and the paper's effort reading."""
import numpy as np
import pytest

from gradedrel.evaluation.measures import effort


def test_rank_reached_by_hand_with_one_tolerance():
    curve = np.array([1.0, 3.0, 3.0, 6.0])
    assert effort.rank_reached(curve, 3.0) == 2
    assert effort.rank_reached(curve, 3.0 + 1e-12) == 2      # float summation absorbed
    assert effort.rank_reached(curve, 3.001) == 4
    assert effort.rank_reached(curve, 7.0) is None
    ranks = effort.first_ranks(np.vstack([curve, curve]), np.array([0.5, 7.0]))
    assert ranks.tolist() == [1, 5]                            # 5 = depth + 1: not reached


# Two requests, one highly relevant document each (gain 3), depth 4. The ideal puts it
# first: mean ideal CG [3, 3, 3, 3], half of its end is 1.5.
#   first run:  request A at rank 1, B at rank 2 -> mean CG [1.5, 3, 3, 3]: reaches 1.5 at 1
#   second run: request A at rank 3, B at rank 4 -> mean CG [0, 0, 1.5, 3]: reaches it at 3
# A resample of {A, A} gives ranks 1 and 3 (1/3), {B, B} 2 and 4 (1/2), {A, B} 1/3.
FIRST = np.array([[3, 0, 0, 0], [0, 3, 0, 0]], dtype=float)
SECOND = np.array([[0, 0, 3, 0], [0, 0, 0, 3]], dtype=float)
IDEAL = np.array([[3, 0, 0, 0], [3, 0, 0, 0]], dtype=float)


def test_effort_ratio_by_hand():
    curves = effort.RequestCurves.from_gains({"3": {"a": FIRST, "b": SECOND}}, {"3": IDEAL})
    found = curves.ratio("3", "a", "b", 0.5, resamples=2000, confidence=0.95, seed=1)
    assert (found.first, found.second, found.censored) == (1, 3, False)
    assert found.estimate == pytest.approx(1 / 3)
    # {B, B} is drawn in a quarter of the resamples: the 97.5th percentile is 1/2
    assert (found.low, found.high) == (pytest.approx(1 / 3), pytest.approx(1 / 2))
    assert curves.ideal["3"].shape == (2, 4)  # requests, depth


def test_a_rank_not_reached_is_censored():
    never = np.zeros_like(SECOND)
    found = effort.effort_ratio(np.cumsum(FIRST, axis=1), np.cumsum(never, axis=1),
                                np.cumsum(IDEAL, axis=1), 0.5, 500, 0.95, 1)
    assert (found.first, found.second, found.censored) == (1, 5, True)


def test_first_ranks_by_hand():
    curve = np.array([0, 1, 1, 3, 6, 6], dtype=float)
    assert effort.rank_reached(curve, 3) == 4
    assert effort.rank_reached(curve, 0.5) == 2
    assert list(effort.first_ranks(np.vstack([curve, curve * 2]), np.array([3, 2]))) == [4, 2]


def test_effort_ratio_of_unequal_requests_by_hand():
    # two requests, depth 4; ideal maxima 6 and 2 -> mean 4, target 50 % = 2
    ideal = np.array([[3, 6, 6, 6], [2, 2, 2, 2]], dtype=float)
    first = np.array([[3, 3, 6, 6], [0, 2, 2, 2]], dtype=float)    # mean 1.5, 2.5: rank 2
    second = np.array([[0, 0, 3, 3], [0, 0, 0, 2]], dtype=float)   # mean 0, 0, 1.5, 2.5: rank 4
    got = effort.effort_ratio(first, second, ideal, 0.5, resamples=200, confidence=0.95, seed=1)
    assert (got.first, got.second) == (2, 4)
    assert got.estimate == pytest.approx(0.5)
    assert got.low <= 0.5 <= got.high
    assert not got.censored
