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


SPLIT = {"ir_datasets": {"docs": "beir/nfcorpus", "topics": "nfcorpus/test/video"},
         "grade_map": {"3": 3, "2": 2, "1": 1}, "doc_text_fields": ["title", "text"],
         "topic_field": ["title", "desc"]}


def test_split_ids_give_each_step_only_its_part():
    assert collection.settings(SPLIT, collection.DOCUMENT_KEYS) == {
        "ir_datasets": {"docs": "beir/nfcorpus"}, "doc_text_fields": ["title", "text"]}
    assert collection.settings(SPLIT, collection.JUDGEMENT_KEYS) == {
        "ir_datasets": {"topics": "nfcorpus/test/video", "qrels": "nfcorpus/test/video"},
        "grade_map": {"3": 3, "2": 2, "1": 1}, "topic_field": ["title", "desc"]}
    spec = collection.CollectionSpec.from_config("nf", SPLIT)
    assert [spec.ir_datasets_id(p) for p in collection.PARTS] == [
        "beir/nfcorpus", "nfcorpus/test/video", "nfcorpus/test/video"]
    assert spec.topic_fields == ("title", "desc") and spec.topic_field == "title+desc"


def test_topics_and_qrels_of_several_subsets_are_read_in_order(monkeypatch):
    """Amendment 2's fresh testbed: the requests and judgements of two splits of the same
    documents; a topic in both, or a list of documents, is an error."""
    import sys
    from types import SimpleNamespace

    import pytest

    from gradedrel.collection import judgements
    from gradedrel.core.errors import InputError

    raw = {**SPLIT, "ir_datasets": {"docs": "beir/nfcorpus",
                                    "topics": ["nf/test/video", "nf/dev/video"]}}
    spec = collection.CollectionSpec.from_config("fresh", raw)
    assert spec.ir_datasets_sources("topics") == ("nf/test/video", "nf/dev/video")
    assert spec.ir_datasets_sources("qrels") == ("nf/test/video", "nf/dev/video")
    assert spec.ir_datasets_id("qrels") == "nf/test/video + nf/dev/video"
    assert spec.ir_datasets_sources("docs") == ("beir/nfcorpus",)

    Query = lambda q, t, d: SimpleNamespace(query_id=q, title=t, desc=d, _fields=("query_id",))
    Qrel = lambda q, d, r: SimpleNamespace(query_id=q, doc_id=d, relevance=r)
    data = {"nf/test/video": ([Query("T1", "tea", "green tea")], [Qrel("T1", "D1", 3)]),
            "nf/dev/video": ([Query("V1", "soy", "soy milk")],
                             [Qrel("V1", "D1", 1), Qrel("V1", "D2", 2)])}
    fake = SimpleNamespace(load=lambda i: SimpleNamespace(queries_iter=lambda: iter(data[i][0]),
                                                          qrels_iter=lambda: iter(data[i][1])))
    monkeypatch.setitem(sys.modules, "ir_datasets", fake)
    assert judgements.load_topics(spec).values.tolist() == [["T1", "tea green tea"],
                                                           ["V1", "soy soy milk"]]
    assert judgements.load_qrels(spec)[["qid", "docno", "grade"]].values.tolist() == [
        ["T1", "D1", 3], ["V1", "D1", 1], ["V1", "D2", 2]]
    data["nf/dev/video"][0].append(Query("T1", "again", ""))
    with pytest.raises(InputError, match=r"nf/dev/video queries:2: .*one topic per id.*T1"):
        judgements.load_topics(spec)
    with pytest.raises(InputError, match="'ir_datasets.docs' as one id"):
        collection.CollectionSpec.from_config("bad", {**raw, "ir_datasets": {
            "docs": ["a", "b"], "topics": "t"}})


def test_a_part_from_ir_datasets_and_another_from_a_file():
    raw = {"ir_datasets": {"docs": "beir/nfcorpus"}, "topics": "t.tsv", "qrels": "q.txt",
           "grade_map": {"1": 1}}
    spec = collection.CollectionSpec.from_config("c", raw)
    assert spec.ir_datasets_id("docs") == "beir/nfcorpus" and spec.ir_datasets_id("qrels") is None
    assert spec.topics == "t.tsv" and spec.qrels == "q.txt"
    assert collection.local_files(raw, collection.DOCUMENT_KEYS) == {}


def test_a_part_named_twice_or_not_at_all_is_an_error():
    import pytest

    from gradedrel.core.errors import InputError

    with pytest.raises(InputError, match=r"not both.*'docs'"):
        collection.CollectionSpec.from_config("c", {**SPLIT, "docs": "d.jsonl"})
    with pytest.raises(InputError, match="all of docs, topics, qrels"):
        collection.CollectionSpec.from_config(
            "c", {"ir_datasets": {"docs": "beir/nfcorpus"}, "grade_map": {"1": 1}})
    with pytest.raises(InputError, match="ir_datasets parts among docs, topics, qrels"):
        collection.CollectionSpec.from_config(
            "c", {"ir_datasets": {"documents": "x"}, "grade_map": {"1": 1}})
    with pytest.raises(InputError, match="topic_field"):
        collection.CollectionSpec.from_config("c", {**SPLIT, "topic_field": []})


def test_request_text_joins_fields_in_order():
    from gradedrel.collection.judgements import request_text

    assert request_text(["vitamin b12 ?", "  one  week\n on greens ", None, ""]) == \
        "vitamin b12 ? one week on greens"


def test_the_document_count_comes_from_the_documents_id():
    """The indexing progress total: ir_datasets' count of the documents' id (split ids
    included), None for a local file."""
    from gradedrel.collection.documents import document_count

    split = collection.CollectionSpec.from_config(
        "nf", collection.settings(SPLIT, collection.DOCUMENT_KEYS), needs=("docs",))
    assert document_count(split) == 3633
    whole = collection.CollectionSpec.from_config(
        "c", {"ir_datasets": "cranfield", "grade_map": {"1": 1}})
    assert document_count(whole) == 1400
    local = collection.CollectionSpec.from_config(
        "c", collection.settings(RAW, collection.DOCUMENT_KEYS), needs=("docs",))
    assert document_count(local) is None


def test_the_fetch_depends_on_the_parts_sources_alone():
    """A download re-run by any other setting would hide, behind the manifest's ancient
    edge, the re-runs that setting needs downstream (a grade-map edit on Cranfield re-ran
    only collection_fetch): its params are the parts' sources, and they decide every id."""
    from gradedrel import collection

    assert set(collection.FETCH_KEYS) == {"ir_datasets", "docs", "topics", "qrels"}
    base = {"ir_datasets": {"docs": "beir/nfcorpus", "topics": "nfcorpus/test/video"},
            "grade_map": {"1": 1, "2": 2, "3": 3}}
    other = dict(base, grade_map={"1": 0, "2": 2, "3": 3}, doc_text_fields=["title"],
                 topic_field=["title", "desc"])
    a = collection.CollectionSpec.from_config("n", base)
    b = collection.CollectionSpec.from_config("n", other)
    assert [a.ir_datasets_id(p) for p in collection.PARTS] == \
        [b.ir_datasets_id(p) for p in collection.PARTS]
    assert collection.settings(base, collection.FETCH_KEYS) == \
        collection.settings(other, collection.FETCH_KEYS)
