"""The evaluation stage's numbers of a study design's comparisons
(gradedrel.evaluation.comparisons): intervals, minimum detectable effects, and the p-values
read from the evaluation's own significance tables instead of computed again."""
import math
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from gradedrel.evaluation import comparisons as c

def test_minimum_detectable_effect_by_hand():
    # (1.959964 + 0.841621) * 20 / sqrt(142) = 4.7021
    assert c.minimum_detectable_effect(20.0, 142) == pytest.approx(4.7021, abs=1e-4)
    assert c.minimum_detectable_effect(20.0, 30) == pytest.approx(10.2299, abs=1e-4)
    # agrees with the normal quantiles of scipy
    z = stats.norm.ppf(0.975) + stats.norm.ppf(0.8)
    assert c.minimum_detectable_effect(7.5, 50) == pytest.approx(z * 7.5 / math.sqrt(50))


def test_paired_difference_interval():
    rng = np.random.default_rng(1)
    a = rng.normal(0.3, 0.2, size=200)
    b = a - 0.05 + rng.normal(0, 0.01, size=200)
    estimate, low, high = c.paired_difference(a, b, resamples=2000, confidence=0.95, seed=7)
    assert estimate == pytest.approx(np.mean(a - b))
    assert low < estimate < high
    # the percentile interval is close to the normal-theory interval for this mean
    se = np.std(a - b, ddof=1) / math.sqrt(200)
    assert low == pytest.approx(estimate - 1.96 * se, abs=0.3 * se)
    assert high == pytest.approx(estimate + 1.96 * se, abs=0.3 * se)
    # a constant difference has a degenerate interval
    assert c.paired_difference([1, 2, 3], [0, 1, 2], 100, 0.95, 1) == (1.0, 1.0, 1.0)


def test_spread():
    values = np.array([[0.1, 0.3, 0.2], [0.3, 0.5, 0.2], [0.2, 0.4, 0.2]])
    estimate, low, high = c.spread(values, 500, 0.95, 3)
    assert estimate == pytest.approx(0.4 - 0.2)
    assert low <= estimate <= high


def test_a_comparison_row_by_hand_and_holm_within_the_finding():
    """Four requests, one type 10 points above SUM/u on each: effect +10, a degenerate
    interval, the randomisation p the chance that four random signs agree (2/16); Holm's p
    within the finding is statsmodels' multipletests over the finding's rows."""
    from statsmodels.stats.multitest import multipletests

    from conftest import ROOT
    from gradedrel.report import design

    study = design.load(ROOT / "config" / "design" / "jk2000.yaml")
    study = replace(study, findings=study.findings[1:2],
                    constants=replace(study.constants, resamples=500, trials=20000, seed=1))
    base = [0.2, 0.4, 0.1, 0.5]
    runs = {t: [x + 0.03 * i for x in base] for i, t in enumerate(study.query_types)}
    runs["WSYN/e"] = [x + 0.1 for x in base]
    per_topic = pd.DataFrame([(t, str(q), "AvP(level=3)", v) for t, values in runs.items()
                              for q, v in enumerate(values)],
                             columns=["run", "qid", "measure", "value"])
    table = c.comparisons_table(per_topic, None, study)
    assert list(table.columns) == c.COLUMNS["comparisons"]
    primary = table.iloc[0]
    assert (primary["part"], primary["comparison"]) == ("primary", "WSYN/e - SUM/u")
    assert primary["estimate"] == pytest.approx(10.0) and primary["requests"] == 4
    assert (primary["low"], primary["high"]) == pytest.approx((10.0, 10.0))
    assert primary["p_value"] == pytest.approx(0.125, abs=0.01)
    assert primary["mean_second"] == pytest.approx(100 * np.mean(base))
    assert table["p_holm"].to_numpy() == pytest.approx(
        multipletests(table["p_value"], method="holm")[1])


def test_one_nan_rule_for_two_evaluations_of_the_same_runs():
    """gradedrel compare's check of the query types' means against the workflow's and the
    reference builder's check share one rule: undefined in both (or undefined here and
    absent there) agrees, a value against an undefined or absent one does not."""
    from gradedrel.evaluation.files import SAME_MEANS, largest_difference

    def means(rows):
        return pd.DataFrame(rows, columns=["run", "measure", "mean"])

    ours = means([("a", "m", 0.5), ("a", "n", float("nan"))])
    assert largest_difference(ours, means([("a", "m", 0.5 + 1e-9), ("a", "n", float("nan"))])) \
        <= SAME_MEANS
    assert largest_difference(ours, means([("a", "m", 0.5), ("a", "n", 0.1)])) == math.inf
    assert largest_difference(ours, means([("a", "n", float("nan"))])) == math.inf   # m only here
    assert largest_difference(ours, means([("a", "m", 0.5)])) <= SAME_MEANS   # n: undefined
    assert largest_difference(ours, means([("a", "m", 0.6), ("a", "n", float("nan"))])) == \
        pytest.approx(0.1)
