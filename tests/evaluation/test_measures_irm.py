"""The paper's measures through ir_measures and pt.Experiment, beside nDCG@10."""
import ir_measures
import numpy as np
import pandas as pd
import pytest

from gradedrel.evaluation.evaluate import evaluate
from gradedrel.evaluation.settings import Settings
from gradedrel.evaluation.measures import irm
from gradedrel.evaluation.measures.judgements import Judgements
from gradedrel.retrieval.runs import rank_frame

from helpers_eval import synthetic_collection

MEASURES = ["AvP(level=3)", "AvP(level=2,reading='atleast')", "JK_CG(profile='2+3')@10",
            "JK_DCG(b=10,profile='3')@50", "JK_nDCG(b=2,profile='all')@10",
            "JK_nCG(profile='3')@100", "nDCG_log2(gain='exp')@10"]


@pytest.fixture(scope="module")
def case():
    qrels, run = synthetic_collection(seed=21)
    settings = Settings(significance_measures=("AvP(level=3)",), bootstrap_resamples=100,
                        randomisation_trials=100)
    tables = evaluate({"r": rank_frame(run)}, Judgements.from_qrels(qrels), settings)
    means = tables["means"].set_index("measure")
    q = pd.DataFrame({"query_id": qrels["qid"], "doc_id": qrels["docno"],
                      "relevance": qrels["grade"]})
    r = pd.DataFrame({"query_id": run["qid"], "doc_id": run["docno"], "score": run["score"]})
    return qrels, run, means, q, r


def test_calc_aggregate_gives_the_evaluation_means(case):
    _, _, means, q, r = case
    measures = [irm.parse(m) for m in MEASURES]
    result = ir_measures.calc_aggregate(measures + [ir_measures.nDCG @ 10], q, r)
    for name, measure in zip(MEASURES, measures):
        assert result[measure] == pytest.approx(means.loc[name, "mean"], abs=1e-12), name
    assert result[ir_measures.nDCG @ 10] == pytest.approx(
        means.loc["nDCG_log2(gain='linear')@10", "mean"], abs=1e-9)


def test_undefined_topics_are_nan_per_topic_and_left_out_of_the_mean(case):
    qrels, _, means, q, r = case
    values = {m.query_id: m.value for m in ir_measures.iter_calc([irm.parse("AvP(level=3)")],
                                                                 q, r)}
    with_base = set(qrels.loc[qrels["grade"] == 3, "qid"])
    assert {k for k, v in values.items() if not np.isnan(v)} == with_base
    assert means.loc["AvP(level=3)", "topics"] == len(with_base)


@pytest.mark.terrier
def test_pt_experiment_accepts_the_measures_beside_ndcg10(case):
    import pyterrier as pt
    qrels, run, means, _, _ = case
    system = pt.Transformer.from_df(run.assign(rank=0)[["qid", "docno", "score", "rank"]])
    labels = pd.DataFrame({"qid": qrels["qid"], "docno": qrels["docno"],
                           "label": qrels["grade"].astype(int)})
    avp3 = irm.parse("AvP(level=3)")
    defined = irm.defined_topics(avp3, labels)
    topics = pd.DataFrame({"qid": defined, "query": "unused"})
    table = pt.Experiment([system], topics, labels, eval_metrics=[avp3, ir_measures.nDCG @ 10],
                          names=["r"])
    assert table.loc[0, "AvP(level=3)"] == pytest.approx(means.loc["AvP(level=3)", "mean"],
                                                         abs=1e-12)
    assert len(defined) == means.loc["AvP(level=3)", "topics"]


def test_templates_and_parsed_measures_print_their_names():
    assert str(irm.AvP) == "AvP" and str(irm.nDCG_log2) == "nDCG_log2(gain='linear')"
    assert str(irm.AvP(level=2)) == "AvP(level=2)"
    assert str(irm.JK_nDCG(profile="2+3") @ 20) == "JK_nDCG(b=2,profile='2+3')@20"
    assert str(irm.JK_CG(gains={1: 1, 2: 5, 3: 10}) @ 5) == \
        "JK_CG(profile='all',gains={1:1,2:5,3:10})@5"


def test_requested_topics_without_judgements_are_left_out_not_scored_zero(caplog):
    qrels = pd.DataFrame({"qid": ["1", "2"], "docno": ["a", "b"], "grade": [3, 1]})
    judgements = Judgements.from_qrels(qrels, topics=["2", "7"])
    assert judgements.topics.tolist() == ["2"]
    assert "1 requested topic(s) have no judgements" in caplog.text and "7" in caplog.text
