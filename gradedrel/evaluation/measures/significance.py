"""Significance: Friedman across query types, post-hoc pairs, paired tests, bootstrap CIs.

- Friedman's test (the paper's): per-topic values of k ≥ 3 runs over the topics
  where all are defined; H0 = the runs' rankings of topics are exchangeable.
- Post-hoc: every pair of runs by the Wilcoxon signed-rank test (two-sided,
  zero differences dropped, ``zero_method='wilcox'``), p-values corrected for
  the number of pairs by Holm's step-down method (or Bonferroni).
- Against a baseline: the paired t-test and a paired randomisation test
  (random sign flips of the per-topic differences, two-sided, p = (1 + #{|mean*|
  ≥ |mean|}) / (1 + trials); Smucker, Allan & Carterette, CIKM 2007).
- Bootstrap confidence intervals (percentile method; Efron & Tibshirani 1993) for
  a mean over topics and, column by column, for an averaged curve: topics are
  resampled with replacement; a fixed seed makes the intervals reproducible and
  the same resamples are used for every run over the same topics.

The tests are computed here as SciPy 1.17 computes them (``scipy.stats.friedmanchisquare``,
``wilcoxon``, ``ttest_rel``: the same ranks, tie corrections and method choice), with the
same distribution functions as ``scipy.special``'s ``chdtrc``, ``ndtr``, ``stdtr``, computed
with :mod:`math` (:mod:`.distributions`, equal to SciPy's to a relative 1e-12), so that
SciPy — ``scipy.stats`` about a second of import, ``scipy.special`` 0.3 s — is loaded only
for the one case computed by permutation (Wilcoxon on at most 13 pairs with ties or
zeros); tests/evaluation/test_measures_significance.py checks them against ``scipy.stats``.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from gradedrel.evaluation.measures import distributions

CORRECTIONS = ("holm", "bonferroni", "none")


@dataclass(frozen=True)
class TestResult:
    """A significance test's statistic and p-value."""

    statistic: float
    p_value: float


def friedman(values: np.ndarray) -> tuple[TestResult, int] | None:
    """Friedman's chi-square over a ``(topics, runs)`` matrix (rows must be complete).

    Returns (result, degrees of freedom), or None with fewer than 3 runs or 2 topics.
    """
    n_topics, n_runs = values.shape
    if n_runs < 3 or n_topics < 2:
        return None
    if np.all(values == values[:, :1]):  # no run differs on any topic
        return TestResult(0.0, 1.0), n_runs - 1
    k, n = n_runs, n_topics
    data, t = rank_average(np.asarray(values, dtype=np.float64))
    ties = np.sum(t * (t * t - 1), axis=(0, -1))
    c = 1 - ties / (k * (k * k - 1) * n)
    ssbn = np.sum(np.sum(data, axis=0) ** 2, axis=-1)
    statistic = (12.0 / (k * n * (k + 1)) * ssbn - 3 * n * (k + 1)) / c
    p_value = distributions.chi2_sf(k - 1, statistic)
    return TestResult(float(statistic), float(p_value)), n_runs - 1


