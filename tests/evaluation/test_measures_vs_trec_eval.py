"""Cross-checks against independent implementations: trec_eval (pytrec_eval) and ir_measures.

- AvP at level r equals trec_eval ``map`` on the qrels reduced to that recall base, and the
  interpolated P–R points equal ``iprec_at_recall_*``, for every topic, for both readings;
- ``nDCG_log2`` equals ir_measures' nDCG@k with the same gains.
"""
import ir_measures
import numpy as np
import pandas as pd
import pytest
import pytrec_eval

from gradedrel.evaluation.measures import cumulated_gain as cg
from gradedrel.evaluation.measures import stratified
from gradedrel.evaluation.measures.judgements import Judgements, judge
from gradedrel.retrieval.runs import rank_frame

from helpers_eval import synthetic_collection

POINTS = ["0.00", "0.10", "0.20", "0.30", "0.40", "0.50", "0.60", "0.70", "0.80", "0.90",
          "1.00"]


@pytest.fixture(scope="module")
def case():
    qrels, run = synthetic_collection(seed=11)
    judgements = Judgements.from_qrels(qrels)
    return qrels, run, judgements, judge(rank_frame(run), judgements)


def _trec_eval(qrels, run, level, reading):
    relevant = stratified.relevant(qrels["grade"].to_numpy(), level, reading)
    reduced: dict = {}
    for (qid, docno), rel in zip(zip(qrels["qid"], qrels["docno"]), relevant):
        reduced.setdefault(qid, {})[docno] = int(rel)
    scores: dict = {}
    for qid, docno, score in zip(run["qid"], run["docno"], run["score"]):
        scores.setdefault(qid, {})[docno] = float(score)
    evaluator = pytrec_eval.RelevanceEvaluator(reduced, {"map", "iprec_at_recall"})
    return evaluator.evaluate(scores)


@pytest.mark.parametrize("reading", ["exact", "atleast"])
@pytest.mark.parametrize("level", [1, 2, 3])
def test_avp_and_interpolated_pr_equal_trec_eval_on_the_reduced_qrels(case, level, reading):
    qrels, run, judgements, ranking = case
    theirs = _trec_eval(qrels, run, level, reading)
    avp = stratified.average_precision(ranking, judgements, level, reading)
    ip = stratified.interpolated_precision(ranking, judgements, level, reading)
    base = judgements.recall_base(level, reading)
    compared = 0
    for t, qid in enumerate(judgements.topics):
        if base[t] == 0:
            assert np.isnan(avp[t]) and np.isnan(ip[t]).all()  # no recall base: no value
            continue
        if qid not in theirs:  # the topic the run lacks: trec_eval skips it, we score 0
            assert avp[t] == 0.0 and (ip[t] == 0).all()
            continue
        assert avp[t] == pytest.approx(theirs[qid]["map"], abs=1e-12), qid
        got = [theirs[qid][f"iprec_at_recall_{p}"] for p in POINTS]
        assert ip[t].tolist() == pytest.approx(got, abs=1e-12), qid
        compared += 1
    assert compared >= 30  # the comparison really covered many topics


@pytest.mark.parametrize("gain, gains", [("linear", {0: 0, 1: 1, 2: 2, 3: 3}),
                                         ("exp", {0: 0, 1: 1, 2: 3, 3: 7})])
@pytest.mark.parametrize("cutoff", [5, 10, 20])
def test_ndcg_log2_equals_ir_measures_ndcg_with_the_same_gains(case, gain, gains, cutoff):
    qrels, run, judgements, ranking = case
    ours = cg.ndcg_log2(ranking, judgements, cutoff, gain)
    measure = ir_measures.nDCG(gains=gains) @ cutoff
    q = pd.DataFrame({"query_id": qrels["qid"], "doc_id": qrels["docno"],
                      "relevance": qrels["grade"].astype(int)})
    r = pd.DataFrame({"query_id": run["qid"], "doc_id": run["docno"], "score": run["score"]})
    theirs = {m.query_id: m.value for m in ir_measures.iter_calc([measure], q, r)}
    compared = 0
    for t, qid in enumerate(judgements.topics):
        if np.isnan(ours[t]):
            assert theirs.get(qid, 0.0) == 0.0  # nothing relevant: they say 0, we say undefined
            continue
        assert ours[t] == pytest.approx(theirs[qid], abs=1e-12), qid
        compared += 1
    assert compared >= 50
