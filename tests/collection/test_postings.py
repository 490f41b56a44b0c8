"""Posting arrays read from Terrier against the documents tokenised independently in Python."""
import numpy as np
import pytest

from gradedrel.collection import postings
from gradedrel.core.text import tokenise
from posting_cases import from_postings, save
from tiny_index import TERRIER, documents, index_dir

pytestmark = pytest.mark.terrier  # starts Java and Terrier


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    from gradedrel.core import terrier

    directory = index_dir("tiny", str(tmp_path_factory.mktemp("idx")))
    return directory, terrier.term_pipeline(directory)


def expected_postings(pipeline):
    """term -> {docno: [positions]}, positions counted over indexed (non-stopword) terms."""
    table = {}
    for doc in documents("tiny"):
        terms = [t for t in (pipeline(tok) for tok in tokenise(doc["text"])) if t]
        for position, term in enumerate(terms):
            table.setdefault(term, {}).setdefault(doc["docno"], []).append(position)
    return table


def test_arrays_hold_every_posting_with_positions(tiny):
    directory, pipeline = tiny
    arrays = postings.cached(directory)
    expected = expected_postings(pipeline)
    assert sorted(expected) == arrays.terms.tolist()
    for term, by_doc in expected.items():
        docids, positions = arrays.occurrences_in(term, arrays.postings(term)[0])
        got = {}
        for docid, position in zip(docids, positions):
            got.setdefault(str(arrays.docnos[docid]), []).append(int(position))
        assert got == by_doc, term
        assert arrays.postings(term)[1].tolist() == [len(by_doc[d]) for d in
                                                     sorted(by_doc, key=arrays.docnos.tolist().index)]
    lengths = {doc["docno"]: sum(1 for t in tokenise(doc["text"]) if pipeline(t))
               for doc in documents("tiny")}
    assert dict(zip(arrays.docnos.tolist(), arrays.doc_lengths.tolist())) == lengths


def test_cache_is_reused_and_refreshed_when_the_index_changes(tiny, tmp_path):
    directory, _ = tiny
    first = postings.cached(directory, tmp_path)
    cache = tmp_path / postings.CACHE_NAME
    _, signature = postings.load(cache)
    assert signature == postings.index_signature(directory)
    save(first, cache, "stale")
    again = postings.cached(directory, tmp_path)
    assert postings.load(cache)[1] == signature
    for name in postings.PostingArrays.__dataclass_fields__:
        np.testing.assert_array_equal(getattr(first, name), getattr(again, name))


def test_reordering_terms_moves_their_postings():
    arrays = from_postings({"x": [(0, [0, 2]), (1, [1])], "y": [(1, [0])]}, [3, 2],
                                    ["d0", "d1"])
    moved = postings._reorder(arrays, np.array([1, 0]))
    terms, offsets, docids, tfs, position_offsets, positions = (
        moved[name] for name in ("terms", "term_offsets", "docids", "tfs", "position_offsets",
                                 "positions"))
    assert terms.tolist() == ["y", "x"]
    assert offsets.tolist() == [0, 1, 3]
    assert docids.tolist() == [1, 0, 1]
    assert positions.tolist() == [0, 0, 2, 1]
    assert position_offsets.tolist() == [0, 1, 3, 4]


def test_arrays_are_memory_mapped_and_read_only(tiny, tmp_path):
    directory, _ = tiny
    postings.cached(directory, tmp_path)
    arrays, _ = postings.load(tmp_path / postings.CACHE_NAME)
    for name in postings.PostingArrays.__dataclass_fields__:
        assert isinstance(getattr(arrays, name), np.memmap), name
    with pytest.raises(ValueError):
        arrays.docids[0] = 1


def test_bulk_reader_matches_terrier_posting_by_posting(tiny, tmp_path):
    """The arrays written in Java (PostingArraysWriter) against Terrier's postings read one by one
    through pyjnius (the reader of before)."""
    import pyterrier as pt

    from gradedrel.core import terrier

    directory, _ = tiny
    index = terrier.open_index(directory)
    summary = postings.build(directory, tmp_path / "p", "sig")
    arrays, signature = postings.load(tmp_path / "p")
    assert signature == "sig" and summary["postings"] == len(arrays.docids)
    lexicon = index.getLexicon()
    inverted = index.getInvertedIndex()
    for i, term in enumerate(arrays.terms.tolist()):
        posting = inverted.getPostings(lexicon.getLexiconEntry(term))
        block = pt.java.cast("org.terrier.structures.postings.BlockPosting", posting)
        lo = arrays.term_offsets[i]
        while posting.next() != posting.EOL:
            assert arrays.docids[lo] == posting.getId()
            assert arrays.tfs[lo] == posting.getFrequency()
            got = arrays.positions[arrays.position_offsets[lo]:arrays.position_offsets[lo + 1]]
            assert got.tolist() == list(block.getPositions())
            lo += 1
        assert lo == arrays.term_offsets[i + 1], term
    documents = index.getDocumentIndex()
    assert arrays.doc_lengths.tolist() == [documents.getDocumentLength(d) for d in range(arrays.N)]
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]


def test_a_failing_writer_is_an_error_and_leaves_nothing(tmp_path):
    from gradedrel.core import terrier

    terrier.start(**TERRIER)
    (tmp_path / "index").mkdir()
    with pytest.raises(RuntimeError, match="PostingArraysWriter.java failed on"):
        postings.build(tmp_path / "index", tmp_path / "p", "sig")
    assert list(tmp_path.iterdir()) == [tmp_path / "index"]   # no arrays, no staging
