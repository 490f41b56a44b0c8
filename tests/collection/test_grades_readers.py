"""Grade maps and the collection readers: the paper's levels from raw labels, bad input located."""
import json

import pytest

from gradedrel.core.errors import InputError
from gradedrel.collection.grades import GradeMap
from gradedrel.collection import readers

CRANFIELD = GradeMap.from_config({"1": 3, "2": 3, "3": 2, "4": 1, "-1": 0})


def test_cranfield_grade_map_puts_cleverdon_code_1_at_the_top():
    # Cleverdon's code 1 is the complete answer: the paper's level 3, not level 1.
    assert [CRANFIELD.level(c) for c in (1, 2, 3, 4, -1)] == [3, 3, 2, 1, 0]
    assert CRANFIELD.level("01") == 3  # labels compare as numbers where they are numbers


def test_grade_map_rejects_levels_outside_the_scale():
    with pytest.raises(InputError, match="grade map level"):
        GradeMap.from_config({"1": 4})


def test_label_outside_the_grade_map_names_file_line_and_label(tmp_path):
    path = tmp_path / "qrels.txt"
    path.write_text("1 0 d1 1\n1 0 d2 5\n")
    with pytest.raises(InputError) as error:
        readers.read_qrels(path, CRANFIELD)
    message = str(error.value)
    assert f"{path}:2:" in message and "'5'" in message and "grade map" in message


@pytest.mark.parametrize("line", ["1 0 d1", "1 0 d1 2 extra", "garbage"])
def test_malformed_qrels_line_is_located(tmp_path, line):
    path = tmp_path / "qrels.txt"
    path.write_text(f"1 0 d0 1\n\n{line}\n")
    with pytest.raises(InputError, match=rf"{path}:3: expected a TREC qrels line"):
        readers.read_qrels(path, CRANFIELD)


def test_a_pair_judged_twice_is_an_error(tmp_path):
    path = tmp_path / "qrels.txt"
    path.write_text("1 0 d1 1\n1 0 d1 2\n")
    with pytest.raises(InputError, match=r":2: expected one judgement per \(topic, document\); "
                                         r"first at line 1"):
        readers.read_qrels(path, CRANFIELD)


def test_qrels_become_levels(tmp_path):
    path = tmp_path / "qrels.txt"
    path.write_text("1 0 d1 1\n1 0 d2 3\n2 0 d3 -1\n")
    frame = readers.read_qrels(path, CRANFIELD)
    assert frame.values.tolist() == [["1", "d1", "1", 3], ["1", "d2", "3", 2],
                                     ["2", "d3", "-1", 0]]


def test_topics_tsv_with_header_and_duplicates(tmp_path):
    path = tmp_path / "topics.tsv"
    path.write_text("qid\tquery\n1\tlift of wings\n2\tshells\n")
    assert readers.read_topics_tsv(path).values.tolist() == [["1", "lift of wings"],
                                                             ["2", "shells"]]
    path.write_text("1\tlift\n1\tagain\n")
    with pytest.raises(InputError, match=r":2: expected a unique topic id; first at line 1"):
        readers.read_topics_tsv(path)
    path.write_text("1\tlift\tthird field\n")
    with pytest.raises(InputError, match=r":1: expected a topic line"):
        readers.read_topics_tsv(path)


def test_trec_topics_with_open_and_closed_tags(tmp_path):
    path = tmp_path / "topics.trec"
    path.write_text("<top>\n<num> Number: 401\n<title> foreign minorities\n"
                    "<desc> Description:\nWhat is known?\n<narr> Narrative:\nAll.\n</top>\n"
                    "<top><num>402</num><title>behavioral genetics</title></top>\n")
    assert readers.read_topics_trec(path).values.tolist() == [["401", "foreign minorities"],
                                                              ["402", "behavioral genetics"]]
    assert readers.read_topics_trec(path, "desc").iloc[0]["query"] == "What is known?"


