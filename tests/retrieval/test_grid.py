"""The grid: models from config, Terrier models on MatchOp queries, topics not ranked and why."""
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from gradedrel.queries import query_files
from gradedrel.retrieval import backends, grid
from gradedrel.retrieval.runs import trec_eval_ranking
from gradedrel.queries.query_tree import Key, Sum, Syn, to_dict
from tiny_index import FIXTURES, index_dir

from tests.stand_in import matchop

pytestmark = pytest.mark.terrier  # starts Java and Terrier

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    from gradedrel.core import terrier

    directory = index_dir("tiny", str(tmp_path_factory.mktemp("idx")))
    return directory, terrier.term_pipeline(directory)


def query_file(path, trees):
    lines = [json.dumps({"qid": qid, "query_type": "SSYN-C/u", "tree": to_dict(t),
                         "matchop": matchop(t)}) for qid, t in trees.items()]
    path.write_text("\n".join(lines) + "\n")
    return query_files.read_query_file(path)


def test_the_configured_models_come_through_their_back_ends():
    config = yaml.safe_load((ROOT / "config/config.yaml").read_text())
    models = {name: grid.Model.from_config(name, spec)
              for name, spec in config["retrieval"]["models"].items()}
    # whatever models the shipped config lists (not pinned: adding one is an extension)
    for name, model in models.items():
        spec = config["retrieval"]["models"][name]
        assert model.backend == spec["backend"], name
        if model.backend == "terrier":
            assert model.parameters["wmodel"] in backends.WEIGHTING_MODELS, name
    assert set(config["retrieval"]["grid"]) <= set(models)
    assert models["BM25"].parameters["wmodel"] == "BM25"
    # defaults that schema validation fills in for every model stay with their own back end
    assert "default_belief" not in grid.Model.from_config(
        "BM25", {"backend": "terrier", "wmodel": "BM25", "default_belief": 0.4}).parameters
    with pytest.raises(ValueError, match="backend"):
        grid.Model.from_config("X", {"backend": "lucene"})


@pytest.mark.parametrize("model", ["BM25", "DirichletLM", "DPH"])
def test_terrier_model_runs_matchop_like_its_plain_query(tiny, tmp_path, model):
    """#combine of plain terms scores exactly as the plain query; #syn retrieves the union."""
    import pyterrier as pt

    from gradedrel.core import terrier

    directory, pipeline = tiny
    topics = pd.DataFrame({"qid": ["1", "2"], "query": ["", ""]})
    queries = query_file(tmp_path / "q.jsonl", {
        "1": Sum((Key(("buckling",)), Key(("cylindrical",)), Key(("shells",)))),
        "2": Sum((Syn((Key(("slipstream",)), Key(("flutter",)))),)),
    })
    terrier_model = grid.Model(model, "terrier", {"wmodel": model})
    retriever = terrier_model.engine().retriever(directory, 1000)
    run, not_ranked = grid.run_query_type(terrier_model, retriever, topics, queries, "SSYN-C/u",
                                          pipeline)
    assert not_ranked.empty
    plain = pt.terrier.Retriever(terrier.open_index(directory), wmodel=model).search(
        "buckling cylindrical shells")
    got = run[run.qid == "1"].set_index("docno")["score"]
    assert sorted(got.index) == sorted(plain["docno"])
    for docno, score in zip(plain["docno"], plain["score"]):
        assert got[docno] == pytest.approx(score, rel=1e-9)
    # d05 has flutter; d08 and d09 have slipstream
    assert set(run[run.qid == "2"]["docno"]) == {"d05", "d08", "d09"}


