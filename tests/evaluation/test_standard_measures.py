"""Standard measures: one StandardMeasures (set up once) over several runs gives what
ir_measures computes for each run on its own; a topic the run lacks scores 0."""
import ir_measures
import pandas as pd
import pytest

from gradedrel.evaluation import standard_measures
from gradedrel.evaluation.measures.judgements import Judgements
from gradedrel.retrieval.runs import rank_frame

QRELS = pd.DataFrame({"qid": ["1", "1", "1", "2", "2", "3"],
                      "docno": ["a", "b", "c", "a", "d", "e"],
                      "grade": [3, 1, 0, 2, 3, 1]})
RUNS = [{"1": {"a": 2.0, "c": 1.5, "b": 1.0, "x": 0.5}, "2": {"x": 3.0, "d": 2.0}},
        {"1": {"b": 9.0, "x": 8.0, "a": 7.0}, "2": {"a": 1.0, "d": 0.5},
         "3": {"e": 1.0}}]
NAMES = ["nDCG@10", "AP(rel=1)", "AP(rel=3)", "P@2"]


def ranked(run):
    return rank_frame(pd.DataFrame([(q, d, s) for q, docs in run.items() for d, s in docs.items()],
                                   columns=["qid", "docno", "score"]))


def test_one_evaluator_for_every_run_agrees_with_ir_measures():
    evaluator = standard_measures.StandardMeasures(Judgements.from_qrels(QRELS), NAMES)
    qrels = [ir_measures.Qrel(q, d, int(g)) for q, d, g in QRELS.itertuples(index=False)]
    topics = ["1", "2", "3"]
    for run in RUNS:
        got = evaluator.vectors(ranked(run))
        expected = {(m.query_id, str(m.measure)): m.value for m in ir_measures.iter_calc(
            [ir_measures.parse_measure(n) for n in NAMES], qrels,
            [ir_measures.ScoredDoc(q, d, s) for q, docs in run.items()
             for d, s in docs.items()])}
        for name in NAMES:
            key = str(ir_measures.parse_measure(name))
            want = [expected.get((q, key), 0.0) if q in run else 0.0 for q in topics]
            assert got[name].tolist() == pytest.approx(want, abs=1e-12), name
    assert evaluator.vectors(ranked(RUNS[0]))["AP(rel=1)"][2] == 0.0  # topic 3 not ranked
    # run 2, topic 1: b (grade 1), x (unjudged), a (grade 3): AP(rel=3) = (1/3) / 1
    assert evaluator.vectors(ranked(RUNS[1]))["AP(rel=3)"][0] == pytest.approx(1 / 3)
    assert evaluator.vectors(ranked(RUNS[1]))["P@2"][0] == pytest.approx(0.5)
