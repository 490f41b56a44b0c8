"""Every reader fuzzed (issue 33): a valid sample of each input, mutated byte by byte
(replaced, inserted, deleted, cut short) or generated whole. For each, either the input is
read — and then, where records are lines, with every record counted — or one
:class:`InputError` names the file (and the line where there is one); never another
exception, never a record lost without a count.

Examples per reader: Hypothesis' profile ``ci`` (the default, 100 each) or ``long``
(``HYPOTHESIS_PROFILE=long``: 2,000 each), registered in tests/conftest.py.
"""
from __future__ import annotations

import gzip
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gradedrel.collection import readers
from gradedrel.collection.grades import GradeMap
from gradedrel.core.errors import InputError

LEVELS = GradeMap.from_config({"0": 0, "1": 1, "2": 2, "3": 3})
QUIET = settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)

SAMPLES = {
    "qrels.txt": b"1 0 d1 3\n1 0 d2 0\n2 0 d1 1\n\n2 0 d7 2\n",
    "qrels.tsv": b"qid\tdocno\tgrade\n1\td1\t3\n1\td2\t0\n2\td1\t1\n",
    "run.run": b"1 Q0 d1 1 2.5 t\n1 Q0 d2 2 1.5 t\n2 Q0 d1 1 0.5 t\n",
    "topics.tsv": "qid\tquery\n1\theat transfer\n2\tflutter of wings \u00fcber\n".encode(),
    "topics.txt": b"1\n2\n3\n",
    "topics.trec": b"<top>\n<num> Number: 1\n<title> heat\n</top>\n<top>\n<num> 2\n"
                   b"<title> wings\n</top>\n",
    "docs.jsonl": b'{"docno": "d1", "text": "heat"}\n{"docno": "d2", "text": "wing"}\n',
    "docs.trec": b"<DOC>\n<DOCNO> d1 </DOCNO>\n<TEXT>heat</TEXT>\n</DOC>\n"
                 b"<DOC><DOCNO>d2</DOCNO>wing</DOC>\n",
    "plans.yaml": b"plans:\n- qid: '1'\n  request: heat\n  facets:\n  - name: heat\n"
                  b"    importance: major\n    concepts:\n    - label: heat\n"
                  b"      keys: [heat, heat transfer]\n",
    "config.yaml": b"evaluation:\n  depth: 10\n  levels: [1, 3]\nstandard_measures: [AP]\n",
}

edits = st.lists(st.tuples(st.sampled_from(["replace", "insert", "delete", "cut"]),
                           st.integers(0, 400), st.binary(min_size=1, max_size=3)),
                 min_size=1, max_size=4)


def mutated(sample: bytes, changes) -> bytes:
    data = bytearray(sample)
    for kind, at, chunk in changes:
        at = at % (len(data) + 1)
        if kind == "replace":
            data[at:at + len(chunk)] = chunk
        elif kind == "insert":
            data[at:at] = chunk
        elif kind == "delete":
            del data[at:at + len(chunk)]
        else:
            del data[at:]
    return bytes(data)


def written(name: str, data: bytes) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="fuzz-"))
    path = folder / name
    path.write_bytes(data)
    return path


def lines_of(data: bytes) -> int:
    """The records a line-per-record file holds: its lines (\\n, \\r\\n or \\r ends, as
    universal newlines read them) that are not blank."""
    text = data.decode("utf-8-sig")
    return sum(1 for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
               if line.strip())


def read_or_refused(read, path: Path):
    """The reader's result, or None after an InputError naming ``path``."""
    try:
        return read(path)
    except InputError as error:
        # the file, or a member of it (``wordnet.deb!usr/share/wordnet/data.noun``)
        assert error.path is not None and str(error.path).startswith(str(path)), str(error)
        assert "\n" not in str(error)
        return None


@QUIET
@given(changes=edits)
def test_trec_qrels(changes):
    data = mutated(SAMPLES["qrels.txt"], changes)
    path = written("qrels.txt", data)
    frame = read_or_refused(lambda p: readers.read_qrels(p, LEVELS), path)
    if frame is not None:
        assert len(frame) == lines_of(data)  # every judgement line a row


@QUIET
@given(changes=edits)
def test_qrels_tsv(changes):
    data = mutated(SAMPLES["qrels.tsv"], changes)
    path = written("qrels.tsv", data)
    read_or_refused(readers.read_qrels_tsv, path)


@QUIET
@given(changes=edits)
def test_runs(changes):
    from gradedrel.retrieval.runs import read_run

    data = mutated(SAMPLES["run.run"], changes)
    path = written("run.run", data)
    run = read_or_refused(read_run, path)
    if run is not None:
        assert len(run.docno) == lines_of(data)  # every run line a ranked row


