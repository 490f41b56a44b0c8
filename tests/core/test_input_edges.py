"""Nothing lost at the edges (issue 45): a label given twice in any spelling the grade map
reads as one, a key repeated through a YAML alias or merged twice, a JSON key twice in a
document line; a bad byte reported at its own line; a huge or sparse file a short error
after a bounded read; a full disk or a dangling ``--out`` link naming the path."""
import errno
import json
import os
import tracemalloc

import pytest

from gradedrel.collection import readers
from gradedrel.collection.grades import GradeMap
from gradedrel.core import yaml_io
from gradedrel.core.errors import InputError
from gradedrel.retrieval.runs import read_run

LEVELS = GradeMap.from_config({0: 0, 1: 1, 2: 2, 3: 3})


# --- a label given twice, as the grade map compares labels --------------------------------

@pytest.mark.parametrize("text", ["1=3,01=0,2=3", "\uff11=3,1=0", '{"1": 3, "01": 0}',
                                  "1=3, 1 =0", '{"1": 3, "1": 0}'])
def test_a_label_given_twice_on_the_command_line_in_any_spelling(text):
    from gradedrel.cli import parse_grade_map

    with pytest.raises(InputError) as raised:
        parse_grade_map(text)
    message = str(raised.value)
    assert message.startswith("--grade-map: expected each relevance label once")
    assert "label 1 twice" in message and ": 3 and " in message and ": 0" in message


@pytest.mark.parametrize("raw", [{1: 3, "1": 0}, {"01": 3, 1: 0}, {"\uff11": 3, "1": 0}])
def test_a_label_given_twice_in_a_config_grade_map(raw):
    with pytest.raises(InputError, match=r"collections.c.grade_map: expected each relevance "
                                         r"label once .*label 1 twice"):
        GradeMap.from_config(raw, source="collections.c.grade_map")
    assert GradeMap.from_config({1: 3, "2": 0}).level("01") == 3


# --- YAML: a key through an alias, a mapping merged twice ---------------------------------

@pytest.mark.parametrize("text, line, found", [
    ('grade_map: {&a "A": 3,\n  "B": 1,\n  *a : 0}\n', 3,
     "key 'A' twice: line 1 = '3', line 3 = '0'"),
    ("a: &a {k: 1}\nb: &b {j: 2}\nc:\n  <<: *a\n  <<: *b\n", 5, "merge key '<<' twice"),
    ("a: &a {k: 1}\nc:\n  <<: [*a, *a]\n", 3, "each mapping merged once"),
])
def test_the_yaml_loader_refuses_a_key_through_an_alias_and_a_second_merge(text, line, found,
                                                                           tmp_path):
    with pytest.raises(InputError) as raised:
        yaml_io.load(text, "x.yaml")
    assert str(raised.value).startswith(f"x.yaml:{line}: expected each key once in a mapping")
    assert found in str(raised.value)
    # in --config and in a plan file too
    from gradedrel.core.config import load_file
    from gradedrel.plans.model import parse_plans

    config = tmp_path / "c.yaml"
    config.write_text(text.replace("grade_map", "evaluation"))
    with pytest.raises(InputError, match=f"c.yaml:{line}: expected each key once"):
        load_file(config)
    with pytest.raises(InputError, match=f"p.yaml:{line}: expected each key once"):
        parse_plans(text, "p.yaml")
    ok = "a: &a {k: 1}\nb: {<<: *a, k: 2}\nc: {<<: [*a, {j: 1}]}\n"
    import yaml
    assert yaml_io.load(ok) == yaml.safe_load(ok)


# --- JSON: a key twice in a document line --------------------------------------------------

def test_a_json_key_given_twice_in_a_document_line_is_refused(tmp_path):
    path = tmp_path / "docs.jsonl"
    path.write_text('{"docno": "d1", "body": "heat"}\n'
                    '{"docno": "d2", "body": "shells", "body": ""}\n')
    with pytest.raises(InputError) as raised:
        list(readers.iter_docs_jsonl(path, text_fields=("body",)))
    assert str(raised.value) == (f"{path}:2: expected each key once in a JSON object; "
                                 "found \"key 'body' twice\"")


# --- the line of a bad byte -----------------------------------------------------------------

@pytest.mark.parametrize("kind", ["qrels", "topics", "topic_list", "docs_jsonl", "docs_trec",
                                  "topics_trec"])
def test_a_byte_that_is_not_utf8_is_reported_at_its_line(kind, tmp_path):
    lines = {"qrels": [f"{i} 0 d{i} 1" for i in range(1, 1000)],
             "topics": [f"{i}\tquery {i}" for i in range(1, 1000)],
             "topic_list": [str(i) for i in range(1, 1000)],
             "docs_jsonl": [json.dumps({"docno": f"d{i}", "text": "t"}) for i in range(1, 1000)],
             "docs_trec": [f"<DOC><DOCNO>d{i}</DOCNO>text</DOC>" for i in range(1, 1000)],
             "topics_trec": [f"<top><num>{i}<title>t {i}</top>" for i in range(1, 1000)]}[kind]
    data = "\n".join(lines).encode() + b"\n"
    at = data.index(lines[699].encode())      # line 700
    data = data[:at + 1] + b"\xe9" + data[at + 1:]
    path = tmp_path / "input"
    path.write_bytes(data)
    read = {"qrels": lambda: readers.read_qrels(path, LEVELS),
            "topics": lambda: readers.read_topics_tsv(path),
            "topic_list": lambda: readers.read_topic_list(path),
            "docs_jsonl": lambda: list(readers.iter_docs_jsonl(path)),
            "docs_trec": lambda: list(readers.iter_docs_trec(path)),
            "topics_trec": lambda: readers.read_topics_trec(path)}[kind]
    with pytest.raises(InputError) as raised:
        read()
    assert str(raised.value) == (f"{path}:700: expected UTF-8 text; found \"byte b'\\\\xe9', "
                                 "not UTF-8 (Latin-1 or another encoding?)\"")


