"""InQuery beliefs on a six-document index, checked against values worked by hand.

The term statistics (tf, dl, df, N, avg_dl) below are read off the fixture's
README table, not from the code under test; ``hand_belief`` writes the published
formula out again (Callan, Croft & Broglio 1995).
"""
import math

import numpy as np
import pytest

from gradedrel.collection import postings
from gradedrel.retrieval.inquery import Scorer
from gradedrel.queries.query_tree import Key, Sum, Syn, WSum
from tiny_index import TERRIER, index_dir

pytestmark = pytest.mark.terrier  # starts Java and Terrier

N, AVG_DL = 6, 25 / 6
DL = {"a": 4, "b": 3, "c": 5, "d": 6, "e": 2, "f": 5}
DOCS = "abcdef"


def hand_belief(tf, dl, df):
    if tf == 0:
        return 0.4
    T = tf / (tf + 0.5 + 1.5 * dl / AVG_DL)
    I = math.log((N + 0.5) / df) / math.log(N + 1)
    return 0.4 + 0.6 * T * I


def hand_key(tfs: dict, df: int) -> np.ndarray:
    return np.array([hand_belief(tfs.get(d, 0), DL[d], df) for d in DOCS])


@pytest.fixture(scope="module")
def scorer(tmp_path_factory):
    from gradedrel.core import terrier

    directory = index_dir("inquery", str(tmp_path_factory.mktemp("idx")))
    arrays = postings.cached(directory)
    return Scorer(arrays, terrier.term_pipeline(directory))


def beliefs(scorer, tree):
    values, _ = scorer.score(tree)
    return values


def test_collection_statistics(scorer):
    assert scorer.arrays.N == N
    assert scorer.arrays.avg_dl == pytest.approx(AVG_DL)
    assert list(scorer.arrays.docnos) == list(DOCS)


def test_single_key(scorer):
    expected = hand_key({"a": 2, "b": 1, "c": 1, "d": 2}, df=4)
    assert beliefs(scorer, Key(("wings",))) == pytest.approx(expected, abs=1e-12)
    assert expected[0] == pytest.approx(0.4 + 0.6 * (2 / 3.94) * (math.log(6.5 / 4) / math.log(7)))


def test_syn_merges_postings_and_counts_union_df(scorer):
    # wing and panel co-occur in b, c and d: their tfs add up there, and each counts once in df
    tfs = {"a": 2, "b": 2, "c": 2, "d": 4, "f": 1}
    expected = hand_key(tfs, df=5)
    got = beliefs(scorer, Syn((Key(("wing",)), Key(("panels",)))))
    assert got == pytest.approx(expected, abs=1e-12)
    # wing and wings are one key after stemming: an occurrence counts once
    assert beliefs(scorer, Syn((Key(("wing",)), Key(("wings",)), Key(("panels",))))) == pytest.approx(
        expected, abs=1e-12)
    summed_df = hand_key(tfs, df=8)  # what a sum of member dfs (4 + 4) would give
    assert not np.allclose(got[:4], summed_df[:4])


def test_phrase_is_ordered_adjacent_and_skips_stopwords(scorer):
    # a "wing flutter", c "wing of the flutter" (stopwords not indexed), d twice; b is "flutter wing"
    expected = hand_key({"a": 1, "c": 1, "d": 2}, df=3)
    assert beliefs(scorer, Key(("wing", "flutter"))) == pytest.approx(expected, abs=1e-12)


def test_phrase_documents_agree_with_terrier(scorer, tmp_path_factory):
    import pyterrier as pt

    from gradedrel.core import terrier

    terrier.start(**TERRIER)
    directory = index_dir("inquery", str(tmp_path_factory.mktemp("idx")))
    found = pt.terrier.Retriever(terrier.open_index(directory), wmodel="Tf").search("#1(wing flutter)")
    _, matched = scorer.score(Key(("wing", "flutter")))
    assert set(found["docno"]) == set(np.array(list(DOCS))[matched]) == {"a", "c", "d"}


def test_sum_and_wsum(scorer):
    wing = hand_key({"a": 2, "b": 1, "c": 1, "d": 2}, df=4)
    jet = hand_key({"e": 1, "f": 1}, df=2)
    syn = hand_key({"a": 2, "b": 2, "c": 2, "d": 4, "f": 1}, df=5)
    assert beliefs(scorer, Sum((Key(("wing",)), Key(("jet",))))) == pytest.approx(
        (wing + jet) / 2, abs=1e-12)
    tree = WSum((10.0, 7.0), (Syn((Key(("wing",)), Key(("panel",)))), Key(("jet",))))
    assert beliefs(scorer, tree) == pytest.approx((10 * syn + 7 * jet) / 17, abs=1e-12)


def test_stopword_key_is_removed_and_unknown_key_keeps_default_belief(scorer):
    wing = hand_key({"a": 2, "b": 1, "c": 1, "d": 2}, df=4)
    assert beliefs(scorer, Sum((Key(("wing",)), Key(("the",))))) == pytest.approx(wing, abs=1e-12)
    assert beliefs(scorer, Sum((Key(("wing",)), Key(("zeppelin",))))) == pytest.approx(
        (wing + 0.4) / 2, abs=1e-12)


def test_ranking_returns_matching_documents_best_first(scorer):
    docids, scores = scorer.rank(Syn((Key(("wing",)), Key(("panel",)))), depth=10)
    expected = hand_key({"a": 2, "b": 2, "c": 2, "d": 4, "f": 1}, df=5)
    order = sorted(range(5 + 1), key=lambda i: -expected[i])
    assert [DOCS[i] for i in docids] == [DOCS[i] for i in order if DOCS[i] != "e"]
    assert scores == pytest.approx(np.sort(expected[expected > 0.4])[::-1], rel=1e-9)
    assert scorer.rank(Key(("zeppelin",)), depth=10)[0].size == 0
    assert scorer.rank(Key(("the",)), depth=10)[0].size == 0