def test_jsonl_documents_and_their_errors(tmp_path):
    path = tmp_path / "docs.jsonl"
    path.write_text(json.dumps({"docno": "a", "title": "T", "text": "body"}) + "\n")
    assert list(readers.iter_docs_jsonl(path, "docno", ("title", "text"))) == \
        [(1, {"docno": "a", "text": "T\nbody"})]
    path.write_text('{"docno": "a", "text": "x"}\n{not json}\n')
    with pytest.raises(InputError, match=r"docs.jsonl:2: expected a JSON object per line"):
        list(readers.iter_docs_jsonl(path))
    path.write_text('{"id": "a", "text": "x"}\n')
    with pytest.raises(InputError, match=r":1: expected a JSON object with the id field 'docno'"):
        list(readers.iter_docs_jsonl(path))


def test_trec_sgml_documents(tmp_path):
    path = tmp_path / "docs.trec"
    path.write_text("<DOC>\n<DOCNO> FT1 </DOCNO>\n<TEXT>Wing &amp; flap</TEXT>\n</DOC>\n"
                    "<DOC>\n<TEXT>no id</TEXT>\n</DOC>\n")
    records = readers.iter_docs_trec(path)
    assert next(records) == (1, {"docno": "FT1", "text": "Wing & flap"})
    with pytest.raises(InputError, match=r"docs.trec:5: expected a <DOCNO> in every <DOC>"):
        next(records)


def _whole_file_trec_reader(path):
    """The reader of before (whole file in memory, one regex over it): the reference the
    streaming reader must agree with on well-formed input."""
    import html
    import re

    text = path.read_text(encoding="utf-8")
    for match in re.finditer(r"<DOC>(.*?)</DOC>", text, flags=re.S | re.I):
        body = match.group(1)
        docno = re.search(r"<DOCNO>\s*(.*?)\s*</DOCNO>", body, flags=re.S | re.I)
        rest = body[:docno.start()] + body[docno.end():]
        yield (text.count("\n", 0, match.start()) + 1,
               {"docno": docno.group(1),
                "text": " ".join(html.unescape(re.sub(r"<[^>]+>", " ", rest)).split())})


def test_streaming_trec_reader_agrees_with_a_whole_file_parse(tmp_path):
    path = tmp_path / "docs.trec"
    path.write_text(
        "header text outside documents\r\n"
        "<DOC><DOCNO>a1</DOCNO>one line</DOC><doc><docno>a2</docno>same <B>line</B></doc>\n"
        "between\n<DOC>\n<DOCNO>\n b3 \n</DOCNO>\n<HEADLINE>Split\nover</HEADLINE>\n"
        "lines &lt;tag&gt; x</DOC> trailing <DOC>\n<DOCNO>c4</DOCNO>\n\n</DOC>\n",
        encoding="utf-8")
    expected = list(_whole_file_trec_reader(path))
    assert [d["docno"] for _, d in expected] == ["a1", "a2", "b3", "c4"]
    assert list(readers.iter_docs_trec(path)) == expected


def test_streaming_trec_reader_yields_before_reading_the_whole_file(tmp_path):
    """Documents come one at a time: reading the first 1,001 documents of a 20 MB file
    allocates far less than the file (the reader of before read it whole)."""
    path = tmp_path / "docs.trec"
    with path.open("w", encoding="utf-8") as handle:
        handle.write("<DOC><DOCNO>first</DOCNO>text</DOC>\n")
        handle.write(("<DOC><DOCNO>d</DOCNO>" + "x " * 5000 + "</DOC>\n") * 2000)  # ~20 MB
    records = readers.iter_docs_trec(path)
    import tracemalloc

    tracemalloc.start()
    assert next(records)[1]["docno"] == "first"
    for _ in range(1000):
        next(records)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 2_000_000  # one ~10 kB document at a time, not the 20 MB file


def test_a_document_left_open_is_an_error_at_its_line(tmp_path):
    path = tmp_path / "docs.trec"
    path.write_text("<DOC><DOCNO>a</DOCNO>x</DOC>\n\n<DOC>\n<DOCNO>b</DOCNO>\n")
    with pytest.raises(InputError, match=r"docs.trec:3: expected a </DOC> closing this <DOC>"):
        list(readers.iter_docs_trec(path))