@QUIET
@given(changes=edits, name=st.sampled_from(["topics.tsv", "topics.txt", "topics.trec"]))
def test_topics(changes, name):
    data = mutated(SAMPLES[name], changes)
    path = written(name, data)
    read = {"topics.tsv": readers.read_topics_tsv, "topics.txt": readers.read_topic_list,
            "topics.trec": readers.read_topics_trec}[name]
    read_or_refused(read, path)


@QUIET
@given(changes=edits, name=st.sampled_from(["docs.jsonl", "docs.trec"]))
def test_documents(changes, name):
    data = mutated(SAMPLES[name], changes)
    path = written(name, data)
    read = readers.iter_docs_jsonl if name == "docs.jsonl" else readers.iter_docs_trec
    read_or_refused(lambda p: list(read(p)), path)


@QUIET
@given(changes=edits, compressed=st.booleans())
def test_gzip_inputs_cut_short_or_damaged(changes, compressed):
    packed = gzip.compress(SAMPLES["qrels.txt"] * 20, mtime=0)
    data = mutated(packed, changes) if compressed else packed[:len(packed) // 2]
    path = written("qrels.txt.gz", data)
    read_or_refused(lambda p: readers.read_qrels(p, LEVELS), path)


@QUIET
@given(text=st.text(max_size=40))
def test_grade_maps_on_the_command_line(text):
    from gradedrel.cli import parse_grade_map

    try:
        grade_map = parse_grade_map(text)
    except InputError as error:
        assert error.path == "--grade-map"
        return
    assert grade_map is not None


@QUIET
@given(changes=edits)
def test_plans(changes):
    from gradedrel.plans.model import read_plans

    path = written("plans.yaml", mutated(SAMPLES["plans.yaml"], changes))
    read_or_refused(read_plans, path)


@QUIET
@given(changes=edits)
def test_config_files(changes):
    from gradedrel.core.config import ConfigError, load_file

    path = written("config.yaml", mutated(SAMPLES["config.yaml"], changes))
    try:
        read_or_refused(load_file, path)
    except ConfigError as error:  # against the schema: one line, the file and line first
        assert str(error).startswith(f"{path}") and "\n" not in str(error), str(error)


@QUIET
@given(changes=edits)
def test_thesaurus_caches(changes):
    from conftest import small_thesaurus

    from gradedrel.thesaurus import cache

    folder = Path(tempfile.mkdtemp(prefix="fuzz-"))
    good = folder / "good.thesaurus.json.gz"
    cache.write(good, small_thesaurus(), source_sha256="0" * 64, reader_version=1)
    path = written("t.thesaurus.json.gz", mutated(good.read_bytes(), changes))
    thesaurus = read_or_refused(cache.read, path)
    if thesaurus is not None:
        assert len(thesaurus.concepts) == len(small_thesaurus().concepts)


@QUIET
@given(changes=edits)
def test_skos_files(changes):
    from gradedrel.thesaurus.skos import read_skos

    sample = (Path(__file__).parent / "fixtures" / "thesaurus" / "mini_skos.rdf").read_bytes()
    path = written("mini.rdf", mutated(sample, changes))
    read_or_refused(read_skos, path)


FIXTURES = Path(__file__).parent / "fixtures" / "thesauri"


@QUIET
@given(changes=edits, role=st.sampled_from(["descriptors", "trees"]))
def test_mesh_rds_files(changes, role):
    import shutil

    from gradedrel.thesaurus import mesh

    folder = Path(tempfile.mkdtemp(prefix="fuzz-"))
    for name in ("descriptors.rds", "trees.rds"):
        shutil.copy(FIXTURES / "mesh" / name, folder / name)
    target = folder / f"{role}.rds"
    target.write_bytes(mutated(target.read_bytes(), changes))
    try:
        mesh.read_mesh(folder / "descriptors.rds", folder / "trees.rds")
    except InputError as error:
        assert Path(error.path).parent == folder and "\n" not in str(error), str(error)


@QUIET
@given(changes=edits, pos=st.sampled_from(["noun", "verb", "adj", "adv"]),
       container=st.booleans())
def test_wordnet_packages(changes, pos, container):
    """A data file mutated inside a well-made .deb, or the .deb's own bytes mutated."""
    from tests.thesaurus.test_thesaurus_wordnet import make_deb

    from gradedrel.thesaurus.wordnet import read_wordnet

    files = {f"data.{p}": (FIXTURES / "wordnet" / f"data.{p}").read_bytes()
             for p in ("noun", "verb", "adj", "adv")}
    if not container:
        files[f"data.{pos}"] = mutated(files[f"data.{pos}"], changes)
    path = make_deb(Path(tempfile.mkdtemp(prefix="fuzz-")) / "wordnet.deb", files)
    if container:
        path.write_bytes(mutated(path.read_bytes(), changes))
    read_or_refused(read_wordnet, path)