def test_a_carriage_return_line_counts_as_text_mode_counts_it(tmp_path):
    path = tmp_path / "q.txt"
    path.write_bytes(b"1 0 d1 1\r2 0 d2 1\r\n3 0 d3 \xe9\n")
    with pytest.raises(InputError, match=r"q.txt:3: expected UTF-8 text"):
        readers.read_qrels(path, LEVELS)
    path.write_bytes(b"1 0 d1 1\r2 0 d2 1\r\n3 0 d3 1")
    assert readers.read_qrels(path, LEVELS)["docno"].tolist() == ["d1", "d2", "d3"]


# --- huge lines, sparse files ---------------------------------------------------------------

def sparse(path, size):
    with open(path, "wb") as handle:
        handle.truncate(size)
    return path


MB = 1 << 20


@pytest.mark.parametrize("reader, most", [
    (lambda p: read_run(p), 16 * MB), (lambda p: readers.read_qrels(p, LEVELS), 16 * MB),
    (lambda p: readers.read_qrels_tsv(p), 16 * MB), (lambda p: readers.read_topics_tsv(p), 16 * MB),
    (lambda p: readers.read_topic_list(p), 16 * MB),
    # a document line may be 64 MiB long (one document): read up to there, not beyond
    (lambda p: list(readers.iter_docs_jsonl(p)), 160 * MB)],
    ids=["run", "qrels", "qrels_tsv", "topics", "topic_list", "docs_jsonl"])
def test_a_sparse_file_is_one_short_line_after_a_bounded_read(reader, most, tmp_path):
    """A sparse file (``truncate -s 96M``): one line under 1 KB, and a bounded read (the
    1 GB case: measured by hand, CHANGELOG)."""
    path = sparse(tmp_path / "big.tsv", 96 * MB)
    tracemalloc.start()
    try:
        with pytest.raises(InputError) as raised:
            reader(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    message = str(raised.value)
    assert "\n" not in message and len(message) < 1000, message[:300]
    assert message.startswith(f"{path}:1: expected lines of at most ")
    assert peak < most


def test_a_long_bad_line_is_shown_cut_with_its_length(tmp_path):
    path = tmp_path / "q.txt"
    garbage = "x" * 500_000
    path.write_text(f"1 0 d1 1\n{garbage}\n")
    with pytest.raises(InputError) as raised:
        readers.read_qrels(path, LEVELS)
    message = str(raised.value)
    assert message.startswith(f"{path}:2: expected a TREC qrels line")
    assert len(message) < 200 + 300  # found cut at 200 characters (issue 45)
    assert message.endswith(f"… (cut; {len(garbage)} bytes in all)")
    path.write_text(f"1 0 d1 1\n{'y' * (10 << 20)}\n")  # 10 MB: over the line limit
    with pytest.raises(InputError) as raised:
        readers.read_qrels(path, LEVELS)
    assert len(str(raised.value)) < 400
    assert str(raised.value).startswith(f"{path}:2: expected lines of at most 1048576 bytes")


# --- --out: a full disk, a dangling link ----------------------------------------------------

def small_inputs(tmp_path):
    (tmp_path / "q.txt").write_text("1 0 d1 2\n1 0 d2 0\n")
    (tmp_path / "r.run").write_text("1 Q0 d1 1 2.0 t\n1 Q0 d2 2 1.0 t\n")
    return ["evaluate", "--qrels", str(tmp_path / "q.txt"), str(tmp_path / "r.run")]


def test_out_a_dangling_link_names_it_and_what_to_do(tmp_path, capsys):
    from gradedrel.cli import main

    out = tmp_path / "out"
    out.symlink_to(tmp_path / "gone")
    assert main(small_inputs(tmp_path) + ["--out", str(out)]) == 1
    error = capsys.readouterr().err.strip()
    assert error == (f"gradedrel: {out}: expected --out: a folder, or a path where one can "
                     f"be made; found \"a symbolic link to '{tmp_path / 'gone'}', which does "
                     "not exist: remove the link, or make the folder it names\"")


def test_out_on_a_full_disk_names_the_file_and_what_to_do(tmp_path, capsys, monkeypatch):
    from gradedrel.cli import main
    from gradedrel.core import io as core_io

    real = os.fdopen

    class Full:
        def __init__(self, handle):
            self.handle = handle

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

        def write(self, text):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(core_io.os, "fdopen", lambda *a, **k: Full(real(*a, **k)))
    assert main(small_inputs(tmp_path) + ["--out", str(tmp_path / "out")]) == 1
    error = capsys.readouterr().err.strip()
    assert error.startswith(f"gradedrel: {tmp_path / 'out'}/")
    assert error.endswith(": No space left on device; free space on that device, or write "
                          "elsewhere (--out)")
    assert not list((tmp_path / "out").glob("*"))  # nothing half-written
