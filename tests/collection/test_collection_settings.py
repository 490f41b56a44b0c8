"""Steps get only the collection settings they read, and its local files as inputs."""
from gradedrel import collection

RAW = {"docs": "d.jsonl", "topics": "t.tsv", "qrels": "q.txt", "grade_map": {"1": 1},
       "doc_text_fields": ["text"], "thesaurus": "nasa", "plan_sets": {"auto": {}}}


def test_the_index_reads_document_settings_only():
    assert collection.settings(RAW, collection.DOCUMENT_KEYS) == {
        "docs": "d.jsonl", "doc_text_fields": ["text"]}
    assert collection.local_files(RAW, collection.DOCUMENT_KEYS) == {"docs": "d.jsonl"}


def test_topics_and_qrels_read_judgement_settings_only():
    assert collection.settings(RAW, collection.JUDGEMENT_KEYS) == {
        "topics": "t.tsv", "qrels": "q.txt", "grade_map": {"1": 1}}
    assert collection.local_files(RAW, collection.JUDGEMENT_KEYS) == {
        "topics": "t.tsv", "qrels": "q.txt"}


def test_a_spec_from_document_settings_needs_no_grade_map():
    spec = collection.CollectionSpec.from_config(
        "c", collection.settings(RAW, collection.DOCUMENT_KEYS), needs=("docs",))
    assert spec.docs == "d.jsonl" and spec.grade_map is None


def test_an_ir_datasets_collection_has_no_local_files():
    assert collection.local_files({"ir_datasets": "cranfield"}, collection.JUDGEMENT_KEYS) == {}