def rank_average(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Average ranks along the last axis and tie counts (SciPy's ``_rankdata(x, 'average',
    return_ties=True)``: ``t`` holds each group's size at its first sorted position)."""
    shape = x.shape
    j = np.argsort(x, axis=-1, kind="stable")
    ordinal = np.broadcast_to(np.arange(1, shape[-1] + 1, dtype=np.float64), shape)
    y = np.take_along_axis(x, j, axis=-1)
    first = np.concatenate([np.ones(shape[:-1] + (1,), dtype=bool), y[..., :-1] != y[..., 1:]],
                           axis=-1)
    indices = np.arange(y.size)[first.reshape(-1)]
    counts = np.diff(indices, append=np.asarray([y.size], dtype=indices.dtype))
    ranks = ordinal[first] + (counts.astype(np.float64) - 1) / 2
    ranks = np.repeat(ranks, counts).reshape(shape)
    ordered = np.empty(j.shape, dtype=ranks.dtype)
    np.put_along_axis(ordered, j, ranks, axis=-1)
    t = np.zeros(shape, dtype=np.float64)
    t[first] = counts.astype(np.float64)
    return ordered, t


def wilcoxon(a: np.ndarray, b: np.ndarray) -> TestResult:
    """Two-sided Wilcoxon signed-rank test of paired values (p = 1 when all differ by 0).

    As ``scipy.stats.wilcoxon(a, b, zero_method="wilcox")``: exact for at most 50 pairs
    without ties or zeros, by permutation (SciPy itself) for at most 13 pairs with them,
    else the normal approximation with the tie correction, no continuity correction.
    """
    if np.all(a == b):
        return TestResult(0.0, 1.0)
    d = np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)
    n_all, n_zero = len(d), int(np.count_nonzero(d == 0))
    d = np.where(d == 0, np.nan, d)
    count = np.float64(n_all - np.count_nonzero(np.isnan(d)))
    r, t = rank_average(np.abs(d))
    r_plus = np.sum((d > 0).astype(np.float64) * r)
    r_minus = np.sum((d < 0).astype(np.float64) * r)
    has_ties = bool(np.any(t == 0))
    statistic = float(min(r_plus, r_minus))
    if n_all <= 50 and not (has_ties or n_zero > 0):
        return TestResult(statistic, _wilcoxon_exact_p(int(count), float(r_plus)))
    if n_all <= 13:
        from scipy import stats

        result = stats.wilcoxon(a, b, zero_method="wilcox", alternative="two-sided")
        return TestResult(float(result.statistic), float(result.pvalue))
    mn = count * (count + 1.) * 0.25
    se = count * (count + 1.) * (2. * count + 1.)
    se = np.sqrt((se - np.sum(t ** 3 - t) / 2) / 24)
    z = (r_plus - mn) / se
    return TestResult(statistic, distributions.normal_two_sided(z))


def _wilcoxon_exact_p(n: int, r_plus: float) -> float:
    """Two-sided exact p of the signed-rank sum ``r_plus`` over ``n`` pairs (SciPy's
    ``WilcoxonDistribution``: the pmf by convolution, each tail summed from its end)."""
    pmf = np.ones(1, dtype=np.float64)
    for k in range(1, n + 1):
        previous = pmf
        pmf = np.zeros(k * (k + 1) // 2 + 1, dtype=np.float64)
        m = len(previous)
        pmf[:m] = previous * 0.5
        pmf[-m:] += previous * 0.5
    mean = n * (n + 1) / 4

    def cdf(k: int) -> float:
        return pmf[:k + 1].sum() if k <= mean else 1 - pmf[k + 1:].sum()

    def sf(k: int) -> float:
        return pmf[k:].sum() if k <= mean else 1 - pmf[:k].sum()

    p = 2 * min(sf(int(np.floor(r_plus))), cdf(int(np.ceil(r_plus))))
    return float(np.clip(p, 0, 1))


def adjust(p_values: np.ndarray, method: str = "holm") -> np.ndarray:
    """Multiple-comparison correction of a family of p-values."""
    p = np.asarray(p_values, dtype=np.float64)
    if method == "none" or len(p) == 0:
        return p.copy()
    m = len(p)
    if method == "bonferroni":
        return np.minimum(p * m, 1.0)
    if method == "holm":
        order = np.argsort(p, kind="stable")
        stepped = np.maximum.accumulate((m - np.arange(m)) * p[order])
        adjusted = np.empty(m)
        adjusted[order] = np.minimum(stepped, 1.0)
        return adjusted
    raise ValueError(f"correction must be one of {CORRECTIONS}, not {method!r}")


def paired_t(a: np.ndarray, b: np.ndarray) -> TestResult:
    """Paired two-sided t-test (NaN when the differences have no variance); as
    ``scipy.stats.ttest_rel``, with the t distribution of :mod:`.distributions`."""
    diff = np.asarray(a, float) - np.asarray(b, float)
    if len(diff) < 2 or np.all(diff == diff[0]):
        return TestResult(float("nan"), float("nan"))
    n = len(diff)
    mean = np.mean(diff)
    variance = np.mean((diff - mean) ** 2) * (np.float64(n) / (n - 1))
    t = mean / np.sqrt(variance / n)
    return TestResult(float(t), distributions.t_two_sided(n - 1, t))


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
    """Percentile bootstrap CI of column means of a ``(topics, points)`` matrix.

    Returns (mean, low, high), each of shape (points,).
    """
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
