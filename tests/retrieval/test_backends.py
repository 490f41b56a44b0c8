"""The registry of retrieval back ends and of Terrier weighting models: parameters checked
at start-up, each back end preparing its own queries, the schema's enums equal to the
registries, and a back end registered outside the package run by the grid."""
from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
import yaml

from gradedrel.queries.query_tree import Key, Sum, Syn, WSum, to_dict
from gradedrel.retrieval import backends, grid

from conftest import toy_pipeline

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = yaml.safe_load((ROOT / "config/schema/config.schema.yaml").read_text())
MODEL = SCHEMA["properties"]["retrieval"]["properties"]["models"]["additionalProperties"]


def test_the_schema_names_exactly_the_registered_back_ends_and_models():
    assert sorted(MODEL["properties"]["backend"]["enum"]) == sorted(backends.BACKENDS)
    # the schema describes every parameter a back end takes, and nothing else
    taken = {p for cls in backends.BACKENDS.values() for p in cls.parameters}
    assert set(MODEL["properties"]) == taken | {"backend"}
    # the weighting models are the registry's alone (the schema checks a name's type, the
    # registry that it exists: a model is one package file, tests/test_extension_counts.py)
    for wmodel in (MODEL["properties"]["wmodel"],
                   SCHEMA["properties"]["baseline"]["properties"]["wmodel"]):
        assert wmodel["type"] == "string" and "enum" not in wmodel


def test_parameters_are_kept_in_config_order_and_checked():
    spec = {"backend": "terrier", "wmodel": "BM25", "controls": {"c": 0.75},
            "properties": {"bm25.k_1": 1.2}, "default_belief": 0.4}
    model = grid.Model.from_config("BM25", spec)
    assert list(model.parameters) == ["wmodel", "controls", "properties"]
    assert grid.Model.from_config("I", {"backend": "inquery", "default_belief": 0.4,
                                        "controls": {}}).parameters == {"default_belief": 0.4}
    bad = [
        ({"backend": "terrier"}, r"retrieval.models.M: a terrier model needs 'wmodel'"),
        ({"backend": "terrier", "wmodel": "BM52"},
         r"retrieval.models.M.wmodel: 'BM52' is not a registered Terrier weighting model "
         r"\(did you mean 'BM25'\?"),
        ({"backend": "terrier", "wmodel": "BM25", "controls": {"c": 1.5}},
         r"controls.c \(BM25's b \(length normalisation\)\): expected a number >= 0 and <= 1, "
         r"found 1.5"),
        ({"backend": "terrier", "wmodel": "DirichletLM", "controls": {"c": 0}},
         r"controls.c \(DirichletLM's mu\): expected a number > 0, found 0"),
        ({"backend": "terrier", "wmodel": "BM25", "controls": {"c": "high"}},
         r"controls.c \(BM25's b \(length normalisation\)\): expected a number >= 0 and <= 1, "
         r"found 'high'"),
        ({"backend": "terrier", "wmodel": "DirichletLM", "controls": {"c": [2500]}},
         r"controls.c \(DirichletLM's mu\): expected a number > 0, found \[2500\]"),
        ({"backend": "terrier", "wmodel": "DPH", "controls": {"c": 1}},
         r"controls.c: Terrier's DPH has no parameter"),
        ({"backend": "terrier", "wmodel": "BM25", "controls": {"qe": "on"}},
         r"'qe' is not a control the grid passes"),
        ({"backend": "terrier", "wmodel": "BM25", "properties": {"bm25.k1": 1}},
         r"BM25 reads no 'bm25.k1' \(did you mean 'bm25.k_1'\?\)"),
        ({"backend": "terrier", "wmodel": "DirichletLM", "properties": {"bm25.k_1": 1}},
         r"'bm25.k_1' is read by Terrier's BM25, not by DirichletLM"),
        ({"backend": "terrier", "wmodel": "BM25", "properties": {"bm25.k_1": "x"}},
         r"properties.bm25.k_1: expected a number"),
        ({"backend": "inquery", "default_belief": 1.0}, r"default_belief: expected a number "
                                                        r"in \[0, 1\)"),
        ({"backend": "lucene"}, r"retrieval.models.M.backend: expected one of "
                                r"\('inquery', 'terrier'\), found 'lucene'"),
    ]
    for spec, message in bad:
        with pytest.raises(ValueError, match=message):
            grid.Model.from_config("M", spec)
    # a property Terrier reads globally, not a weighting model's, passes through
    assert grid.Model.from_config("M", {"backend": "terrier", "wmodel": "BM25", "properties": {
        "ignore.low.idf.terms": "false"}}).parameters["properties"] == {
            "ignore.low.idf.terms": "false"}


