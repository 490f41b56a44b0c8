"""Assembling a collection: topics and qrels reconciled, exclusions counted, the recall base."""
import pandas as pd
import pytest

from gradedrel import collection
from gradedrel.core.errors import InputError

from conftest import TINY


def tiny_spec(**overrides):
    raw = {"docs": str(TINY / "docs.jsonl"), "topics": str(TINY / "topics.tsv"),
           "qrels": str(TINY / "qrels.txt"),
           "grade_map": {"1": 3, "2": 3, "3": 2, "4": 1, "-1": 0}}
    raw.update(overrides)
    return collection.CollectionSpec.from_config("tiny", raw)


def test_tiny_fixture_has_every_level_and_a_topic_without_highly_relevant():
    spec = tiny_spec()
    assembled = collection.assemble(collection.load_topics(spec), collection.load_qrels(spec))
    base = collection.recall_base(assembled.qrels, assembled.topics).set_index("qid")
    assert (base.sum() > 0).all()  # all four levels are present
    assert base.loc["3", "n_3"] == 0 and base.loc["1", "n_3"] == 2
    assert assembled.exclusions.empty


def test_judgements_of_unknown_topics_and_documents_are_excluded_and_counted():
    topics = pd.DataFrame({"qid": ["1", "2", "9"], "query": ["a", "b", "c"]})
    qrels = pd.DataFrame({"qid": ["1", "1", "2", "7"], "docno": ["d1", "dX", "d2", "d3"],
                          "label": ["1", "2", "3", "4"], "grade": [3, 3, 2, 1]})
    assembled = collection.assemble(topics, qrels, docnos={"d1", "d2", "d3"})
    assert assembled.qrels["docno"].tolist() == ["d1", "d2"]
    assert assembled.topics["qid"].tolist() == ["1", "2"]
    assert sorted(map(tuple, assembled.exclusions.values.tolist())) == [
        ("judgement", "1 dX", "document not in collection"),
        ("judgement", "7 d3", "topic not in topics"),
        ("topic", "9", "no judgements"),
    ]


def test_testbed_summary_counts_per_level():
    topics = pd.DataFrame({"qid": ["1", "2"], "query": ["a", "b"]})
    qrels = pd.DataFrame({"qid": ["1", "1", "1", "2"], "docno": ["a", "b", "c", "d"],
                          "label": ["x"] * 4, "grade": [3, 3, 1, 2]})
    per_topic = collection.recall_base(qrels, topics)
    summary = collection.testbed_summary(per_topic).set_index("level")
    assert summary.loc[3, "judged_total"] == 2 and summary.loc[3, "mean_per_topic"] == 1.0
    assert summary.loc[3, "topics_with_any"] == 1 and summary.loc[0, "judged_total"] == 0


def test_duplicate_document_ids_are_an_error(tmp_path):
    docs = tmp_path / "docs.jsonl"
    docs.write_text('{"docno": "a", "text": "x"}\n{"docno": "b", "text": "y"}\n'
                    '{"docno": "a", "text": "z"}\n')
    census = collection.DocumentCensus()
    with pytest.raises(InputError, match=r"docs.jsonl:3: expected a unique document id; "
                                         r"first at line 1; found 'a'"):
        list(collection.checked_documents(tiny_spec(docs=str(docs)), census))


def test_empty_documents_are_kept_and_counted(tmp_path):
    docs = tmp_path / "docs.jsonl"
    docs.write_text('{"docno": "a", "text": "x"}\n{"docno": "b", "text": "  "}\n')
    census = collection.DocumentCensus()
    kept = list(collection.checked_documents(tiny_spec(docs=str(docs)), census))
    assert [d["docno"] for d in kept] == ["a", "b"] and census.empty == ["b"]


def test_spec_needs_one_source():
    with pytest.raises(InputError, match="either 'ir_datasets' or local files"):
        tiny_spec(ir_datasets="cranfield")
    with pytest.raises(InputError, match="all of docs, topics, qrels"):
        collection.CollectionSpec.from_config("x", {"docs": "d", "grade_map": {"1": 1}})


def test_ir_datasets_home_must_be_set_before_import(monkeypatch, tmp_path):
    import sys
    monkeypatch.setitem(sys.modules, "ir_datasets", object())
    monkeypatch.setenv("IR_DATASETS_HOME", "/somewhere/else")
    with pytest.raises(RuntimeError, match="before IR_DATASETS_HOME was set"):
        collection.use_ir_datasets_home(str(tmp_path))


def test_trec_topics_fields_joined(tmp_path):
    topics = tmp_path / "topics.trec"
    topics.write_text("<top>\n<num> Number: 7\n<title> Über flow\n<desc> Description:\n"
                      "Strömung in   pipes.\n</top>\n")
    spec = tiny_spec(topics=str(topics), topic_field=["title", "desc"])
    assert collection.load_topics(spec).values.tolist() == [["7", "Über flow Strömung in pipes."]]


def test_testbed_reports_missing_documents_dropped_text_and_licences():
    summary = collection.testbed_summary(
        collection.recall_base(pd.DataFrame(columns=["qid", "grade"]),
                               pd.DataFrame({"qid": ["1"]})))
    exclusions = pd.DataFrame([("judgement", "1 dX", "document not in collection"),
                               ("judgement", "1 dY", "document not in collection"),
                               ("topic", "9", "no judgements")],
                              columns=collection.EXCLUSION_COLUMNS)
    from gradedrel.core.text import dropped
    lines = collection.dropped_text_lines("requests", {"1": dropped("cup ½ ½ ²"), "2": {}})
    assert lines == ["- text dropped by the tokeniser from the requests: 3 item(s) in 1 of 2: "
                     "`not a letter or digit: ½` ×2, `not a letter or digit: ²` ×1"]
    from gradedrel.collection.grades import GradeMap
    text = collection.testbed_markdown("nf", summary, 1, 2, 0, exclusions,
                                       GradeMap.from_config({"1": 1}), lines,
                                       {"collection nf": "academic use; cite Boteva et al."})
    assert "- judgements of documents not among the documents: 2 (excluded" in text
    assert "from the requests: 3 item(s)" in text
    assert "## Licences\n\n- collection nf: academic use; cite Boteva et al." in text
