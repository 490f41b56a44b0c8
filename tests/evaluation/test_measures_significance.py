"""Significance (SciPy and statsmodels under the project's conventions) against hand-worked
values and exact enumeration."""
import itertools
import math

import numpy as np
import pytest

from gradedrel.evaluation.measures import significance


def test_friedman_by_hand():
    # ranks within each topic (row): R = (4, 9, 11) over n = 4 topics, k = 3 runs:
    # chi2 = 12 / (n k (k+1)) * sum R^2 - 3 n (k+1) = 0.25 * 218 - 48 = 6.5
    values = np.array([[0.1, 0.2, 0.3], [0.0, 0.5, 0.6], [0.2, 0.9, 0.4], [0.1, 0.3, 0.7]])
    result, df = significance.friedman(values)
    assert df == 2
    assert result.statistic == pytest.approx(6.5)
    assert result.p_value == pytest.approx(math.exp(-6.5 / 2))  # chi2 with 2 df


def test_friedman_needs_three_runs_and_is_one_when_nothing_differs():
    assert significance.friedman(np.ones((5, 2))) is None
    result, _ = significance.friedman(np.tile([[0.3], [0.5], [0.1]], (1, 3)))
    assert result.p_value == 1.0


def test_holm_and_bonferroni_by_hand():
    p = np.array([0.01, 0.04, 0.03, 0.005])
    # sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04 -> monotone
    assert significance.adjust(p, "holm").tolist() == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert significance.adjust(p, "bonferroni").tolist() == pytest.approx([0.04, 0.16, 0.12,
                                                                           0.02])
    assert significance.adjust(np.array([0.6, 0.7]), "holm").tolist() == [1.0, 1.0]


def test_paired_t_by_formula():
    rng = np.random.default_rng(1)
    a, b = rng.random(30), rng.random(30)
    d = a - b
    t = d.mean() / (d.std(ddof=1) / math.sqrt(len(d)))
    assert significance.paired_t(a, b).statistic == pytest.approx(t)
    assert math.isnan(significance.paired_t(a, a).p_value)  # no variance: no test


def test_randomisation_test_approximates_the_exact_permutation_p_value():
    rng = np.random.default_rng(5)
    a = rng.random(10)
    b = a - rng.normal(0.08, 0.1, 10)
    d = a - b
    observed = abs(d.mean())
    flips = np.array(list(itertools.product([-1, 1], repeat=10)))
    exact = np.mean(np.abs(flips @ d) / 10 >= observed - 1e-12)
    result = significance.randomisation(a, b, trials=20000, seed=3)
    assert result.p_value == pytest.approx(exact, abs=0.01)
    assert significance.randomisation(a, b, 20000, 3).p_value == result.p_value  # seeded
    assert significance.randomisation(a, a, 1000, 3).p_value == 1.0


def test_wilcoxon_is_one_for_identical_runs_and_small_for_shifted_ones():
    a = np.linspace(0, 1, 40)
    assert significance.wilcoxon(a, a).p_value == 1.0
    assert significance.wilcoxon(a + 0.1, a).p_value < 1e-6


def test_bootstrap_interval_is_reproducible_and_close_to_the_normal_one():
    rng = np.random.default_rng(2)
    values = rng.normal(0.4, 0.2, size=(400, 2))
    mean, low, high = significance.bootstrap_ci(values, resamples=2000, confidence=0.95,
                                                seed=9)
    again = significance.bootstrap_ci(values, resamples=2000, confidence=0.95, seed=9)
    assert np.array_equal(low, again[1]) and np.array_equal(high, again[2])
    assert np.all(low < mean) and np.all(mean < high)
    normal_half_width = 1.96 * values.std(axis=0, ddof=1) / math.sqrt(len(values))
    assert (high - low) / 2 == pytest.approx(normal_half_width, rel=0.15)
    constant = significance.bootstrap_ci(np.full(10, 0.25), 100, 0.9, 1)
    assert constant[1][0] == pytest.approx(0.25) and constant[2][0] == pytest.approx(0.25)


def test_wilcoxon_exact_p_by_enumerating_the_signs():
    """Without ties or zeros and few pairs, the two-sided p is exact: the share of the 2^n
    sign assignments of the ranks whose smaller rank sum is at most the observed one."""
    a = np.array([0.91, 0.42, 0.77, 0.15, 0.63, 0.58, 0.30, 0.84])
    b = np.array([0.50, 0.47, 0.20, 0.11, 0.33, 0.71, 0.02, 0.81])
    d = a - b
    ranks = np.argsort(np.argsort(np.abs(d))) + 1
    observed = min(ranks[d > 0].sum(), ranks[d < 0].sum())
    sums = [ranks[np.array(s, bool)].sum() for s in itertools.product([0, 1], repeat=len(d))]
    smaller = [min(t, ranks.sum() - t) for t in sums]
    exact = np.mean(np.array(smaller) <= observed)
    result = significance.wilcoxon(a, b)
    assert result.statistic == observed
    assert result.p_value == pytest.approx(exact, rel=1e-12)
