"""BAND (Kekäläinen & Järvelin's Boolean-like structure: an ``#and`` of one ``#syn`` per
facet), added as one module and one registration line: its trees by hand, its query file
(tree kept, no MatchOp), the Terrier back end refusing it in one line, and InQuery's beliefs
checked against values worked by hand on the six-document index (``#and``: the product of
the facets' beliefs; ``#or``, ``#not``, ``#max`` as InQuery defines them)."""
import json
import math

import numpy as np
import pytest

from gradedrel import plans
from gradedrel.queries import matchop, query_files, query_tree, query_types
from gradedrel.queries.query_tree import And, Key, Max, Not, Or, Sum, Syn, WSum
from tests.conftest import toy_pipeline


def k(*tokens):
    return Key(tuple(tokens))


def plan():
    c, key = plans.PlanConcept, plans.PlanKey
    return plans.Plan("1", "r", [
        plans.Facet("heat", "major", [
            c("heat transfer", "#ht", None, [key("heat transfer")], [key("heat flows", "NT", 1)]),
            c("heat flow", None, None, [key("heat flow")])]),
        plans.Facet("wings", "minor", [c("wings", "#wing", None, [key("the wings")],
                                         [key("wing", "UF")])]),
        plans.Facet("void", "minor", [c("of", None, None, [key("of the")])])])


def test_registered_with_its_two_labels():
    assert {"BAND/u", "BAND/e"} <= set(query_types.labels())
    assert query_types.with_synonym_groups(["BAND/e"]) == ["BAND/e"]
    assert "BAND/u" not in query_types.LABELS  # not one of the paper's six


def test_an_and_of_one_synonym_group_per_facet():
    assert query_types.compile_plan(plan(), "BAND/u", toy_pipeline) == And((
        Syn((k("heat", "transfer"), k("heat", "flow"))), Syn((k("wings"),))))
    assert query_types.compile_plan(plan(), "BAND/e", toy_pipeline) == And((
        Syn((k("heat", "transfer"), k("heat", "flows"), k("heat", "flow"))),
        Syn((k("wings"), k("wing")))))


def test_the_query_file_holds_the_tree_and_no_matchop(tmp_path):
    writer = matchop.MatchOpWriter(toy_pipeline)
    tree = query_types.compile_plan(plan(), "BAND/e", toy_pipeline)
    with pytest.raises(query_tree.NotExpressible, match="InQuery"):
        writer.query(tree)
    path = tmp_path / "BAND-e.jsonl"
    voided = plan()
    voided.facets[2].may_be_empty = True  # its one key is stopwords: it leaves the query
    rows, excluded = query_files.write_query_files([voided], {"BAND/e": str(path)},
                                                   toy_pipeline, writer, None)
    assert [label for _, label, _ in excluded] == ["every"]
    assert rows[0]["groups"] == 2 and rows[0]["keys"] == 5
    record = json.loads(path.read_text())
    assert record["matchop"] is None and record["tree"]["op"] == "and"
    read = query_files.read_query_file(path)
    assert read.loc[0, "matchop"] is None
    assert query_tree.from_dict(read.loc[0, "tree"]) == tree


def test_terrier_refuses_it_in_one_line():
    from gradedrel.retrieval.backends import Terrier

    engine = Terrier({"wmodel": "BM25"})
    tree = query_tree.to_dict(query_types.compile_plan(plan(), "BAND/u", toy_pipeline))
    with pytest.raises(ValueError, match="BAND/u: .*MatchOp cannot write.*InQuery"):
        engine.prepare({"tree": tree, "matchop": None, "query_type": "BAND/u"}, toy_pipeline)


def test_operators_round_trip_and_the_paper_s_files_are_unchanged():
    tree = Or((Not((Key(("a",)),)), Max((Syn((Key(("b",)),)), Key(("c", "d")))),
               And((WSum((2.0, 1.0), (Key(("e",)), Sum((Key(("f",)),)))),))))
    assert query_tree.from_dict(json.loads(json.dumps(query_tree.to_dict(tree)))) == tree
    # the query files' format of the paper's operators, key order included
    assert json.dumps(query_tree.to_dict(WSum((10.0, 7.0), (Key(("a",)), Key(("b",)))))) == (
        '{"op": "wsum", "weights": [10.0, 7.0], "children": [{"op": "key", "tokens": ["a"]}, '
        '{"op": "key", "tokens": ["b"]}]}')
    with pytest.raises(ValueError, match="one child"):
        Not((Key(("a",)), Key(("b",))))


# --- InQuery's beliefs on the six-document index, worked by hand ---------------------------
# (statistics from the fixture's README table, as tests/retrieval/test_inquery_beliefs.py)

N, AVG_DL = 6, 25 / 6
DL = {"a": 4, "b": 3, "c": 5, "d": 6, "e": 2, "f": 5}


def hand_key(tfs: dict, df: int) -> np.ndarray:
    def belief(tf, dl):
        if tf == 0:
            return 0.4
        T = tf / (tf + 0.5 + 1.5 * dl / AVG_DL)
        return 0.4 + 0.6 * T * math.log((N + 0.5) / df) / math.log(N + 1)
    return np.array([belief(tfs.get(d, 0), DL[d]) for d in "abcdef"])


@pytest.fixture(scope="module")
def scorer(tmp_path_factory):
    from gradedrel.collection import postings
    from gradedrel.core import terrier
    from gradedrel.retrieval.inquery import Scorer
    from tiny_index import index_dir

    directory = index_dir("inquery", str(tmp_path_factory.mktemp("idx")))
    return Scorer(postings.cached(directory), terrier.term_pipeline(directory))


@pytest.mark.terrier
def test_and_or_not_max_beliefs_by_hand(scorer):
    wing = hand_key({"a": 2, "b": 1, "c": 1, "d": 2}, df=4)
    jet = hand_key({"e": 1, "f": 1}, df=2)
    syn = hand_key({"a": 2, "b": 2, "c": 2, "d": 4, "f": 1}, df=5)
    both = And((Syn((Key(("wing",)), Key(("panel",)))), Key(("jet",))))
    got, matched = scorer.score(both)
    assert got == pytest.approx(syn * jet, abs=1e-12)
    assert matched.tolist() == [True] * 6  # every document holds a key of one facet
    # ranked by the hand beliefs (ties by docno descending)
    order = sorted(range(6), key=lambda i: (-(syn * jet)[i], -i))
    assert scorer.rank(both, depth=6)[0].tolist() == order
    assert order[0] != int(np.argmax(syn))  # not the document of the strongest one facet
    assert scorer.score(Or((Key(("wing",)), Key(("jet",)))))[0] == pytest.approx(
        1 - (1 - wing) * (1 - jet), abs=1e-12)
    assert scorer.score(Max((Key(("wing",)), Key(("jet",)))))[0] == pytest.approx(
        np.maximum(wing, jet), abs=1e-12)
    assert scorer.score(Not((Key(("wing",)),)))[0] == pytest.approx(1 - wing, abs=1e-12)
    # a linear operator under a non-linear one: #wsum's weighted mean, then the product
    mixed = And((WSum((3.0, 1.0), (Key(("wing",)), Key(("jet",)))), Key(("jet",))))
    assert scorer.score(mixed)[0] == pytest.approx((3 * wing + jet) / 4 * jet, abs=1e-12)
    # a facet left without keys (a stopword) goes; the other decides alone
    assert scorer.score(And((Key(("the",)), Key(("jet",)))))[0] == pytest.approx(jet,
                                                                              abs=1e-12)