def test_every_topic_is_ranked_or_has_a_reason(tiny, tmp_path):
    directory, pipeline = tiny
    topics = pd.read_csv(FIXTURES / "tiny/topics.tsv", sep="\t", dtype=str)
    topics = pd.concat([topics, pd.DataFrame({"qid": ["5", "6", "7", "8"], "query": ["x"] * 4})])
    queries = query_file(tmp_path / "q.jsonl", {
        "1": Sum((Key(("similarity", "laws")), Key(("aeroelastic",)))),
        "2": Sum((Syn((Key(("buckling",)), Key(("shells",)))),)),
        "3": Sum((Key(("slipstream",)),)),
        "4": Sum((Key(("plates",)),)),
        "5": Sum((Key(("the",)), Key(("of",)))),
        "6": Sum((Key(("zeppelin",)),)),
        # Terrier's #syn sums member dfs: 5 x df(wing) = 15 > N = 12, so BM25 scores NaN
        "8": Sum((Syn(tuple(Key(("wing",)) for _ in range(5))), Key(("flutter",)))),
    })
    for model in [grid.Model("InQuery", "inquery", {}),
                  grid.Model("BM25", "terrier", {"wmodel": "BM25"})]:
        retriever = model.engine().retriever(directory, 1000)
        run, not_ranked = grid.run_query_type(model, retriever, topics, queries, "SSYN-C/u",
                                              pipeline)
        nan = model.backend == "terrier"
        assert sorted(set(run["qid"])) == ["1", "2", "3", "4"] + ([] if nan else ["8"])
        assert not_ranked.values.tolist() == [["5", "SSYN-C/u", grid.NO_KEYS],
                                              ["6", "SSYN-C/u", grid.NO_MATCH],
                                              ["7", "SSYN-C/u", grid.NO_QUERY]] + (
            [["8", "SSYN-C/u", grid.NAN_SCORES]] if nan else [])
        assert set(run[run.qid == "1"]["docno"]) == {"d01", "d02", "d05"}
        for _, ranking in run.groupby("qid"):
            assert ranking["rank"].tolist() == list(range(1, len(ranking) + 1))
            assert ranking["score"].is_monotonic_decreasing


def test_ties_are_ordered_as_trec_eval_orders_them():
    run = pd.DataFrame({"qid": ["1"] * 4, "docno": ["d1", "d3", "d2", "d4"],
                        "score": [2.0, 1.0, 1.0 + 1e-13, 0.5]})
    ordered = trec_eval_ranking(run)
    # 1.0 and 1.0 + 1e-13 are one score in a run file (10 digits): docno descending decides
    assert ordered["docno"].tolist() == ["d1", "d3", "d2", "d4"]
    assert ordered["rank"].tolist() == [1, 2, 3, 4]


def test_bad_query_file_line_is_one_clear_error(tmp_path):
    from gradedrel.core.errors import InputError

    path = tmp_path / "q.jsonl"
    path.write_text('{"qid": "1", "query_type": "SUM/u", "tree": {"op": "key", "tokens": ["a"]},'
                    ' "matchop": "a"}\n{"qid": "2", "tree": {}}\n')
    with pytest.raises(InputError, match=r"q.jsonl:2: expected a JSON object with qid"):
        query_files.read_query_file(path)


@pytest.mark.parametrize("model", ["PL2", "DirichletLM", "DPH"])
def test_infinite_scores_are_withheld_with_their_reason(tiny, tmp_path, model):
    """Terrier 5.11 gives a phrase df = N/100 and frequency 2N/100 (PhraseOp,
    UnorderedWindowOp .mergeStatistics), 0 for the 12 documents here: models that divide by
    the frequency score the phrase's documents infinite. Such a ranking is withheld and said."""
    directory, pipeline = tiny
    topics = pd.DataFrame({"qid": ["1", "2"]})
    queries = query_file(tmp_path / "q.jsonl", {
        "1": Sum((Key(("similarity", "laws")), Key(("aeroelastic",)))),
        "2": Sum((Key(("aeroelastic",)),)),
    })
    terrier_model = grid.Model.from_config(model, {"backend": "terrier", "wmodel": model})
    run, not_ranked = grid.run_query_type(terrier_model,
                                          terrier_model.engine().retriever(directory, 100),
                                          topics, queries, "SSYN-C/u", pipeline)
    assert not_ranked.values.tolist() == [["1", "SSYN-C/u", grid.INF_SCORES]]
    assert set(run["qid"]) == {"2"} and np.isfinite(run["score"]).all()
