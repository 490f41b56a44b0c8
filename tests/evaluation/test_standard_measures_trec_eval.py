"""The standard measures as the evaluation computes them (ir_measures through one StandardMeasures,
the run converted from its ranked arrays, topics in the judgements' order) equal
trec_eval's own values — pytrec_eval, the trec_eval C code, and ir_measures under the same
names — topic by topic, on synthetic runs with tied scores, unjudged documents, topics
without relevant documents, topics the run lacks, rankings shorter than the cutoff and
document ids whose text order differs from their numeric order."""
import re

import ir_measures
import numpy as np
import pandas as pd
import pytest
import pytrec_eval

from gradedrel.evaluation import standard_measures
from gradedrel.evaluation.measures.judgements import Judgements, judge
from gradedrel.retrieval.runs import rank_frame

from helpers_eval import synthetic_collection

NAMES = ["nDCG@10", "nDCG@3", "nDCG@20", "AP", "AP(rel=1)", "AP(rel=2)", "AP(rel=3)",
         "P@10", "P@5", "P(rel=2)@10", "P(rel=3)@20"]


def random_case(seed):
    """Qrels and a run drawn at random: every awkward case occurs among 40 topics."""
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    for t in range(40):
        qid = f"q{t}"
        n_judged = int(rng.integers(0, 30))
        docs = rng.choice(300, size=60, replace=False)
        kind = t % 5
        for d in docs[:n_judged]:
            grade = 0 if kind == 1 else int(rng.choice([0, 0, 1, 2, 3]))  # kind 1: none relevant
            qrels.append((qid, f"D{d}", grade))
        if kind == 2 and t > 10:
            continue                                   # a judged topic the run lacks
        depth = int(rng.integers(1, 8)) if kind == 3 else int(rng.integers(10, 60))  # short
        levels = 2 if kind == 4 else 1000              # kind 4: nearly every score tied
        for d in docs[:depth]:
            if kind == 0 and t % 2:  # scores that differ only beyond float32's precision
                score = 0.4162151678 + float(rng.integers(0, 6)) * 1e-9
            else:
                score = float(rng.integers(0, levels)) / 7.0
            run.append((qid, f"D{d}", score))
    run.append(("unjudged-topic", "D1", 1.0))
    return (pd.DataFrame(qrels, columns=["qid", "docno", "grade"]),
            pd.DataFrame(run, columns=["qid", "docno", "score"]))


def cases():
    yield "synthetic_collection", *synthetic_collection(seed=11)
    for seed in range(6):
        yield f"random-{seed}", *random_case(seed)
    # a run file whose topics come in another order than the qrels' (its rows ranked
    # within each topic as before): the topics' rows are no longer in topic order
    qrels, run = random_case(0)
    order = {qid: i for i, qid in enumerate(reversed(run["qid"].unique()))}
    yield "run-topics-reversed", qrels, run.sort_values(
        "qid", key=lambda q: q.map(order), kind="stable").reset_index(drop=True)


def as_dicts(qrels, run):
    q, r = {}, {}
    for qid, docno, grade in qrels.itertuples(index=False):
        q.setdefault(str(qid), {})[str(docno)] = int(grade)
    for qid, docno, score in run.itertuples(index=False):
        r.setdefault(str(qid), {})[str(docno)] = float(score)
    return q, r


def pytrec_eval_value(q, r, name):
    """The trec_eval measure behind an ir_measures name, from pytrec_eval directly."""
    match = re.fullmatch(r"(nDCG|AP|P)(?:\(rel=(\d+)\))?(?:@(\d+))?", name)
    kind, rel, cutoff = match.group(1), int(match.group(2) or 1), match.group(3)
    if kind == "nDCG":
        key, level, wanted = f"ndcg_cut_{cutoff}", 1, {f"ndcg_cut.{cutoff}"}
    elif kind == "AP":
        key, level, wanted = "map", rel, {"map"}
    else:
        key, level, wanted = f"P_{cutoff}", rel, {f"P.{cutoff}"}
    result = pytrec_eval.RelevanceEvaluator(q, wanted, relevance_level=level).evaluate(r)
    return {qid: values[key] for qid, values in result.items()}


@pytest.mark.parametrize("label, qrels, run", list(cases()), ids=lambda v: v
                         if isinstance(v, str) else "")
