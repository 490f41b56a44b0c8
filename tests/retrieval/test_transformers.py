"""A query type and a back end as PyTerrier transformers, in pt.Experiment (the README example)."""
import sys
from pathlib import Path

import pandas as pd
import pytest

from gradedrel.queries import query_files
from gradedrel.retrieval import grid
from tiny_index import FIXTURES, index_dir

from tests.stand_in import write_query_files

pytestmark = pytest.mark.terrier  # starts Java and Terrier


@pytest.fixture(scope="module")
def setting(tmp_path_factory):
    from gradedrel.core import terrier

    root = tmp_path_factory.mktemp("tiny")
    directory = index_dir("tiny", str(root))
    pipeline = terrier.term_pipeline(directory)
    topics = pd.read_csv(FIXTURES / "tiny/topics.tsv", sep="\t", dtype=str)
    write_query_files(topics, root / "queries", lambda t: pipeline(t) is None)
    qrels = pd.read_csv(FIXTURES / "tiny/qrels.txt", sep=" ", header=None, dtype=str,
                        names=["qid", "iter", "docno", "label"])
    qrels["label"] = qrels["label"].astype(int)
    return directory, root / "queries", topics, qrels[["qid", "docno", "label"]], pipeline


def test_structure_then_inquery_in_pt_experiment(setting):
    import pyterrier as pt
    from ir_measures import AP, nDCG

    from gradedrel.core import terrier
    from gradedrel.retrieval.transformers import InQuery, structure

    directory, queries, topics, qrels, pipeline = setting
    wsyn_e = structure("WSYN", expanded=True, queries=queries)
    bm25 = pt.terrier.Retriever(terrier.open_index(directory), wmodel="BM25")
    result = pt.Experiment([wsyn_e >> InQuery(directory), wsyn_e >> bm25], topics, qrels,
                           eval_metrics=[AP(rel=3), nDCG @ 10], names=["InQuery", "BM25"],
                           perquery=True)
    assert set(result["name"]) == {"InQuery", "BM25"}
    # the transformer route ranks exactly as the workflow's grid does
    ranked = (wsyn_e >> InQuery(directory)).transform(topics)
    model = grid.Model("InQuery", "inquery", {})
    run, _ = grid.run_query_type(model, model.engine().retriever(directory, 1000),
                                 topics, query_files.read_query_file(queries / "WSYN-e.jsonl"),
                                 "WSYN/e", pipeline)
    assert ranked[["qid", "docno"]].values.tolist() == run[["qid", "docno"]].values.tolist()
    # topic 1: d01 and d02 hold "similarity laws", d05 (highly relevant) "aeroelastic" only
    first = ranked[ranked.qid == "1"]["docno"].tolist()
    assert first[:2] == ["d01", "d02"] and "d05" in first
    ap3 = result[(result.name == "InQuery") & (result.qid == "1") & (result.measure == "AP(rel=3)")]
    # d05 is topic 1's only document at level 3 (label 3): AP(rel=3) = 1 / its rank
    assert ap3["value"].item() == pytest.approx(1 / (first.index("d05") + 1))
    with pytest.raises(ValueError, match="needs a 'tree' column"):
        InQuery(directory).transform(topics)


def test_structure_reports_topics_without_a_query(setting):
    from gradedrel.retrieval.transformers import structure

    _, queries, topics, _, _ = setting
    more = pd.concat([topics, pd.DataFrame({"qid": ["99"], "query": ["the of"]})])
    wsyn_u = structure("WSYN/u", queries=queries)
    out = wsyn_u.transform(more)
    assert out["qid"].tolist() == topics["qid"].tolist()
    assert wsyn_u.missing == ["99"]
    assert out["query"].iloc[0].startswith("#combine:0=10")
    with pytest.raises(ValueError, match="unknown query type"):
        structure("SYN", expanded=True, queries=queries)
