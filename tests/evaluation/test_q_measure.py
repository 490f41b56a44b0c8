"""Sakai's Q-measure: a worked example, β = 0 as trec_eval's average precision (pytrec_eval),
and topic by topic against pyNTCIREVAL's QMeasure to 1e-9 (synthetic runs; the fixture
workflow's runs)."""
import pytest
import pytrec_eval

import ntcireval
from gradedrel.evaluation.measures import registry
from gradedrel.evaluation.measures.base import Ranking
from gradedrel.evaluation.measures.judgements import Judgements, judge
from gradedrel.evaluation.measures.q import Q

from helpers_eval import judged, synthetic_collection

from test_ntcireval import TOLERANCE, _check, _fixture_comparison, synthetic_runs


def worked():
    """Ranks 1..4: levels 3, unjudged, 1, 2; the recall base: one 3, two 2s, one 1 (R = 4)
    and a judged non-relevant document."""
    qrels = [("1", "a", 3), ("1", "b", 1), ("1", "c", 2), ("1", "d", 2), ("1", "e", 0)]
    run = [("1", "a", 4.0), ("1", "x", 3.0), ("1", "b", 2.0), ("1", "c", 1.0)]
    judgements, run = judged(qrels, run)
    return Ranking(run, judgements)


def test_q_on_a_worked_example():
    # ideal gains 3 2 2 1: cg* = 3 5 7 8; BR(1) = (1+3)/(1+3), BR(3) = (2+4)/(3+7),
    # BR(4) = (3+6)/(4+8)
    ranking = worked()
    assert Q(beta=1).values(ranking)[0] == pytest.approx((1 + 0.6 + 0.75) / 4, abs=1e-15)
    assert (Q(beta=1) @ 3).values(ranking)[0] == pytest.approx((1 + 0.6) / 3, abs=1e-15)
    # beta = 2 with gains 1, 5, 10: cg 10 10 11 16, cg* 10 15 20 21
    q = Q(beta=2, gains={1: 1, 2: 5, 3: 10}).values(ranking)[0]
    assert q == pytest.approx(((1 + 20) / (1 + 20) + (2 + 22) / (3 + 40)
                               + (3 + 32) / (4 + 42)) / 4, abs=1e-15)
    # beta = 0: average precision, 1, 2/3, 3/4 at the relevant ranks
    assert Q(beta=0).values(ranking)[0] == pytest.approx((1 + 2 / 3 + 3 / 4) / 4, abs=1e-15)


def test_q_names_and_undefined_requests():
    assert str(Q) == "Q(beta=1)" and str(Q(beta=0.5) @ 10) == "Q(beta=0.5)@10"
    assert str(registry.parse("Q(beta=1,gains={1:1,2:5,3:10})")) == \
        "Q(beta=1,gains={1:1,2:5,3:10})"
    assert registry.parse("Q") == Q(beta=1) and registry.parse("Q").complete
    judgements, run = judged([("1", "a", 0), ("2", "b", 1)], [("1", "a", 1.0), ("2", "b", 1.0)])
    values = Q(beta=1).values(Ranking(run, judgements))
    assert values[0] != values[0] and values[1] == 1.0  # no relevant document: NaN
    with pytest.raises(ValueError, match="must be >= 0"):
        Q(beta=-1)


def test_q_with_beta_0_is_trec_eval_average_precision():
    qrels, runs = synthetic_runs()
    topics = sorted(set(qrels["qid"]), key=int)
    relevant = {}
    for qid, docno, grade in zip(qrels["qid"], qrels["docno"], qrels["grade"]):
        relevant.setdefault(qid, {})[docno] = int(grade)
    for run in runs.values():
        judgements = Judgements.from_qrels(qrels, topics)
        ours = Q(beta=0).values(Ranking(judge(run, judgements), judgements))
        scores = {}
        for t, docno, score in zip(run.topic, run.docno, run.score):
            scores.setdefault(str(run.topics[t]), {})[docno] = float(score)
        theirs = pytrec_eval.RelevanceEvaluator(relevant, {"map"}).evaluate(scores)
        for i, qid in enumerate(judgements.topics):
            if any(g > 0 for g in relevant[qid].values()):
                assert ours[i] == pytest.approx(theirs.get(qid, {"map": 0.0})["map"],
                                                abs=TOLERANCE), qid


def q_grid():
    return [Q(beta=beta, gains=gains, cutoff=cutoff)
            for beta in (1, 0.5, 3) for gains in ({1: 1, 2: 2, 3: 3}, {1: 1, 2: 5, 3: 10})
            for cutoff in (None, 1, 10, 100)]


def test_q_agrees_with_ntcireval_on_synthetic_runs():
    qrels, runs = synthetic_runs()
    _check(ntcireval.compare(q_grid(), runs, qrels, sorted(set(qrels["qid"]), key=int)),
           undefined_somewhere=False)


@pytest.mark.workflow
def test_q_agrees_with_ntcireval_on_the_fixture_runs(finished_project):
    _check(_fixture_comparison(finished_project, q_grid()), undefined_somewhere=False)
