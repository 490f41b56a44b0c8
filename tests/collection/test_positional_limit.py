"""Terrier's positional limit (blocks.max) as Terrier applies it, against the check that
refuses a document over it (gradedrel.collection.documents.PositionLimit), and the
stopword list and token count that check uses, against Terrier's own document lengths."""
import json

import numpy as np
import pytest

from gradedrel import collection
from gradedrel.collection import documents, postings
from gradedrel.core import terrier
from gradedrel.core.errors import InputError

pytestmark = pytest.mark.terrier  # starts Java and Terrier

WORDS = [f"zq{chr(97 + i)}{chr(97 + j)}" for i in range(3) for j in range(26)]  # no stopwords


def _index(tmp_path, name, docs, blocks_max=None):
    out = tmp_path / name
    terrier.build_index(docs, out, stemmer="porter", stopwords="terrier", blocks=True,
                        max_docno_length=20, blocks_max=blocks_max)
    return out


def _positions(index_dir, tmp_path, term):
    arrays = postings.cached(index_dir, tmp_path / f"arrays-{index_dir.name}")
    docids, positions = arrays.occurrences_in(term, arrays.postings(term)[0])
    return [int(p) for p in positions]


def test_terrier_gives_blocks_max_plus_one_tokens_their_own_positions(tmp_path,
                                                                      terrier_started):
    fits = " ".join(WORDS[:20] + ["zqzz"])            # 21 indexed tokens
    over = " ".join(WORDS[:20] + ["zqzz", "zqzz"])    # 22: the last two share position 20
    index = _index(tmp_path, "fits", [{"docno": "fits", "text": fits}], blocks_max=20)
    assert _positions(index, tmp_path, "zqzz") == [20]
    assert terrier.read_properties(index)["index.inverted.blocks.max"] == "20"
    index = _index(tmp_path, "over", [{"docno": "over", "text": over}], blocks_max=20)
    with pytest.raises(RuntimeError, match=r"tf 2 but 1 positions"):  # the failure
        postings.cached(index, tmp_path / "arrays-over")
    # raised (here back to Terrier's default), the same document keeps every position
    index = _index(tmp_path, "raised", [{"docno": "over", "text": over}])
    assert _positions(index, tmp_path, "zqzz") == [20, 21]
    assert terrier.read_properties(index)["index.inverted.blocks.max"] == "100000"
    # and the check refuses exactly the document Terrier cannot position
    path = tmp_path / "docs.jsonl"
    path.write_text("".join(json.dumps({"docno": d, "text": t}) + "\n"
                            for d, t in (("fits", fits), ("over", over))))
    spec = collection.CollectionSpec.from_config(
        "mine", {"docs": str(path), "grade_map": {"1": 1}}, needs=("docs",))
    limit = documents.position_limit({"blocks": True, "blocks_max": 20},
                                     terrier.stopword_list("5.11"))
    with pytest.raises(InputError, match=r"docs\.jsonl:2: expected a document of at most 21 "
                                         r"indexed tokens, not 22 .*found 'over'"):
        list(collection.checked_documents(spec, collection.DocumentCensus(), limit=limit))


def test_the_jar_stopword_list_is_what_terriers_stopword_stage_removes(terrier_started):
    import pyterrier as pt

    words = terrier.stopword_list("5.11")
    assert len(words) > 500 and {"the", "of", "and"} <= words
    stage = pt.java.autoclass("org.terrier.terms.BaseTermPipelineAccessor")("Stopwords")
    assert all(stage.pipelineTerm(w) is None for w in sorted(words))
    assert all(stage.pipelineTerm(w) == w for w in ("wing", "flutter", "zqab"))
    assert terrier.stopword_list("0.0-no-such-version") is None  # no jar: not known


def test_counted_tokens_are_terriers_document_lengths_on_cranfield(cranfield_index):
    spec = collection.CollectionSpec.from_config(
        "cranfield", {"ir_datasets": "cranfield", "grade_map": {"1": 3}}, needs=("docs",))
    texts = {record["docno"]: record["text"] for _, _, record in
             collection.iter_documents(spec)}
    arrays = postings.cached(cranfield_index)
    stopwords = terrier.stopword_list("5.11")
    counted = np.array([documents.indexed_token_count(documents.token_runs(texts[d]),
                                                      stopwords)
                        for d in arrays.docnos.tolist()])
    assert len(counted) == 1400
    np.testing.assert_array_equal(counted, np.asarray(arrays.doc_lengths))
