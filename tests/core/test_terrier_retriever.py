"""The array-reading retriever gives PyTerrier's own rankings, row for row (pt.terrier.Retriever
is the independent source: it reads the same request's results one document at a time)."""
import random
import warnings

import pandas as pd
import pytest

from tiny_index import TERRIER, index_dir

pytestmark = pytest.mark.terrier  # starts Java and Terrier

WORDS = ("wing flutter buckling shell cylinder panel slipstream boundary layer heat "
         "transfer supersonic nozzle shock wave plate load stress").split()


@pytest.fixture(scope="module")
def indexes(tmp_path_factory):
    """The tiny fixture index, and 400 generated documents over 18 words (many tied scores,
    more matches than the depths asked for)."""
    from gradedrel.core import terrier

    terrier.start(**TERRIER)
    rng = random.Random(7)
    documents = [{"docno": f"g{i:03d}",
                  "text": " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12)))}
                 for i in range(400)]
    generated = tmp_path_factory.mktemp("generated") / "index"
    terrier.build_index(documents, generated, stemmer="porter", stopwords="terrier",
                        blocks=True, max_docno_length=20)
    tiny = index_dir("tiny", str(tmp_path_factory.mktemp("tiny")))
    return {"tiny": terrier.open_index(tiny), "generated": terrier.open_index(generated)}


QUERIES = pd.DataFrame({"qid": [str(i) for i in range(1, 9)], "query": [
    "#combine(wing flutter)",
    "#combine:0=2.5:1=1(#syn(shell cylinder) panel)",
    "#combine(#1(boundary layer) heat)",
    "#combine(#uw8(shock wave) supersonic)",
    "wing flutter",                      # plain text: tokenised by PyTerrier first
    "#combine(zzzunknown)",              # matches nothing
    "#combine(#syn(plate load stress transfer nozzle))",
    "the of and",                        # stopwords only
]})


@pytest.mark.parametrize("index_name", ["tiny", "generated"])
@pytest.mark.parametrize("settings", [
    {"wmodel": "BM25", "num_results": 1000},
    {"wmodel": "BM25", "num_results": 7},
    {"wmodel": "DirichletLM", "num_results": 50, "controls": {"c": "800"}},
    {"wmodel": "PL2", "num_results": 1000, "controls": {"c": "1.2"}},
    {"wmodel": "Tf", "num_results": 401},
])
def test_same_rankings_as_pyterrier(indexes, index_name, settings):
    import pyterrier as pt

    from gradedrel.core import terrier

    index = indexes[index_name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTerrier warns of the stopword-only query
        ours = terrier.retriever(index, **settings).transform(QUERIES)
        theirs = pt.terrier.Retriever(index, **settings).transform(QUERIES)
    assert len(theirs) > 0
    assert list(ours.columns) == list(theirs.columns)
    pd.testing.assert_frame_equal(ours.reset_index(drop=True), theirs.reset_index(drop=True),
                                  check_exact=True)
    if index_name == "generated" and settings["num_results"] < 400:
        # the depth is honoured: some query matched more documents than asked for
        assert ours.groupby("qid").size().max() == settings["num_results"]


def test_token_lists_and_re_ranking_still_work(indexes):
    """Requests the subclass does not shape itself go to PyTerrier's code, unchanged."""
    import pyterrier as pt

    from gradedrel.core import terrier

    index = indexes["generated"]
    toks = pd.DataFrame({"qid": ["1"], "query_toks": [{"wing": 1.0, "flutter": 2.0}]})
    first = pt.terrier.Retriever(index, wmodel="BM25", num_results=20).transform(QUERIES[:2])
    for frame in (toks, first):
        ours = terrier.retriever(index, wmodel="DirichletLM").transform(frame)
        theirs = pt.terrier.Retriever(index, wmodel="DirichletLM").transform(frame)
        pd.testing.assert_frame_equal(ours.reset_index(drop=True), theirs.reset_index(drop=True))
        assert len(ours) > 0

