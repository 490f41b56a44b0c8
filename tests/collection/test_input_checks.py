"""Issue 21 at the readers: ids that cannot stand in a TREC run line are refused at their
line; a byte-order mark at the start of every text input is stripped (and logged); a
document over Terrier's positional limit is refused with its docno, line, the limit and
the config key. (The same through the workflow and the command:
tests/workflow/test_bad_inputs.py.)"""
import codecs
import json
import logging

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gradedrel import collection
from gradedrel.collection import documents, readers
from gradedrel.collection.grades import GradeMap
from gradedrel.core import text
from gradedrel.core.errors import InputError

LEVELS = GradeMap.from_config({"0": 0, "1": 1, "2": 2, "3": 3})
BOM = codecs.BOM_UTF8


def _spec(tmp_path, docs_text, name="docs.jsonl", **raw):
    path = tmp_path / name
    path.write_bytes(docs_text.encode("utf-8") if isinstance(docs_text, str) else docs_text)
    return collection.CollectionSpec.from_config(
        "mine", {"docs": str(path), "grade_map": {"1": 1}, **raw}, needs=("docs",))


def _checked(spec, limit=None):
    return list(collection.checked_documents(spec, collection.DocumentCensus(), limit=limit))


# --- ids ----------------------------------------------------------------------------------

@pytest.mark.parametrize("docno", ["AERO 00184", "AERO\t00184", "AERO\u00a000184",
                                   "AERO\x0000184", "AERO\u200000184"])
def test_a_jsonl_document_id_that_cannot_be_a_run_field_is_refused_at_its_line(tmp_path,
                                                                               docno):
    spec = _spec(tmp_path, json.dumps({"docno": "d1", "text": "a"}) + "\n"
                 + json.dumps({"docno": docno, "text": "wings"}) + "\n")
    with pytest.raises(InputError) as raised:
        _checked(spec)
    assert str(raised.value) == (
        f"{spec.docs}:2: expected a document id without whitespace or control characters "
        f"(an id is one field of a TREC run line); found {docno!r}")


def test_a_trec_sgml_document_id_with_a_space_is_refused_at_its_line(tmp_path):
    spec = _spec(tmp_path, "<DOC>\n<DOCNO> d1 </DOCNO>\nlift\n</DOC>\n"
                 "<DOC>\n<DOCNO> AERO 00184 </DOCNO>\ndrag\n</DOC>\n", name="docs.sgml")
    with pytest.raises(InputError, match=r"docs\.sgml:5: expected a document id without "
                                         r"whitespace.*found 'AERO 00184'"):
        _checked(spec)


def test_topic_ids_with_whitespace_are_refused_in_every_topics_format(tmp_path):
    tsv = tmp_path / "topics.tsv"
    tsv.write_text("qid\tquery\n1\tlift\n2 b\tdrag\n")
    with pytest.raises(InputError, match=r"topics\.tsv:3: expected a topic id without "
                                         r"whitespace.*found '2 b'"):
        readers.read_topics_tsv(tsv)
    trec = tmp_path / "topics.trec"
    trec.write_text("<top>\n<num> Number: 4\u00a001\n<title> lift\n</top>\n")
    with pytest.raises(InputError, match=r"topics\.trec:1: expected a topic id.*'4\\xa001'"):
        readers.read_topics_trec(trec)
    listed = tmp_path / "topics.txt"
    listed.write_text("qid\n1\n2\x0b3\n")
    with pytest.raises(InputError, match=r"topics\.txt:3: expected a topic id"):
        readers.read_topic_list(listed)


def test_qrels_ids_with_whitespace_or_control_characters_are_refused(tmp_path):
    tsv = tmp_path / "qrels.tsv"
    tsv.write_text("qid\tdocno\tgrade\n1\td1\t3\n1\tAERO 00184\t2\n")
    with pytest.raises(InputError, match=r"qrels\.tsv:3: expected a document id .*"
                                         r"'AERO 00184'"):
        readers.read_qrels_tsv(tsv)
    trec = tmp_path / "qrels.txt"
    trec.write_text("1 0 d1 1\n1 0 d\x002 1\n")
    with pytest.raises(InputError, match=r"qrels\.txt:2: expected a document id"):
        readers.read_qrels(trec, LEVELS)


# --- byte-order marks -------------------------------------------------------------------
# Each reader on a file with a UTF-8 byte-order mark reads what it reads without one, and
# says so once (a warning naming the file). Before issue 21 the TREC qrels, TSV topics,
# topic lists and JSONL documents did not (a phantom topic '\ufeff1', a header read as a
# topic, an error at line 1); TSV qrels, TREC topics, SGML documents, runs and plans did.

def _with_and_without_bom(tmp_path, name, content, read, caplog):
    plain, marked = tmp_path / f"plain-{name}", tmp_path / name
    plain.write_text(content, encoding="utf-8")
    marked.write_bytes(BOM + content.encode("utf-8"))
    expected = read(plain)
    with caplog.at_level(logging.WARNING, logger="gradedrel"):
        caplog.clear()
        got = read(marked)
    assert [r.getMessage() for r in caplog.records] == [
        f"{marked}: a UTF-8 byte-order mark at the start of the file, stripped"]
    return expected, got


