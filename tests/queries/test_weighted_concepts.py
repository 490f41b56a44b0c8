"""WSYN-C (SSYN-C with per-facet weights), added through the structure registry: its tree
by hand, its MatchOp, and both back ends scoring it as the operators say (InQuery's
``#wsum``: the weighted mean of the concept groups' beliefs; with equal weights, SSYN-C)."""
import numpy as np
import pytest

from gradedrel import plans
from gradedrel.queries import matchop, query_types
from gradedrel.queries.query_tree import Key, Sum, Syn, WSum
from tests.conftest import toy_pipeline


def k(*tokens):
    return Key(tuple(tokens))


def plan():
    c, key = plans.PlanConcept, plans.PlanKey
    return plans.Plan("1", "r", [
        plans.Facet("heat", "major", [
            c("heat transfer", "#ht", None, [key("heat transfer")],
              [key("convective heat-transfer", "NT", 1), key("heat flows", "UF")]),
            c("heat flow", None, None, [key("heat flow")]),
            c("of it", None, None, [key("of the")])]),          # no key left: dropped
        plans.Facet("wings", "minor", [c("wings", "#wing", None, [key("the wings")],
                                         [key("wing", "UF")])])])


def test_registered_with_its_two_labels():
    assert {"WSYN-C/u", "WSYN-C/e"} <= set(query_types.labels())
    assert query_types.check_labels(["WSYN-C/u", "WSYN-C/e"]) == ["WSYN-C/u", "WSYN-C/e"]
    assert query_types.label("WSYN-C-e") == "WSYN-C/e"
    assert query_types.with_synonym_groups(["SUM/u", "WSYN-C/u"]) == ["WSYN-C/u"]
    assert "WSYN-C/u" not in query_types.LABELS  # not one of the paper's six


def test_one_group_per_concept_weighted_by_its_facet():
    assert query_types.compile_plan(plan(), "WSYN-C/u", toy_pipeline) == WSum(
        (10.0, 10.0, 7.0), (Syn((k("heat", "transfer"),)), Syn((k("heat", "flow"),)),
                            Syn((k("wings"),))))
    expanded = query_types.compile_plan(plan(), "WSYN-C/e", toy_pipeline, {"major": 3,
                                                                           "minor": 1})
    assert expanded == WSum((3.0, 3.0, 1.0), (
        Syn((k("heat", "transfer"), k("convective", "heat", "transfer"), k("heat", "flows"))),
        Syn((k("heat", "flow"),)), Syn((k("wings"), k("wing")))))
    # the same groups as SSYN-C, in the same order
    ssyn = query_types.compile_plan(plan(), "SSYN-C/e", toy_pipeline)
    assert isinstance(ssyn, Sum) and ssyn.children == expanded.children
    assert matchop.MatchOpWriter(toy_pipeline).query(expanded) == (
        "#combine:0=3:1=3:2=1(#syn(#1(heat transfer) #uw3(convective heat transfer) "
        "#1(heat flows)) #1(heat flow) wings)")
    empty = plans.Plan("2", "r", [plans.Facet("x", "major", [
        plans.PlanConcept("of", None, None, [plans.PlanKey("of the")])])])
    assert query_types.compile_plan(empty, "WSYN-C/e", toy_pipeline) is None


# --- both back ends on the tiny index ------------------------------------------------------

def tiny_plan():
    c, key = plans.PlanConcept, plans.PlanKey
    return plans.Plan("1", "r", [
        plans.Facet("aeroelastic", "major", [
            c("aeroelastic", None, None, [key("aeroelastic")], [key("flutter", "NT", 1)]),
            c("similarity laws", None, None, [key("similarity laws")])]),
        plans.Facet("speed", "minor", [
            c("high speed", None, None, [key("high speed")], [key("supersonic", "RT", 1)])])])


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    from gradedrel.collection import postings
    from gradedrel.core import terrier
    from tiny_index import index_dir

    directory = index_dir("tiny", str(tmp_path_factory.mktemp("idx")))
    return directory, terrier.term_pipeline(directory), postings.cached(directory)


@pytest.mark.parametrize("expanded", [False, True])
def test_inquery_scores_the_weighted_mean_of_the_concept_groups(tiny, terrier_started,
                                                                expanded):
    from gradedrel.retrieval import inquery

    directory, pipeline, arrays = tiny
    label = f"WSYN-C/{'e' if expanded else 'u'}"
    scorer = inquery.Scorer(arrays, pipeline)
    tree = query_types.compile_plan(tiny_plan(), label, pipeline)
    assert tree.weights == (10.0, 10.0, 7.0)
    beliefs, _ = scorer.score(tree)
    # each group's belief on its own (#sum of one child is that child), weighted by hand
    groups = [scorer.score(Sum((group,)))[0] for group in tree.children]
    by_hand = (10 * groups[0] + 10 * groups[1] + 7 * groups[2]) / 27
    np.testing.assert_allclose(beliefs, by_hand, rtol=1e-14, atol=0)
    assert np.ptp(beliefs) > 0.05  # the query does separate documents
    # with equal weights the weighted mean is SSYN-C's mean: the same beliefs
    equal = query_types.compile_plan(tiny_plan(), label, pipeline, {"major": 1, "minor": 1})
    ssyn = query_types.compile_plan(tiny_plan(), f"SSYN-C/{label[-1]}", pipeline)
    np.testing.assert_allclose(scorer.score(equal)[0], scorer.score(ssyn)[0], rtol=1e-14)


@pytest.mark.parametrize("wmodel", ["BM25", "DPH"])
def test_terrier_runs_its_weighted_combine(tiny, terrier_started, wmodel):
    """With equal weights Terrier scores WSYN-C as SSYN-C; with 10/7 the minor facet's group
    is weighted as the model uses weights (the registry's query_weights)."""
    import pyterrier as pt

    from gradedrel.core import terrier
    from gradedrel.retrieval import backends

    directory, pipeline, _ = tiny
    writer = matchop.MatchOpWriter(pipeline)
    retriever = pt.terrier.Retriever(terrier.open_index(directory), wmodel=wmodel)

    def scores(tree):
        found = retriever.search(writer.query(tree))
        return dict(zip(found["docno"], found["score"]))

    equal = scores(query_types.compile_plan(tiny_plan(), "WSYN-C/e", pipeline,
                                            {"major": 1, "minor": 1}))
    ssyn = scores(query_types.compile_plan(tiny_plan(), "SSYN-C/e", pipeline))
    assert equal.keys() == ssyn.keys() and len(equal) >= 4
    assert all(equal[d] == pytest.approx(ssyn[d], rel=1e-12) for d in equal)
    tree = query_types.compile_plan(tiny_plan(), "WSYN-C/e", pipeline)
    weighted = scores(tree)
    parts = [scores(WSum((1.0,), (group,))) for group in tree.children]
    factor = {"linear": 0.7, "saturated": 9 * 0.7 / 8.7}[
        backends.WEIGHTING_MODELS[wmodel].query_weights]
    for docno, score in weighted.items():
        by_hand = sum(f * part.get(docno, 0.0) for f, part in zip((1, 1, factor), parts))
        assert score == pytest.approx(by_hand, rel=1e-9), docno
