"""The tail probabilities of gradedrel.evaluation.measures.distributions against
scipy.special (an independent implementation: Cephes/xsf), and against closed forms."""
import math

import numpy as np
import pytest
from scipy import special

from gradedrel.evaluation.measures import distributions as d


@pytest.mark.parametrize("z", [0.0, 1e-8, 0.3, 0.7071, 1.0, 1.96, 3.5, 8.0, 20.0, 37.0])
def test_normal_two_sided_is_scipy_ndtr(z):
    for value in (z, -z):
        assert d.normal_two_sided(value) == pytest.approx(2 * special.ndtr(-abs(value)),
                                                          rel=1e-12, abs=1e-300)


@pytest.mark.parametrize("df", [1, 2, 3, 5, 6, 10, 50, 177, 1000])
def test_chi2_sf_is_scipy_chdtrc(df):
    for x in np.concatenate([np.linspace(1e-3, 5 * df + 200, 400), [1e-6, df - 1, df,
                                                                     df + 1]]):
        expected = special.chdtrc(float(df), x)
        if expected > 1e-300:
            assert d.chi2_sf(df, x) == pytest.approx(expected, rel=1e-12), (df, x)


@pytest.mark.parametrize("df", [1, 2, 3, 5, 9, 29, 100, 141, 177, 1000, 3000])
def test_t_two_sided_is_scipy_stdtr(df):
    for t in np.concatenate([np.linspace(1e-3, 60, 600), [0.5, 1.7, 1.96, 2.5]]):
        expected = 2 * special.stdtr(float(df), -t)
        if expected > 1e-300:
            assert d.t_two_sided(df, t) == pytest.approx(expected, rel=1e-12), (df, t)
            assert d.t_two_sided(df, -t) == d.t_two_sided(df, t)


def test_closed_forms_and_edges():
    # chi-square with 2 df: exp(-x/2); t with 1 df (Cauchy): 1 - 2 atan(t) / pi
    for x in (0.1, 1.0, 6.5, 40.0):
        assert d.chi2_sf(2, x) == pytest.approx(math.exp(-x / 2), rel=1e-14)
    for t in (0.1, 1.0, 3.0, 100.0):
        assert d.t_two_sided(1, t) == pytest.approx(2 * math.atan(1 / t) / math.pi,
                                                    rel=1e-13)
    assert d.chi2_sf(5, 0.0) == 1.0 and d.chi2_sf(5, -1e-12) == 1.0
    assert d.t_two_sided(10, 0.0) == 1.0 and d.t_two_sided(10, math.inf) == 0.0
    assert math.isnan(d.chi2_sf(3, math.nan)) and math.isnan(d.t_two_sided(3, math.nan))
    assert math.isnan(d.normal_two_sided(math.nan))