def test_values_are_trec_evals_own(label, qrels, run):
    judgements = Judgements.from_qrels(qrels)
    q, r = as_dicts(qrels, run)
    ir_qrels = pd.DataFrame({"query_id": qrels["qid"].astype(str),
                             "doc_id": qrels["docno"].astype(str),
                             "relevance": qrels["grade"].astype(int)})
    ir_run = pd.DataFrame({"query_id": run["qid"].astype(str),
                           "doc_id": run["docno"].astype(str), "score": run["score"]})
    vectors = standard_measures.StandardMeasures(judgements, NAMES).vectors(rank_frame(run))
    compared = 0
    for name in NAMES:
        ours = vectors[name]
        theirs = pytrec_eval_value(q, r, name)
        measure = ir_measures.parse_measure(name)
        irm = {m.query_id: m.value for m in ir_measures.iter_calc([measure], ir_qrels, ir_run)}
        for t, qid in enumerate(judgements.topics):
            if qid not in r:  # a topic the run lacks: trec_eval skips it, 0 for us
                assert ours[t] == 0.0 and qid not in theirs
                continue
            # the same floats, not merely close (1e-12 is the contract; equality is what
            # summing term by term in rank order gives)
            assert ours[t] == theirs[qid], (name, qid)
            assert ours[t] == pytest.approx(irm.get(qid, 0.0), abs=1e-12), (name, qid)
            compared += 1
    assert compared > 100


def test_the_awkward_cases_occur():
    """The random cases do contain what the test above claims to cover."""
    qrels, run = random_case(0)
    judgements = Judgements.from_qrels(qrels)
    counts = judgements.level_counts
    ranked = judge(rank_frame(run), judgements)
    lengths = np.bincount(ranked.topic, minlength=judgements.n_topics)
    assert (counts[:, 1:].sum(axis=1) == 0).any()            # no relevant document
    assert (~ranked.present).any()                            # a topic the run lacks
    assert ((lengths > 0) & (lengths < 10)).any()             # shorter than the cutoff
    assert run.duplicated(["qid", "score"]).sum() > 100       # tied scores
    single = run.assign(score=run["score"].astype(np.float32))
    assert single.duplicated(["qid", "score"]).sum() > run.duplicated(["qid", "score"]).sum()
    joined = run.merge(qrels, on=["qid", "docno"], how="left")
    assert joined["grade"].isna().sum() > 100                 # unjudged documents


def test_ties_in_single_precision_are_broken_by_document_id_as_trec_eval_does():
    """0.4162151818 and 0.4162151678 are one float: trec_eval ranks D5 (the larger id)
    first although its double is smaller (the case met in NFCorpus)."""
    judgements = Judgements.from_qrels(pd.DataFrame(
        {"qid": ["1"] * 2, "docno": ["D1", "D5"], "grade": [0, 1]}))
    run = rank_frame(pd.DataFrame({"qid": ["1"] * 3, "docno": ["D9", "D1", "D5"],
                                   "score": [0.5, 0.4162151818, 0.4162151678]}))
    assert run.docno.tolist() == ["D9", "D1", "D5"]  # our ranking, on doubles
    got = standard_measures.StandardMeasures(judgements, ["AP", "P@2"]).vectors(run)
    assert got["AP"][0] == 1 / 2 and got["P@2"][0] == 1 / 2  # D5 at rank 2, not 3
    q = {"1": {"D1": 0, "D5": 1}}
    r = {"1": {"D9": 0.5, "D1": 0.4162151818, "D5": 0.4162151678}}
    assert pytrec_eval.RelevanceEvaluator(q, {"map"}).evaluate(r)["1"]["map"] == 1 / 2


def test_other_names_computed_through_ir_measures_in_the_same_evaluation():
    qrels, run = random_case(3)
    judgements = Judgements.from_qrels(qrels)
    ranked = rank_frame(run)
    names = ["RR", "nDCG@10", "R@20", "AP(rel=2)"]
    got = standard_measures.StandardMeasures(judgements, names).vectors(ranked)
    assert list(got) == names
    q, r = as_dicts(qrels, run)
    for name in names:
        measure = ir_measures.parse_measure(name)
        ir_q = [ir_measures.Qrel(a, b, c) for a, docs in q.items() for b, c in docs.items()]
        ir_r = [ir_measures.ScoredDoc(a, b, c) for a, docs in r.items() for b, c in docs.items()]
        want = {m.query_id: m.value for m in ir_measures.iter_calc([measure], ir_q, ir_r)}
        expected = [want.get(qid, 0.0) for qid in judgements.topics]
        assert got[name].tolist() == pytest.approx(expected, abs=1e-12), name