def _frames_equal(a, b):
    return a.equals(b) if hasattr(a, "equals") else a == b


@pytest.mark.parametrize("name, content, read", [
    ("qrels.txt", "1 0 d1 1\n1 0 d2 3\n", lambda p: readers.read_qrels(p, LEVELS)),
    ("qrels.tsv", "qid\tdocno\tgrade\n1\td1\t3\n", lambda p: readers.read_qrels_tsv(p)),
    ("topics.tsv", "qid\tquery\n1\tlift\n", lambda p: readers.read_topics_tsv(p)),
    ("topics.tsv", "1\tlift\n2\tdrag\n", lambda p: readers.read_topics_tsv(p)),
    ("topics.trec", "<top>\n<num> 1\n<title> lift\n</top>\n",
     lambda p: readers.read_topics_trec(p)),
    ("topics.txt", "qid\n1\n2\n", lambda p: readers.read_topic_list(p)),
    ("docs.jsonl", '{"docno": "d1", "text": "lift"}\n',
     lambda p: list(readers.iter_docs_jsonl(p))),
    ("docs.sgml", "<DOC>\n<DOCNO>d1</DOCNO>\nlift\n</DOC>\n",
     lambda p: list(readers.iter_docs_trec(p))),
])
def test_every_collection_reader_strips_a_byte_order_mark_and_says_so(
        tmp_path, caplog, name, content, read):
    expected, got = _with_and_without_bom(tmp_path, name, content, read, caplog)
    assert _frames_equal(expected, got), (expected, got)
    assert readers.starts_with_bom(tmp_path / name)
    assert not readers.starts_with_bom(tmp_path / f"plain-{name}")


def test_the_first_judgement_stays_with_its_topic(tmp_path):
    path = tmp_path / "qrels.txt"
    path.write_bytes(BOM + b"1 0 d1 3\n2 0 d2 1\n")
    assert readers.read_qrels(path, LEVELS)["qid"].tolist() == ["1", "2"]  # not '\ufeff1'


def test_run_and_plan_readers_strip_a_byte_order_mark(tmp_path, caplog):
    from gradedrel import plans
    from gradedrel.retrieval.runs import read_run

    expected, got = _with_and_without_bom(tmp_path, "r.run", "1 Q0 d1 1 2.0 t\n1 Q0 d2 2 1.0 t\n",
                                          lambda p: read_run(p).to_frame(), caplog)
    assert expected.equals(got) and got["qid"].tolist() == ["1", "1"]
    content = "plans:\n- qid: '1'\n  request: lift\n  facets:\n  - name: lift\n    concepts:\n" \
              "    - label: lift\n      keys: [lift]\n"
    expected, got = _with_and_without_bom(tmp_path, "plans.yaml", content,
                                          lambda p: plans.read_plans(p), caplog)
    assert expected == got and got[0].qid == "1"


# --- long documents -----------------------------------------------------------------------

def test_a_document_over_the_positional_limit_is_refused_with_docno_line_limit_and_key(
        tmp_path):
    words = frozenset({"of", "the"})
    fits = " ".join(f"w{i:02d}" for i in range(21)) + " of the"  # 21 indexed tokens
    over = fits + " wx"                                            # 22
    spec = _spec(tmp_path, "".join(json.dumps({"docno": d, "text": t}) + "\n"
                                   for d, t in (("fits", fits), ("over", over))))
    limit = documents.position_limit({"blocks": True, "blocks_max": 20}, words)
    assert limit.tokens == 21
    with pytest.raises(InputError) as raised:
        _checked(spec, limit)
    assert str(raised.value) == (
        f"{spec.docs}:2: expected a document of at most 21 indexed tokens, not 22 (Terrier "
        "records term positions up to blocks.max = 20: raise config index.blocks_max; "
        "docs/retrieval.md, \"The index\"); found 'over'")
    assert [d["docno"] for d in _checked(spec, documents.position_limit(
        {"blocks": True, "blocks_max": 21}, words))] == ["fits", "over"]
    # without positions there is no limit; the default is Terrier's 100000
    assert documents.position_limit({"blocks": False}, words) is None
    assert documents.position_limit({"blocks": True}, words).tokens == 100001
    # the stopword list is asked for only when a document is long enough to need it
    asked = []
    lazy = documents.PositionLimit(20, lambda: asked.append(1) or words)
    assert lazy.indexed_tokens("w1 w2") is None and not asked
    assert lazy.indexed_tokens(over) == 22 and asked == [1]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab1 éÜσς-\u0301\u4e2d\U0001d400.\n"), max_size=80))
def test_counting_runs_agrees_with_the_tokeniser(sample):
    stopwords = frozenset({"a", "b1"})
    expected = sum(1 for token in text.tokenise(sample) if token not in stopwords)
    assert documents.indexed_token_count(documents.token_runs(sample), stopwords) == expected
