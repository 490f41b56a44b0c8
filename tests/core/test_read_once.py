"""Every reader reads its input once, as a stream (issue 45): a pipe (``<(cat …)``), a FIFO
or ``-`` (standard input) gives what the file gives. A reader that opened its input twice
(a byte-order-mark sniff, then the read; a re-read to locate an error) lost the first
buffer of a pipe: 256 judgements, whole topics, with exit code 0.

Each input here is larger than one buffer, its lines 64 bytes long, so the 4,096th byte
ends a line: what a first open swallowed is whole lines, which read as valid input."""
import io
import os
import subprocess
import sys
import threading
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gradedrel.collection import readers
from gradedrel.core.errors import InputError
from gradedrel.retrieval.runs import read_run

WIDTH = 64   # bytes a line: 4096 / 64 lines fill the first 4,096 bytes exactly


def fixed(lines, width=WIDTH, pad=" ") -> str:
    """Each of ``lines`` (a format string with one ``{pad}``) padded to ``width`` bytes."""
    out = []
    for line in lines:
        text = line.format(pad=pad * (width - len(line.format(pad="")) - 1)) + "\n"
        assert len(text.encode()) == width, text
        out.append(text)
    return "".join(out)


N = 400  # lines: 25,600 bytes, more than Python's 8 KiB buffer and a 4 KiB pipe read
TEXTS = {
    "qrels": fixed(f"{i // 20} 0 d{i:05d}{{pad}} {i % 4}" for i in range(N)),
    "qrels_tsv": fixed(["qid\tdocno\tgrade\tnote{pad}"] +
                       [f"{i // 20}\td{i:05d}\t{i % 4}\t{{pad}}" for i in range(N)], pad="n"),
    "run": fixed(f"{i // 40} Q0 d{i:05d}{{pad}} {i % 40 + 1} {40 - i % 40} t"
                 for i in range(N)),
    "topics_tsv": fixed(f"{i}\tquery {i} words{{pad}}" for i in range(N)),
    "topic_list": fixed(f"{i}{{pad}}" for i in range(N)),
    "topics_trec": fixed(line for i in range(N // 4)
                         for line in ("<top>{pad}", f"<num> {i}{{pad}}",
                                      f"<title> topic {i}{{pad}}", "</top>{pad}")),
    "docs_jsonl": fixed([f'{{{{"docno": "d{i:05d}", "text": "t{{pad}}"}}}}' for i in range(N)],
                        pad="x"),
    "docs_trec": fixed(line for i in range(N // 4)
                       for line in ("<DOC>{pad}", f"<DOCNO>d{i:05d}</DOCNO>{{pad}}",
                                    f"text of {i}{{pad}}", "</DOC>{pad}")),
    "config": fixed([f"# a comment line {i}{{pad}}" for i in range(N)] +
                    ["evaluation:{pad}", "  depth: 10{pad}"]),
}


def read(kind: str, path):
    """What the reader of ``kind`` makes of ``path``, as plain data to compare."""
    if kind == "qrels":
        return readers.read_qrels(path, readers.GradeMap.from_config({0: 0, 1: 1, 2: 2, 3: 3}))
    if kind == "qrels_tsv":
        return readers.read_qrels_tsv(path)
    if kind == "run":
        return read_run(path).to_frame()
    if kind == "topics_tsv":
        return readers.read_topics_tsv(path)
    if kind == "topic_list":
        return readers.read_topic_list(path)
    if kind == "topics_trec":
        return readers.read_topics_trec(path)
    if kind == "docs_jsonl":
        return list(readers.iter_docs_jsonl(path))
    if kind == "docs_trec":
        return list(readers.iter_docs_trec(path))
    from gradedrel.core.config import load_file
    return load_file(path)


def same(a, b) -> bool:
    if isinstance(a, pd.DataFrame):
        return a.reset_index(drop=True).equals(b.reset_index(drop=True))
    return a == b


class Pipe:
    """A pipe whose far end a thread fills with ``data``; ``path`` reads it (/dev/fd/N)."""

    def __init__(self, data: bytes):
        self.read_fd, write_fd = os.pipe()
        self.thread = threading.Thread(target=self._fill, args=(write_fd, data), daemon=True)
        self.thread.start()
        self.path = f"/dev/fd/{self.read_fd}"

    @staticmethod
    def _fill(fd, data):
        with os.fdopen(fd, "wb") as handle:
            try:
                handle.write(data)
            except BrokenPipeError:
                pass

    def close(self):
        os.close(self.read_fd)
        self.thread.join(5)


def through(source: str, data: bytes, monkeypatch, reader):
    """``reader(path)`` with ``data`` given through a pipe (``/dev/fd/N``) or ``-``."""
    pipe = Pipe(data)
    try:
        if source == "stdin":
            stdin = io.TextIOWrapper(os.fdopen(os.dup(pipe.read_fd), "rb"))
            monkeypatch.setattr(sys, "stdin", stdin)
            try:
                return reader("-")
            finally:
                stdin.close()
        return reader(pipe.path)
    finally:
        pipe.close()


@pytest.mark.parametrize("source", ["pipe", "stdin"])
@pytest.mark.parametrize("kind", sorted(TEXTS))
def test_every_reader_gives_through_a_pipe_what_it_gives_from_the_file(kind, source, tmp_path,
                                                                       monkeypatch):
    data = TEXTS[kind].encode()
    assert data[4095:4096] == b"\n" and len(data) > 8192
    path = tmp_path / ("q.tsv" if kind == "qrels_tsv" else "input")
    path.write_bytes(data)
    expected = read(kind, path)
    assert len(expected) >= (1 if kind == "config" else N // 4)
    got = through(source, data, monkeypatch, lambda p: read(kind, p))
    assert same(got, expected)


@pytest.mark.parametrize("kind, bad, line", [
    ("run", "1 Q0 dx 1 high t", N + 1),   # the error located in the bytes read, not re-read
    ("config", "  cutoffs: ten", N + 3),  # the line named from the text read, not re-read
])
def test_an_error_in_piped_input_names_its_line(kind, bad, line, tmp_path, monkeypatch):
    data = (TEXTS[kind] + bad + "\n").encode()
    path = tmp_path / "input"
    path.write_bytes(data)
    with pytest.raises(ValueError) as from_file:
        read(kind, path)
    with pytest.raises(ValueError) as from_pipe:
        through("pipe", data, monkeypatch, lambda p: read(kind, p))
    assert f"{path}:{line}: " in str(from_file.value)
    assert str(from_pipe.value).replace(f"/dev/fd/", "").lstrip("0123456789") == \
        str(from_file.value).replace(str(path), "")


def test_a_compressed_input_is_refused_through_a_pipe_too(monkeypatch):
    import gzip

    data = gzip.compress(TEXTS["qrels"].encode())
    with pytest.raises(InputError, match="a compressed file .*decompress it first"):
        through("pipe", data, monkeypatch, lambda p: read("qrels", p))
    with pytest.raises(InputError, match="a compressed file .*decompress it first"):
        through("pipe", data, monkeypatch, lambda p: read("run", p))


lines = st.lists(st.tuples(st.integers(0, 30), st.integers(0, 10 ** 6), st.integers(0, 3),
                           st.sampled_from([" ", "\t", "  "]), st.sampled_from(["\n", "\r\n"])),
                 min_size=1, max_size=600, unique_by=lambda t: (t[0], t[1]))


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(rows=lines)
def test_property_the_same_qrels_rows_through_a_pipe_as_from_the_file(rows, tmp_path,
                                                                      monkeypatch):
    text = "".join(f"{q}{sep}0{sep}d{d}{sep}{g}{end}" for q, d, g, sep, end in rows)
    path = tmp_path / "q.txt"
    path.write_text(text, newline="")
    expected = read("qrels", path)
    assert len(expected) == len(rows)
    assert same(through("pipe", text.encode(), monkeypatch, lambda p: read("qrels", p)),
                expected)


def test_the_command_reads_process_substitutions_and_a_fifo_as_files(tmp_path):
    """``gradedrel evaluate --qrels <(cat q) --topics <(cat t) <(cat run)`` and a FIFO write
    the tables the files give (bash's ``/dev/fd/63``: a real pipe, in a real process)."""
    for kind, name in (("qrels", "q.txt"), ("run", "r.run")):
        (tmp_path / name).write_text(TEXTS[kind])
    (tmp_path / "t.txt").write_text(fixed(f"{i}{{pad}}" for i in range(N // 20)))
    os.mkfifo(tmp_path / "fifo.run")
    import gradedrel

    env = {**os.environ, "PYTHONPATH": str(Path(gradedrel.__file__).resolve().parents[1])}
    command = [sys.executable, "-m", "gradedrel.cli", "evaluate"]
    by_file = subprocess.run(command + ["--qrels", "q.txt", "--topics", "t.txt", "--out",
                                        "files", "r=r.run"], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=60)
    assert by_file.returncode == 0, by_file.stderr
    script = ('cat r.run > fifo.run & "$@" --qrels <(cat q.txt) --topics <(cat t.txt) '
              '--out piped r=<(cat r.run) f=fifo.run')
    piped = subprocess.run(["bash", "-c", script, "bash", *command], cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=60)
    assert piped.returncode == 0, piped.stderr
    for table in sorted((tmp_path / "files").glob("*.tsv")):
        frame = pd.read_csv(tmp_path / "piped" / table.name, sep="\t", dtype=str)
        if "run" in frame.columns:
            assert frame[frame["run"] == "f"].drop(columns="run").reset_index(drop=True).equals(
                frame[frame["run"] == "r"].drop(columns="run").reset_index(drop=True))
            frame = frame[frame["run"] == "r"].reset_index(drop=True)
        assert frame.equals(pd.read_csv(table, sep="\t", dtype=str)), table.name
