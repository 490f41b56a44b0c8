"""Significance: Friedman across query types, post-hoc pairs, paired tests, bootstrap CIs.

- Friedman's test (the paper's): per-topic values of k ≥ 3 runs over the topics
  where all are defined; H0 = the runs' rankings of topics are exchangeable
  (``scipy.stats.friedmanchisquare``).
- Post-hoc: every pair of runs by the Wilcoxon signed-rank test (``scipy.stats.wilcoxon``:
  two-sided, zero differences dropped, ``zero_method='wilcox'``, SciPy's choice of exact,
  permutation or normal method), p-values corrected for the number of pairs by Holm's
  step-down method or Bonferroni (:mod:`.corrections`: NumPy, statsmodels'
  ``multipletests`` to the last bit).
- Against a baseline: the paired t-test (``scipy.stats.ttest_rel``) and a paired
  randomisation test (random sign flips of the per-topic differences, two-sided, p = (1 +
  #{|mean*| ≥ |mean|}) / (1 + trials); Smucker, Allan & Carterette, CIKM 2007). The sign
  flips are drawn once per (trials, topics, seed) and shared by every pair, which is what
  the pre-registered verdicts were computed with; ``scipy.stats.permutation_test`` would
  draw other flips (and a two-sided p of another definition), so it is not used here.
- Bootstrap confidence intervals (percentile method; Efron & Tibshirani 1993) for
  a mean over topics and, column by column, for an averaged curve: topics are
  resampled with replacement; a fixed seed makes the intervals reproducible and
  the same resamples are used for every run over the same topics.

SciPy is imported inside the tests that use it, so importing this module (the bootstrap's
resample counts, the corrections) costs no statistics library.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

# the multiple-comparison corrections (holm, bonferroni, none), NumPy only
from gradedrel.evaluation.measures.corrections import adjust  # noqa: F401


@dataclass(frozen=True)
class TestResult:
    """A significance test's statistic and p-value."""

    statistic: float
    p_value: float


def friedman(values: np.ndarray) -> tuple[TestResult, int] | None:
    """Friedman's chi-square over a ``(topics, runs)`` matrix (rows must be complete): (result,
    degrees of freedom), or None with fewer than 3 runs or 2 topics."""
    n_topics, n_runs = values.shape
    if n_runs < 3 or n_topics < 2:
        return None
    if np.all(values == values[:, :1]):  # no run differs on any topic: SciPy divides by 0
        return TestResult(0.0, 1.0), n_runs - 1
    from scipy import stats

    result = stats.friedmanchisquare(*np.asarray(values, dtype=np.float64).T)
    return TestResult(float(result.statistic), float(result.pvalue)), n_runs - 1


def wilcoxon(a: np.ndarray, b: np.ndarray) -> TestResult:
    """Two-sided Wilcoxon signed-rank test of paired values (p = 1 when all differ by 0)."""
    if np.all(a == b):
        return TestResult(0.0, 1.0)
    from scipy import stats

    result = stats.wilcoxon(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64),
                            zero_method="wilcox", alternative="two-sided")
    return TestResult(float(result.statistic), float(result.pvalue))


def paired_t(a: np.ndarray, b: np.ndarray) -> TestResult:
    """Paired two-sided t-test (``scipy.stats.ttest_rel``); NaN when the differences have
    no variance (no test)."""
    diff = np.asarray(a, float) - np.asarray(b, float)
    if len(diff) < 2 or np.all(diff == diff[0]):
        return TestResult(float("nan"), float("nan"))
    from scipy import stats

    result = stats.ttest_rel(np.asarray(a, float), np.asarray(b, float))
    return TestResult(float(result.statistic), float(result.pvalue))


def randomisation(a: np.ndarray, b: np.ndarray, trials: int, seed: int) -> TestResult:
    """Paired two-sided randomisation (sign-flip) test of the mean difference."""
    diff = np.asarray(a, float) - np.asarray(b, float)
    observed = abs(diff.mean()) if len(diff) else 0.0
    signs = random_signs(trials, len(diff), seed)
    permuted = np.abs(signs @ diff) / max(len(diff), 1)  # float @ float: BLAS
    extreme = np.count_nonzero(permuted >= observed - 1e-12)
    return TestResult(float(diff.mean()) if len(diff) else 0.0, (1 + extreme) / (1 + trials))


@lru_cache(maxsize=8)
def random_signs(trials: int, n: int, seed: int) -> np.ndarray:
    """``(trials, n)`` random signs ±1.0 of the randomisation test: the same seed and n
    give the same signs, so every pair of runs over the same topics shares them (drawn
    once, not once per pair)."""
    rng = np.random.default_rng(seed)
    signs = rng.integers(0, 2, size=(trials, n)).astype(np.float64) * 2.0 - 1.0
    signs.setflags(write=False)
    return signs


def bootstrap_ci(values: np.ndarray, resamples: int, confidence: float,
                 seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Percentile bootstrap CI of column means of a ``(topics, points)`` matrix: (mean, low,
    high), each of shape (points,)."""
    values = np.asarray(values, dtype=np.float64)
    if values.ndim == 1:
        values = values[:, None]
    n = values.shape[0]
    mean = values.mean(axis=0) if n else np.full(values.shape[1], np.nan)
    if n == 0:
        return mean, mean.copy(), mean.copy()
    means = resample_counts(n, resamples, seed) @ values / n
    tail = (1.0 - confidence) / 2.0 * 100.0
    low, high = np.percentile(means, [tail, 100.0 - tail], axis=0)
    return mean, low, high


def paired_bootstrap_ci(differences: np.ndarray, resamples: int, confidence: float,
                        seed: int) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of paired per-topic differences (the
    difference figures' bands): :func:`bootstrap_ci` of one column, the evaluation's
    resampling and seed."""
    d = np.asarray(differences, dtype=float)
    if d.size == 0:
        raise ValueError("paired bootstrap: no topics")
    _, low, high = bootstrap_ci(d, resamples, confidence, seed)
    return float(low[0]), float(high[0])


@lru_cache(maxsize=32)
def resample_counts(n: int, resamples: int, seed: int) -> np.ndarray:
    """How often each of n topics is drawn in each bootstrap resample, ``(resamples, n)``,
    as floats (so that the product with the values runs in BLAS). The same seed and n
    give the same resamples, so every run over the same topics shares them."""
    rng = np.random.default_rng(seed)
    counts = rng.multinomial(n, np.full(n, 1.0 / n), size=resamples).astype(np.float64)
    counts.setflags(write=False)
    return counts
