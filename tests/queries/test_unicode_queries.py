"""Unicode text on every side: documents indexed by Terrier's UTF tokeniser, keys tokenised
by gradedrel.core.text, non-ASCII terms written as #base64 in MatchOp queries — and the
queries find the documents that hold those words, under every operator."""
from __future__ import annotations

import pandas as pd
import pytest

from gradedrel.core import terrier
from gradedrel.core.text import tokenise
from gradedrel.queries import matchop
from gradedrel.queries.query_tree import Key, Sum, Syn, WSum

DOCS = [
    {"docno": "de", "text": "Über die Strömung in Rohren: ein Résumé"},
    {"docno": "beta", "text": "β-carotene and ω-3 fatty acids in Alzheimer’s disease"},
    {"docno": "plain", "text": "carotene in carrots; fatty acids; summary of sums"},
]


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    terrier.start("5.11", "0.0.8")
    out = tmp_path_factory.mktemp("unicode") / "index"
    terrier.build_index(DOCS, out, stemmer="porter", stopwords="terrier", blocks=True,
                        max_docno_length=10)
    return out


def key(text):
    return Key(tuple(tokenise(text)))


def test_term_is_plain_or_base64():
    assert matchop.term("wings") == "wings"
    assert matchop.term("über") == "#base64(w7xiZXI=)"
    assert matchop.phrase(("β", "carotene")) == "#1(#base64(zrI=) carotene)"


@pytest.mark.terrier
def test_the_index_keeps_non_ascii_words(index):
    pipeline = terrier.term_pipeline(index)
    lexicon = terrier.open_index(index).getLexicon()
    for word in ("über", "strömung", "résumé", "β", "ω", "alzheimer"):
        assert lexicon.getLexiconEntry(pipeline(word)) is not None, word
    # the English tokeniser's fragments are not there ("ber", "sum" from "résumé")
    assert lexicon.getLexiconEntry("ber") is None
    assert lexicon.getLexiconEntry(pipeline("sum")).getDocumentFrequency() == 1


@pytest.mark.terrier
@pytest.mark.parametrize("tree, expected", [
    (Sum((key("Strömung"),)), {"de"}),
    (Sum((key("RÉSUMÉ"),)), {"de"}),
    (Sum((key("β-carotene"),)), {"beta"}),                       # #1 phrase with a Greek letter
    (Sum((Syn((key("über"), key("ω-3"))),)), {"de", "beta"}),
    (WSum((10.0, 7.0), (key("Alzheimer’s"), key("strömungen über"))), {"beta"}),
])
def test_non_ascii_keys_find_their_documents(index, tree, expected):
    import pyterrier as pt

    query = matchop.MatchOpWriter(terrier.term_pipeline(index)).query(tree)
    result = pt.terrier.Retriever(terrier.open_index(index), wmodel="BM25").transform(
        pd.DataFrame([("1", query)], columns=["qid", "query"]))
    assert set(result["docno"]) == expected, query
