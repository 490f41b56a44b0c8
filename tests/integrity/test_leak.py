"""The leak diagnostic (Amendment 1, A6): documents containing a key from the posting arrays
against a brute-force count, and lift and selectivity worked out by hand."""
import itertools
import math

import numpy as np
import pandas as pd
import pytest

from gradedrel.collection import postings
from gradedrel.collection.matches import every_term_documents
from gradedrel.core.text import tokenise
from gradedrel.integrity import leak
from gradedrel.report.design import Constants
from posting_cases import from_postings

# term -> documents (positions do not matter for containing a key)
TEXTS = {"d0": "wing flutter wing", "d1": "flutter shell", "d2": "wing load gust",
         "d3": "shell buckling load", "d4": "gust load wing flutter", "d5": "noise",
         "d6": "wing", "d7": "buckling shell wing"}


def arrays_of(texts):
    docnos = list(texts)
    table = {}
    for i, d in enumerate(docnos):
        for p, term in enumerate(texts[d].split()):
            table.setdefault(term, {}).setdefault(i, []).append(p)
    return from_postings({t: list(v.items()) for t, v in table.items()},
                                  [len(texts[d].split()) for d in docnos], docnos)


def brute_force(texts, terms):
    return sorted(i for i, d in enumerate(texts) if set(terms) <= set(texts[d].split()))


def test_every_term_documents_against_brute_force():
    arrays = arrays_of(TEXTS)
    vocabulary = sorted({t for text in TEXTS.values() for t in text.split()}) + ["absent"]
    for size in (1, 2, 3):
        for terms in itertools.combinations(vocabulary, size):
            assert every_term_documents(arrays, terms).tolist() == brute_force(TEXTS, terms)
    assert every_term_documents(arrays, ("wing", "wing")).tolist() == brute_force(TEXTS, ["wing"])
    assert every_term_documents(arrays, ()).tolist() == []


@pytest.mark.terrier
def test_every_term_documents_on_a_terrier_index(tmp_path):
    from gradedrel.core import terrier
    from tiny_index import documents, index_dir

    directory = index_dir("tiny", str(tmp_path))
    pipeline = terrier.term_pipeline(directory)
    arrays = postings.cached(directory)
    docs = {d["docno"]: {t for t in (pipeline(x) for x in tokenise(d["text"])) if t}
            for d in documents("tiny")}
    order = arrays.docnos.tolist()
    vocabulary = sorted(set().union(*docs.values()))
    for terms in list(itertools.combinations(vocabulary, 1)) + \
            list(itertools.combinations(vocabulary[::3], 2)) + [("aeroelast", "model", "similar")]:
        expected = sorted(order.index(d) for d, found in docs.items() if set(terms) <= found)
        assert every_term_documents(arrays, terms).tolist() == expected, terms
    assert len(every_term_documents(arrays, ("aeroelast", "model"))) == 2


def key_rows(rows):
    return pd.DataFrame(rows, columns=["qid", "terms", "source_class", "curator"])


QRELS = pd.DataFrame([("1", "d0", 3), ("1", "d4", 3), ("1", "d2", 2), ("1", "d6", 1),
                      ("2", "d3", 3), ("2", "d1", 2), ("2", "d7", 2),
                      ("3", "d5", 2)], columns=["qid", "docno", "grade"])


def test_pairs_count_each_request_and_key_once_and_say_what_was_left_out():
    keys = key_rows([("1", "wing flutter", "thesaurus", "A"), ("1", "flutter wing", "own", "A"),
                     ("1", "gust", "own", "A"), ("1", "", "request", "A"),
                     ("2", "shell", "thesaurus", "B"), ("2", "buckling load", "own", "B"),
                     ("3", "noise", "own", "B")])
    table, left = leak.pairs(keys, leak.Documents(arrays_of(TEXTS)), QRELS)
    # "flutter wing" is the same term set as "wing flutter": the first row's class is kept
    assert table[["qid", "terms", "df_N", "df_L3", "df_L2", "n_L3", "n_L2"]].values.tolist() == [
        ["1", "wing flutter", 2, 2, 0, 2, 1], ["1", "gust", 2, 1, 1, 2, 1],
        ["2", "shell", 3, 1, 2, 1, 2], ["2", "buckling load", 1, 1, 0, 1, 2]]
    assert left == {"keys_without_terms": 1, "requests_without_level3": ["3"],
                    "pairs_without_level3": 1}


