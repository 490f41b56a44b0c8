"""Tail probabilities of the three distributions the significance tests use: the normal
(Wilcoxon's normal approximation), chi-square (Friedman) and Student's t (paired t-test).

Computed with :mod:`math` alone — the regularised incomplete gamma and beta functions by
their series and continued fractions (Press et al., *Numerical Recipes*, 3rd ed., §6.2,
§6.4, modified Lentz evaluation) — so that ``gradedrel evaluate`` does not import
``scipy.special`` (about 0.3 s of CPU per process, more than the tests themselves).
tests/evaluation/test_distributions.py checks them against ``scipy.special`` (``ndtr``,
``chdtrc``, ``stdtr``) to a relative 1e-12 over the ranges the tests meet (up to a few
thousand topics); the tables print p-values to 6 significant digits.
"""
from __future__ import annotations

import math

_EPSILON = 1e-16
_TINY = 1e-300
_MAX_TERMS = 100_000


def normal_two_sided(z: float) -> float:
    """P(|Z| ≥ |z|) for a standard normal Z (``2 * scipy.special.ndtr(-abs(z))``)."""
    z = float(z)
    if math.isnan(z):
        return math.nan
    return math.erfc(abs(z) / math.sqrt(2.0))


def chi2_sf(df: float, x: float) -> float:
    """P(X ≥ x) for X chi-square with ``df`` degrees of freedom
    (``scipy.special.chdtrc(df, x)``)."""
    x = float(x)
    if math.isnan(x) or df <= 0:
        return math.nan
    if x <= 0:
        return 1.0
    return gamma_q(df / 2.0, x / 2.0)


def t_two_sided(df: float, t: float) -> float:
    """P(|T| ≥ |t|) for T Student's t with ``df`` degrees of freedom
    (``2 * scipy.special.stdtr(df, -abs(t))``)."""
    t = float(t)
    if math.isnan(t) or df <= 0:
        return math.nan
    if math.isinf(t):
        return 0.0
    if t == 0:
        return 1.0
    t2 = t * t
    # I_x(df/2, 1/2) with x = df / (df + t²), 1 - x = t² / (df + t²), both without
    # cancellation
    log_x = -math.log1p(t2 / df)
    log_y = math.log(t2) - math.log(df + t2)
    a = df / 2.0
    return beta_i(a, 0.5, math.exp(log_x), math.exp(log_y), log_x, log_y,
                  _log_beta_half(a))


def _log_beta_half(a: float) -> float:
    """log B(a, 1/2); for a whole or half-whole a (a t-test's df / 2) as a product of
    ratios, which keeps it to a few ulp where lgamma(a + 1/2) - lgamma(a) would lose
    ~1e-13 to cancellation at a ~ 100."""
    if 2 * a != int(2 * a) or a > 100_000:
        return math.lgamma(a) + math.lgamma(0.5) - math.lgamma(a + 0.5)
    ratio = 0.5  # Γ(a + 1/2) / (Γ(a) Γ(1/2)) = 1 / B(a, 1/2), built up from a = 1 or 1/2
    if a == int(a):
        for k in range(1, int(a)):
            ratio *= (k + 0.5) / k
    else:
        ratio = 1.0 / math.pi
        for k in range(int(a)):
            ratio *= (k + 1.0) / (k + 0.5)
    return -math.log(ratio)


def gamma_q(a: float, x: float) -> float:
    """The regularised upper incomplete gamma function Q(a, x), a > 0, x > 0."""
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1.0:  # series for P(a, x); Q is not small here
        term = total = 1.0 / a
        denominator = a
        for _ in range(_MAX_TERMS):
            denominator += 1.0
            term *= x / denominator
            total += term
            if abs(term) < abs(total) * _EPSILON:
                break
        return 1.0 - total * math.exp(log_front)
    b = x + 1.0 - a  # continued fraction for Q(a, x)
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, _MAX_TERMS):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPSILON:
            break
    return math.exp(log_front) * h


def beta_i(a: float, b: float, x: float, y: float, log_x: float, log_y: float,
           log_beta: float | None = None) -> float:
    """The regularised incomplete beta function I_x(a, b), given x, y = 1 - x and their
    logarithms (computed by the caller without cancellation), and log B(a, b) if known."""
    if x <= 0:
        return 0.0
    if y <= 0:
        return 1.0
    if log_beta is None:
        log_beta = math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)
    log_front = a * log_x + b * log_y - log_beta
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, y) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of I_x(a, b) (modified Lentz)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = 1.0 / (_TINY if abs(d) < _TINY else d)
    h = d
    for m in range(1, _MAX_TERMS):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (_TINY if abs(d) < _TINY else d)
        c = 1.0 + aa / c
        c = _TINY if abs(c) < _TINY else c
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (_TINY if abs(d) < _TINY else d)
        c = 1.0 + aa / c
        c = _TINY if abs(c) < _TINY else c
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPSILON:
            break
    return h
