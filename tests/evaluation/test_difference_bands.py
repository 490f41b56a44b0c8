"""Paired bootstrap intervals of per-topic differences (the difference figures' bands, computed
in the evaluation stage)."""
import numpy as np
import pandas as pd
import pytest

from gradedrel.evaluation.comparisons import difference_bands
from gradedrel.evaluation.measures.significance import paired_bootstrap_ci as paired_ci


def test_constant_differences_give_a_point_interval():
    assert paired_ci(np.full(20, 0.25), 500, 0.95, 1) == pytest.approx((0.25, 0.25))


def test_interval_width_matches_the_normal_approximation():
    d = np.random.default_rng(7).normal(1.0, 1.0, 400)
    lo, hi = paired_ci(d, 4000, 0.95, 3)
    se = d.std(ddof=1) / np.sqrt(d.size)
    assert lo < d.mean() < hi
    assert hi - lo == pytest.approx(2 * 1.96 * se, rel=0.1)
    assert paired_ci(d, 4000, 0.95, 3) == (lo, hi)        # seeded


def test_bands_pair_topics_and_use_the_measure_names():
    rows = [(run, str(q), "JK_DCG(b=2,profile='3')@10", v)
            for q in range(1, 6) for run, v in (("SUM/u", q), ("WSYN/e", q + 2.0))]
    rows.append(("WSYN/e", "6", "JK_DCG(b=2,profile='3')@10", 100.0))   # no baseline value
    frame = pd.DataFrame(rows, columns=["run", "qid", "measure", "value"])
    bands = difference_bands(
        frame, "DCG", 2, ["3"], "SUM/u", ["SUM/u", "WSYN/e"], range(1, 101),
        200, 0.9, 0)
    assert bands.to_dict("records") == [{"run": "WSYN/e", "profile": "3", "kind": "DCG",
                                         "base": 2, "rank": 10, "lo": 2.0, "hi": 2.0,
                                         "topics": 5}]


def test_bands_find_the_gain_measures_of_an_evaluation_with_its_own_gain_table():
    """With evaluation.gains other than 1, 2, 3 the per-topic names carry the gain table
    (``JK_DCG(b=2,profile='3',gains={1:1,2:5,3:10})@10``): the bands must still be found."""
    from gradedrel.evaluation.evaluate import evaluate
    from gradedrel.evaluation.measures.judgements import Judgements
    from gradedrel.evaluation.settings import Settings
    from gradedrel.retrieval.runs import rank_frame

    from helpers_eval import synthetic_collection

    qrels, run = synthetic_collection(seed=2, n_topics=15)
    shifted = run.assign(score=run["score"] + np.random.default_rng(1).normal(0, 1, len(run)))
    settings = Settings(gains={1: 1, 2: 5, 3: 10}, randomisation_trials=100,
                        significance_measures=("AvP(level=3)",))
    per_topic = evaluate({"SUM/u": rank_frame(run), "WSYN/e": rank_frame(shifted)},
                         Judgements.from_qrels(qrels), settings, bootstrap=False)["per_topic"]
    assert "JK_DCG(b=2,profile='3',gains={1:1,2:5,3:10})@10" in set(per_topic["measure"])
    bands = difference_bands(per_topic, "DCG", 2, ["3", "all"], "SUM/u",
                                       ["SUM/u", "WSYN/e"], range(1, 101), 200, 0.9, 0)
    assert sorted(set(zip(bands["profile"], bands["rank"]))) == \
        [("3", 10), ("3", 50), ("3", 100), ("all", 10), ("all", 50), ("all", 100)]
    wide = per_topic[per_topic["measure"] == "JK_DCG(b=2,profile='3',gains={1:1,2:5,3:10})@50"] \
        .pivot(index="qid", columns="run", values="value")
    row = bands[(bands["profile"] == "3") & (bands["rank"] == 50)].iloc[0]
    assert (row["lo"], row["hi"]) == paired_ci(
        (wide["WSYN/e"] - wide["SUM/u"]).to_numpy(), 200, 0.9, 0)
    assert row["topics"] == 15
