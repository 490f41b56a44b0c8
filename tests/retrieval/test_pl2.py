"""PL2, a Terrier weighting model added through the registry and config only: its parameter
checked at start-up, and Terrier's scores equal to the formula worked from the index's
statistics (Amati & van Rijsbergen 2002, PL2 with normalisation 2)."""
import math
from pathlib import Path

import pytest

from gradedrel.retrieval import backends, grid

ROOT = Path(__file__).resolve().parents[2]


def test_pl2_is_registered_configured_and_checked():
    model = grid.Model.from_config("PL2", {"backend": "terrier", "wmodel": "PL2",
                                           "controls": {"c": 1.0}})
    assert (model.backend, model.parameters) == ("terrier", {"wmodel": "PL2",
                                                             "controls": {"c": 1.0}})
    assert backends.WEIGHTING_MODELS["PL2"].query_weights == "linear"
    spec = {"backend": "terrier", "wmodel": "PL2"}
    for bad, message in (({"controls": {"c": 0}}, r"PL2's c .*expected a number > 0"),
                         ({"properties": {"dfr.cc": 2}}, r"did you mean 'dfr.c'"),
                         ({"properties": {"bm25.k_1": 2}}, r"read by Terrier's BM25")):
        with pytest.raises(ValueError, match=message):
            grid.Model.from_config("PL2", {**spec, **bad})
    assert grid.Model.from_config("PL2", {**spec, "properties": {"dfr.c": 2}}).parameters[
        "properties"] == {"dfr.c": 2}


def pl2(tf, dl, avg_dl, F, N, c, key_frequency=1.0):
    """PL2 (Amati & van Rijsbergen 2002, TOIS 20(4), eq. for P, L and normalisation 2):
    tfn = tf log2(1 + c avg_dl / dl), lambda = F / N,
    score = kf / (tfn + 1) * (tfn log2(tfn / lambda) + (lambda - tfn) log2(e)
                              + 0.5 log2(2 pi tfn))."""
    tfn = tf * math.log2(1 + c * avg_dl / dl)
    lam = F / N
    return key_frequency / (tfn + 1) * (tfn * math.log2(tfn / lam)
                                        + (lam - tfn) * math.log2(math.e)
                                        + 0.5 * math.log2(2 * math.pi * tfn))


@pytest.mark.parametrize("c", [1.0, 2.5])
def test_terrier_pl2_scores_as_the_formula(tmp_path_factory, terrier_started, c):
    from gradedrel.collection import postings
    from gradedrel.core import terrier
    from tiny_index import index_dir

    directory = index_dir("tiny", str(tmp_path_factory.mktemp("idx")))
    arrays = postings.cached(directory)
    pipeline = terrier.term_pipeline(directory)
    model = grid.Model.from_config("PL2", {"backend": "terrier", "wmodel": "PL2",
                                           "controls": {"c": c}})
    retriever = model.engine().retriever(directory, 100)
    for words in (["shells"], ["buckling", "cylindrical", "shells"], ["wing", "slipstream"]):
        found = retriever.search(" ".join(words)).set_index("docno")["score"]
        expected = {}
        for word in words:
            docids, tfs = arrays.postings(pipeline(word))
            F = float(tfs.sum())
            for docid, tf in zip(docids, tfs):
                docno = str(arrays.docnos[docid])
                expected[docno] = expected.get(docno, 0.0) + pl2(
                    float(tf), float(arrays.doc_lengths[docid]), arrays.avg_dl, F, arrays.N, c)
        assert sorted(found.index) == sorted(expected)
        for docno, score in expected.items():
            assert found[docno] == pytest.approx(score, rel=1e-9), (words, docno)