def test_lift_and_selectivity_by_hand_and_the_flag():
    keys = key_rows([("1", "wing flutter", "thesaurus", "A"), ("1", "gust", "own", "A"),
                     ("2", "shell", "thesaurus", "B"), ("2", "buckling load", "own", "B")])
    documents = leak.Documents(arrays_of(TEXTS))
    table, _ = leak.pairs(keys, documents, QRELS)
    rules = Constants(resamples=2000)
    result = leak.diagnostic(table, documents.N, rules).set_index(["group_by", "group"])
    N = 8
    # thesaurus: request 1 a = 2/2, b = 2/8, c = 0/1; request 2 a = 1/1, b = 3/8, c = 2/2
    thesaurus = result.loc[("source_class", "thesaurus")]
    assert thesaurus["lift"] == pytest.approx((1 + 1) / (2 / N + 3 / N))
    assert thesaurus["selectivity"] == pytest.approx((1 + 1) / (0 + 1))
    # own: request 1 a = 1/2, b = 2/8, c = 1/1; request 2 a = 1/1, b = 1/8, c = 0/2
    own = result.loc[("source_class", "own")]
    assert own["lift"] == pytest.approx((0.5 + 1) / (2 / N + 1 / N))
    assert own["selectivity"] == pytest.approx((0.5 + 1) / (1 + 0))
    assert result.loc[("curator", "B"), "lift"] == pytest.approx((1 + 1) / (3 / N + 1 / N))
    assert result.loc[("all", "all"), "pairs"] == 4
    assert result.loc[("source_class", "other_concept"), "requests"] == 0
    # two requests: each resample is one of (1,1), (1,2), (2,2); the intervals span those
    low, high = thesaurus["lift_low"], thesaurus["lift_high"]
    assert low == pytest.approx(1 / (3 / N)) and high == pytest.approx(1 / (2 / N))
    # resampling request 1 twice: thesaurus selectivity 2/0 = inf
    assert thesaurus["selectivity_high"] == math.inf
    assert own["flagged"] == "no" and thesaurus["flagged"] == ""


def test_a_group_is_flagged_when_its_selectivity_lies_above_the_thesaurus_class():
    rows = []
    for q in range(12):
        curator = "A" if q < 6 else "B"
        rows.append({"qid": str(q), "terms": f"t{q}", "source_class": "thesaurus",
                     "curator": curator, "df_N": 40, "df_L3": 1, "df_L2": 2, "n_L3": 4,
                     "n_L2": 4})
        # A's own keys pick out the level-3 documents; B's are like the thesaurus keys
        own = {"df_L3": 3 + q % 2, "df_L2": 1} if curator == "A" else {"df_L3": 1, "df_L2": 2}
        rows.append({"qid": str(q), "terms": f"o{q}", "source_class": "own", "curator": curator,
                     "df_N": 5, **own, "n_L3": 4, "n_L2": 4})
    table = pd.DataFrame(rows, columns=leak.PAIR_COLUMNS)
    result = leak.diagnostic(table, 1000, Constants(resamples=1000)).set_index(["group_by", "group"])
    assert result.loc[("source_class", "thesaurus"), "selectivity"] == pytest.approx(0.5)
    # own: (6 * 3.5/4 + 6 * 1/4) / (6 * 1/4 + 6 * 2/4); curator A: (6/4 + 21/4) / (12/4 + 6/4)
    assert result.loc[("source_class", "own"), "selectivity"] == pytest.approx(6.75 / 4.5)
    assert result.loc[("curator", "A"), "selectivity"] == pytest.approx(6.75 / 4.5)
    assert result.loc[("curator", "B"), "selectivity"] == pytest.approx(0.5)
    assert result.loc[("source_class", "own"), "flagged"] == "yes"
    assert result.loc[("curator", "A"), "flagged"] == "yes"
    assert result.loc[("curator", "B"), "flagged"] == "no"   # not above: equal
    assert result.loc[("source_class", "thesaurus"), "flagged"] == ""


def test_percentiles_are_numpys_and_infinite_where_they_touch_infinity():
    values = np.array([1.0, 2.0, 3.0, 4.0])
    assert leak.linear_percentile(values, 97.5) == pytest.approx(np.percentile(values, 97.5))
    assert leak.linear_percentile(np.array([1.0, 2.0, 3.0, np.inf]), 97.5) == math.inf
    assert leak.linear_percentile(np.array([1.0, 2.0, 3.0, np.inf]), 2.5) == \
        pytest.approx(np.percentile(values[:3].tolist() + [4.0], 2.5))
    assert leak.linear_percentile(np.array([-np.inf, 1.0, 2.0]), 10) == -math.inf
    assert leak._percentiles(np.array([np.nan, 1.0, 2.0, 3.0]), 0.95) == \
        tuple(np.percentile([1.0, 2.0, 3.0], [2.5, 97.5]))


def test_requests_without_level2_documents_are_left_out_of_the_selectivity_only():
    rows = [{"qid": "1", "terms": "a", "source_class": "own", "curator": "A", "df_N": 4,
             "df_L3": 2, "df_L2": 1, "n_L3": 2, "n_L2": 2},
            {"qid": "2", "terms": "b", "source_class": "own", "curator": "A", "df_N": 2,
             "df_L3": 1, "df_L2": 0, "n_L3": 1, "n_L2": 0}]
    table = pd.DataFrame(rows, columns=leak.PAIR_COLUMNS)
    own = leak.pooled(table, 10, Constants(resamples=500))
    assert own["lift"] == pytest.approx((1 + 1) / (4 / 10 + 2 / 10))
    assert own["selectivity"] == pytest.approx(1 / 0.5)       # request 1 alone
    assert (own["requests"], own["selectivity_requests"]) == (2, 1)
    assert own["selectivity_low"] == own["selectivity_high"] == pytest.approx(2)
    assert own["undefined_lift"] == own["undefined_selectivity"] == 0
