"""Holm and Bonferroni (gradedrel.evaluation.measures.corrections, NumPy only) against
statsmodels' ``multipletests``, bit for bit: random families of p-values with ties, ones,
zeros and the tiny p-values the t-test gives, and the families an evaluation builds."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from statsmodels.stats.multitest import multipletests

from gradedrel.evaluation.measures import corrections, significance

#: p-values as the tests give them: any in [0, 1], with a few drawn from a short list so that
#: families have ties, ones and zeros (the randomisation test's (1 + k) / (1 + trials) repeats)
P_VALUE = st.one_of(st.floats(0.0, 1.0, allow_nan=False),
                    st.sampled_from([0.0, 1.0, 0.5, 0.05, 1e-300, 1 / 10001, 3 / 10001]),
                    st.floats(0.0, 1e-12, allow_nan=False))


def statsmodels_adjusted(p: np.ndarray, method: str) -> np.ndarray:
    return multipletests(p, method=method)[1]


@given(st.lists(P_VALUE, min_size=1, max_size=40), st.sampled_from(["holm", "bonferroni"]))
def test_equals_statsmodels_to_the_last_bit(values, method):
    p = np.array(values)
    ours = corrections.adjust(p, method)
    theirs = statsmodels_adjusted(p, method)
    assert ours.tobytes() == theirs.tobytes(), (p.tolist(), ours.tolist(), theirs.tolist())


@given(st.lists(st.sampled_from([0.01, 0.02, 0.04, 1.0]), min_size=2, max_size=30))
def test_ties_get_one_value_whatever_their_order(values):
    p = np.array(values)
    ours = corrections.holm(p)
    assert ours.tobytes() == statsmodels_adjusted(p, "holm").tobytes()
    for value in set(values):
        assert len(set(ours[p == value].tolist())) == 1


def test_the_families_an_evaluation_builds_equal_statsmodels():
    # the post-hoc pairs' Wilcoxon p-values and the baseline's t-test and randomisation
    # p-values of six runs that differ a little, as significance_tables builds them
    rng = np.random.default_rng(2000)
    for n_topics in (20, 30, 200):
        values = rng.random((n_topics, 1)) + rng.normal(0, 0.05, (n_topics, 6)) \
            + np.linspace(0, 0.04, 6)
        pairs = [(a, b) for a in range(6) for b in range(a + 1, 6)]
        families = [
            np.array([significance.wilcoxon(values[:, a], values[:, b]).p_value
                      for a, b in pairs]),
            np.array([significance.paired_t(values[:, i], values[:, 0]).p_value
                      for i in range(1, 6)]),
            np.array([significance.randomisation(values[:, i], values[:, 0], 1000, 7).p_value
                      for i in range(1, 6)])]
        for p in families:
            for method in ("holm", "bonferroni"):
                assert corrections.adjust(p, method).tobytes() == \
                    statsmodels_adjusted(p, method).tobytes()


def test_none_leaves_the_family_and_an_empty_family_stays_empty():
    p = np.array([0.3, 0.01])
    left = corrections.adjust(p, "none")
    assert left.tolist() == [0.3, 0.01] and left is not p
    for method in corrections.CORRECTIONS:
        assert corrections.adjust(np.array([]), method).shape == (0,)


def test_an_unknown_correction_is_one_error_naming_the_known_ones():
    with pytest.raises(ValueError, match="holm.*bonferroni.*none.*'sidak'"):
        corrections.known("sidak")
    assert corrections.known("bonferroni") == "bonferroni"
