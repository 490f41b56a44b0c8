"""The graded measures NTCIREVAL also computes, topic by topic against pyNTCIREVAL (the
oracle: tests/ntcireval.py) to 1e-9: on synthetic runs (ties, unjudged documents, topics
without documents at a level, a topic a run lacks, short rankings) and on the fixture
workflow's runs. The same check over a finished main job: ``tests/ntcireval.py``."""
import numpy as np
import pytest

import ntcireval
from gradedrel.evaluation.measures.jk import JK_nDCG
from gradedrel.retrieval.runs import rank_frame

from helpers_eval import synthetic_collection

TOLERANCE = 1e-9


def synthetic_runs():
    qrels, run = synthetic_collection(seed=13, n_topics=30, depth=160, tie_every=2)
    rng = np.random.default_rng(13)
    short = run[~(run["qid"].isin(["4", "9"]) & (rng.random(len(run)) < 0.9))]
    return qrels, {"ties": rank_frame(run), "short": rank_frame(short)}


def jk_ndcg_grid():
    return [JK_nDCG(b=b, profile=p, gains=g) @ k
            for p in ("all", "2+3", "3") for b in (2, 3, 10) for k in (1, 5, 10, 100, 150)
            for g in ({1: 1, 2: 2, 3: 3}, {1: 1, 2: 5, 3: 10})]


def _check(result, undefined_somewhere=True):
    assert result
    for name, row in result.items():
        assert row["max_abs_difference"] <= TOLERANCE, (name, row)
        assert not row["mismatched"], (name, row["mismatched"][:3])
        assert row["compared"] > 0, name
    if undefined_somewhere:  # topics without a level-3 document: nDCG undefined under '3'
        assert any(row["undefined"] for row in result.values())


def test_jk_ndcg_agrees_with_ntcireval_on_synthetic_runs():
    qrels, runs = synthetic_runs()
    _check(ntcireval.compare(jk_ndcg_grid(), runs, qrels, sorted(set(qrels["qid"]), key=int)))


def test_the_oracle_is_ntcireval_on_a_worked_example():
    """J&K's nDCG@4 with b = 2 (no discount at rank 1): levels 3 0 2 1 against the ideal
    3 2 1 (0)."""
    dcg = 3 + 0 + 2 / np.log2(3) + 1 / np.log2(4)
    ideal = 3 + 2 + 1 / np.log2(3)
    value = ntcireval.oracle_value(JK_nDCG(b=2) @ 4, [5, 1, 1, 1],
                                   [("a", 3), ("x", None), ("b", 2), ("c", 1)])
    assert value == pytest.approx(dcg / ideal, abs=1e-12)


@pytest.mark.workflow
def test_jk_ndcg_agrees_with_ntcireval_on_the_fixture_runs(finished_project):
    _check(_fixture_comparison(finished_project, jk_ndcg_grid()), undefined_somewhere=False)


def _fixture_comparison(project, measures):
    from gradedrel.collection.readers import read_qrels_tsv
    from gradedrel.core.io import read_tsv
    from gradedrel.retrieval.runs import read_run

    base = project / "results" / "tiny"
    qrels = read_qrels_tsv(base / "qrels.tsv")
    topics = read_tsv(base / "plans" / "auto" / "topics.tsv")["qid"].tolist()
    runs = {f"{p.parent.name}/{p.stem}": read_run(p)
            for p in sorted((base / "runs" / "auto").glob("*/*.run"))}
    runs["baseline"] = read_run(base / "baseline" / "BM25.run")
    assert len(runs) == 13
    return ntcireval.compare(measures, runs, qrels, topics)