def test_each_back_end_prepares_its_own_queries():
    tree = WSum((10.0, 7.0), (Syn((Key(("boundary", "layers")), Key(("the",)))),
                              Key(("flows",))))
    query = {"tree": to_dict(tree), "matchop": "#combine:0=10:1=7(#1(boundary layers) flows)"}
    inquery = grid.Model("InQuery", "inquery", {}).engine()
    terrier = grid.Model("BM25", "terrier", {"wmodel": "BM25"}).engine()
    assert inquery.prepare(query, toy_pipeline) == {"tree": query["tree"]}
    assert terrier.prepare(query, toy_pipeline) == {"query": query["matchop"]}
    stopwords = {"tree": to_dict(Sum((Key(("the",)), Syn((Key(("of", "a")),))))), "matchop": ""}
    assert inquery.prepare(stopwords, toy_pipeline) is None
    assert terrier.prepare(stopwords, toy_pipeline) is None
    assert backends.InQuery.index_files == {"postings": "index_arrays/postings"}
    assert backends.Terrier.index_files == {}


class Echo(backends.Backend):
    """A toy back end: ranks the documents named by the query's keys, in order."""

    name = "echo"
    parameters = ("boost",)

    def retriever(self, index_dir, depth, index=None):
        boost = self.parameters.get("boost", 1.0)

        class Ranker:
            def transform(self, batch):
                return pd.DataFrame([(q, d, boost * (len(docs) - i))
                                     for q, docs in zip(batch["qid"], batch["docs"])
                                     for i, d in enumerate(docs[:depth])],
                                    columns=["qid", "docno", "score"])
        return Ranker()

    def prepare(self, query, pipeline):
        from gradedrel.queries.query_tree import from_dict, keys

        docs = [t for k in keys(from_dict(query["tree"])) for t in k.tokens if pipeline(t)]
        return {"docs": docs} if docs else None


@pytest.fixture
def echo():
    backends.register(Echo)
    yield Echo
    del backends.BACKENDS["echo"]


def test_a_back_end_registered_outside_the_package_runs_in_the_grid(echo):
    model = grid.Model.from_config("E", {"backend": "echo", "boost": 2.0, "wmodel": "BM25"})
    assert model.parameters == {"boost": 2.0}
    topics = pd.DataFrame({"qid": ["1", "2", "3"]})
    queries = pd.DataFrame({"qid": ["1", "2"], "query_type": "SUM/u",
                            "tree": [to_dict(Sum((Key(("d2",)), Key(("d1",))))),
                                     to_dict(Sum((Key(("the",)),)))],
                            "matchop": ["", ""]})
    run, not_ranked = grid.run_query_type(model, model.engine().retriever("unused", 10), topics,
                                          queries, "SUM/u", toy_pipeline)
    assert run.values.tolist() == [["1", "d2", 1, 4.0], ["1", "d1", 2, 2.0]]
    assert not_ranked.values.tolist() == [["2", "SUM/u", grid.NO_KEYS],
                                          ["3", "SUM/u", grid.NO_QUERY]]


def test_a_name_is_registered_once():
    with pytest.raises(ValueError, match="registered twice"):
        backends.register(type("Other", (backends.Backend,), {"name": "terrier"}))
    with pytest.raises(ValueError, match="registered twice"):
        backends.register_weighting_model(backends.WeightingModel("BM25", "another"))
    assert backends.BACKENDS["terrier"] is backends.Terrier


@pytest.mark.parametrize("name", list(backends.WEIGHTING_MODELS))
def test_each_weighting_model_uses_combine_weights_as_registered(name, terrier_started,
                                                                 tmp_path_factory):
    """``#combine:0=10:1=7(flutter slipstream)`` on the tiny index (d05 holds flutter only,
    d08 slipstream only): the heavier term scores as alone (weights are divided by the
    largest), the lighter one as ``query_weights`` says."""
    import pyterrier as pt

    from gradedrel.core import terrier
    from tiny_index import index_dir

    index = terrier.open_index(index_dir("tiny", str(tmp_path_factory.mktemp("idx"))))
    retriever = pt.terrier.Retriever(index, wmodel=name)

    def score(query, docno):
        found = retriever.search(query).set_index("docno")["score"]
        return found[docno]

    alone_a, alone_b = score("flutter", "d05"), score("slipstream", "d08")
    weighted_a = score("#combine:0=10:1=7(flutter slipstream)", "d05")
    weighted_b = score("#combine:0=10:1=7(flutter slipstream)", "d08")
    factor = {"linear": 0.7, "saturated": 9 * 0.7 / (8 + 0.7), "ignored": 1.0}[
        backends.WEIGHTING_MODELS[name].query_weights]  # BM25's k_3 = 8 (Terrier's default)
    assert weighted_a == pytest.approx(alone_a, rel=1e-12)
    assert weighted_b == pytest.approx(factor * alone_b, rel=1e-12)
