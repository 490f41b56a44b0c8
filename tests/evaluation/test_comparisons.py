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


def test_the_p_values_the_evaluation_holds_are_read_not_computed_again():
    """Friedman's p of a spread and the randomisation p of a pair against the baseline are
    the evaluation's own (significance_friedman.tsv, significance_vs_baseline.tsv): the
    comparisons read them (``p_from``) and they equal what computing them gives; Holm's p
    within the finding is taken over them all (statsmodels' multipletests)."""
    from statsmodels.stats.multitest import multipletests

    from conftest import ROOT
    from gradedrel.evaluation.measures.judgements import Judgements
    from gradedrel.evaluation.settings import Settings
    from gradedrel.evaluation.tables import RunResult, significance_tables
    from gradedrel.report import design

    study = design.load(ROOT / "config" / "design" / "jk2000.yaml")
    study = replace(study, findings=study.findings[:3],
                    constants=replace(study.constants, resamples=300, trials=500, seed=5))
    rng = np.random.default_rng(3)
    topics = [str(q) for q in rng.permutation(np.arange(1, 31))]   # not in text order
    measures = [f"AvP(level={lv})" for lv in (1, 2, 3)]
    values = {t: {m: rng.random(len(topics)) for m in measures} for t in study.query_types}
    per_topic = pd.DataFrame([(t, q, m, v[m][i]) for t, v in values.items() for m in measures
                              for i, q in enumerate(topics)],
                             columns=["run", "qid", "measure", "value"])
    judgements = Judgements.from_qrels(pd.DataFrame({"qid": topics, "docno": "d", "grade": 3}),
                                       topics)
    tables = significance_tables(
        [RunResult(t, {m: v[m] for m in measures}, [], {}, {}, [], {}, [], {}, [])
         for t, v in values.items()], judgements,
        Settings(randomisation_trials=500, seed=5))
    known = c.Known(tables["significance_friedman"], tables["significance_vs_baseline"], 5)
    read = c.comparisons_table(per_topic, None, study, known)
    computed = c.comparisons_table(per_topic, None, study)
    assert set(computed["p_from"]) == {""}
    spreads = read[read["comparison"] == "spread (max - min)"]
    assert set(spreads["p_from"]) == {"significance_friedman"}
    against = read[read["comparison"].str.endswith(" - SUM/u")]
    assert len(against) >= 5 and set(against["p_from"]) == {"significance_vs_baseline"}
    others = read[~read.index.isin(spreads.index) & ~read.index.isin(against.index)]
    assert set(others["p_from"]) == {""}
    assert read["p_value"].to_numpy() == pytest.approx(computed["p_value"].to_numpy(), rel=1e-9)
    primary = read[read["finding"] == 2]
    assert primary["p_holm"].to_numpy() == pytest.approx(
        multipletests(primary["p_value"], method="holm")[1])
    other_trials = c.Known(tables["significance_friedman"], tables["significance_vs_baseline"],
                           6)   # another seed: other sign flips, so computed here
    assert set(c.comparisons_table(per_topic, None, study, other_trials)["p_from"]) == \
        {"", "significance_friedman"}
