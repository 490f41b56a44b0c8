"""Readers for the file formats a collection may come in.

Each reader reads its input once, as a stream (a file, a pipe, a FIFO or ``-``:
:mod:`gradedrel.core.streams`), checks every line and raises
:class:`~gradedrel.core.errors.InputError` naming the file and line of the first bad
one. Every text input is UTF-8; a byte-order mark at its start is stripped and logged (a
warning naming the file; the testbed report lists the collection's files that had one:
:func:`starts_with_bom`). A topic or document
id is one field of a TREC run line, so it may hold no whitespace and no control
character (:func:`check_id`).

- qrels: TREC format, ``qid iteration docno label`` (whitespace separated);
- topics: TSV ``qid<TAB>text`` (an optional ``qid<TAB>query`` header), or a TREC
  topic file (``<top> <num> <title> <desc> <narr>``);
- documents: JSONL (one object per line, id and text fields named in config) or
  TREC SGML (``<DOC><DOCNO>…</DOCNO>…</DOC>``).
"""
from __future__ import annotations

import codecs
import gzip
import html
import io
import json
import re
from pathlib import Path
from typing import Iterator

from gradedrel.core import lazy

np = lazy.module("numpy")
pd = lazy.module("pandas")

from gradedrel.core.errors import InputError, once
from gradedrel.core import streams
from gradedrel.core.io import NOT_IN_ID
from gradedrel.collection.grades import LEVELS, GradeMap


def starts_with_bom(path: str | Path) -> bool:
    """Whether the file (gzip-compressed if it ends in ``.gz``) starts with a UTF-8
    byte-order mark."""
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rb") as handle:
        return handle.read(len(codecs.BOM_UTF8)) == codecs.BOM_UTF8


def _lines(path: str | Path, limit: int = streams.LINE_LIMIT) -> Iterator[str]:
    """The lines of a text input, read once as a stream (a file, a pipe, a FIFO, ``-``;
    gzip-compressed if it ends in ``.gz``), its byte-order mark (if any) stripped and
    logged. A byte that is not UTF-8, a line longer than ``limit`` bytes or a compressed
    file cut short is an :class:`InputError` naming the file and the line it is on
    (:func:`gradedrel.core.streams.text_lines`)."""
    return streams.text_lines(path, "UTF-8 text", limit)


ID_RULE = "without whitespace or control characters (an id is one field of a TREC run line)"


def check_id(value: str, what: str, path, line: int | None) -> str:
    """``value`` if it can be a TREC id, else an :class:`InputError` at ``path:line``
    (``what``: "document id", "topic id")."""
    if NOT_IN_ID.search(value):
        raise InputError(path, line, f"a {what} {ID_RULE}", value)
    return value


def read_qrels(path: str | Path, grade_map: GradeMap) -> pd.DataFrame:
    """TREC qrels → ``qid, docno, label, grade`` (grade = the paper's level 0–3); a pair
    judged twice is an error (its grade would be ambiguous)."""
    rows = []
    seen: dict[tuple[str, str], int] = {}
    for number, line in enumerate(_lines(path), start=1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 4:
            raise InputError(path, number,
                             "a TREC qrels line 'qid iteration docno label' (4 fields)",
                             line.rstrip("\n"))
        qid, _, docno, label = parts
        check_id(qid, "topic id", path, number)
        check_id(docno, "document id", path, number)
        grade = grade_map.level(label, str(path), number)
        once(seen, (qid, docno), path, number, "one judgement per (topic, document)",
             f"{qid} {docno}")
        rows.append((qid, docno, label, grade))
    return pd.DataFrame(rows, columns=["qid", "docno", "label", "grade"])


def read_qrels_tsv(path: str | Path, grade_map: GradeMap | None = None) -> pd.DataFrame:
    """A graded qrels TSV with a header (``qid, docno, [label,] grade``, as the workflow
    writes ``qrels.tsv``) → ``qid, docno, label, grade``; ids stay text as written.

    With a ``grade_map`` the grade is recomputed from the raw ``label`` column (a file
    without one is an error); without, the ``grade`` column must hold levels 0–3. Errors
    name the file line (the header is line 1): a grade outside 0–3, an unmapped label,
    a pair judged twice (with the line where it was first judged).
    """
    expected = "a graded qrels TSV as UTF-8 text"
    # read once (a pipe cannot be read twice); a name ending in .gz decompressed
    data = streams.read_bounded(path, expected, gz=streams.gzipped(path))
    streams.log_bom(path, data)  # pandas strips it
    try:
        frame = pd.read_csv(io.BytesIO(data), sep="\t", dtype=str, keep_default_na=False,
                            skip_blank_lines=False)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError) as error:
        found = str(error).strip().splitlines()[-1] if str(error).strip() else "nothing"
        at = re.search(r"line (\d+)", found)
        raise InputError(path, int(at.group(1)) if at else None, "a graded qrels TSV: a "
                         "header line, then its number of tab-separated fields on every "
                         "line", found) from None
    needed = ["qid", "docno"] + (["label"] if grade_map is not None else ["grade"])
    missing = [c for c in needed if c not in frame.columns]
    if missing:
        why = " (--grade-map maps the raw 'label' column)" if "label" in missing else ""
        raise InputError(path, 1, f"a header with the columns {needed}{why}",
                         "\t".join(map(str, frame.columns)))
    lines = np.arange(len(frame)) + 2  # file line of each row: the header is line 1
    blank = (frame[needed] == "").all(axis=1).to_numpy()
    frame, lines = frame[~blank].reset_index(drop=True), lines[~blank]
    for column, what in (("qid", "topic id"), ("docno", "document id")):
        for row in np.flatnonzero(frame[column].str.contains(NOT_IN_ID).to_numpy())[:1]:
            check_id(frame[column].iloc[row], what, path, int(lines[row]))
    if grade_map is not None:
        level_of = {}
        for label, line in zip(frame["label"], lines):
            if label not in level_of:
                level_of[label] = grade_map.level(label, str(path), int(line))
        grade = frame["label"].map(level_of).to_numpy(dtype=np.int64)
    else:
        numeric = pd.to_numeric(frame["grade"], errors="coerce")
        for row in np.flatnonzero(~numeric.isin(LEVELS).to_numpy())[:1]:
            raise InputError(path, int(lines[row]), f"a grade in {LEVELS}",
                             frame["grade"].iloc[row])
        grade = numeric.to_numpy(dtype=np.int64)
    seen: dict[tuple[str, str], int] = {}
    for qid, docno, line in zip(frame["qid"], frame["docno"], lines.tolist()):
        once(seen, (qid, docno), path, line, "one judgement per (topic, document)",
             f"{qid} {docno}")
    label = frame["label"] if "label" in frame.columns else frame["grade"]
    return pd.DataFrame({"qid": frame["qid"], "docno": frame["docno"], "label": label,
                         "grade": grade})


#: Header names a topics TSV may have: first column, second column (compared case-folded).
TOPIC_ID_HEADERS = ("qid", "topic", "topic_id", "query_id", "id", "num")
TOPIC_TEXT_HEADERS = ("query", "text", "title", "topic", "description")


def is_topics_header(fields: list[str]) -> bool:
    """``qid<TAB>query``, ``topic<TAB>text``, ``qid<TAB>text`` … (see the two lists above)."""
    names = [f.strip().casefold() for f in fields]
    return len(names) == 2 and names[0] in TOPIC_ID_HEADERS and names[1] in TOPIC_TEXT_HEADERS


def topics_header_setting(value, source: str = "config") -> "tuple[str, str] | bool | None":
    """A collection's ``topics_header``: absent or ``detect`` → None (detected,
    :func:`is_topics_header`); ``false``/``none`` → False (no header: the first line is a
    topic); two column names (``[topic, text]`` or ``"topic<TAB>text"``) → those names,
    which the first line must carry."""
    if value is None or value == "detect":
        return None
    if value is False or value == "none":
        return False
    names = value.split("\t") if isinstance(value, str) else value
    if isinstance(names, (list, tuple)) and len(names) == 2 \
            and all(isinstance(n, str) and n.strip() for n in names):
        return (names[0].strip(), names[1].strip())
    raise InputError(source, None, "topics_header: 'detect', 'none', or the two column names "
                     "(e.g. [qid, query])", value)


def read_topics_tsv(path: str | Path, header: "tuple[str, str] | bool | None" = None
                    ) -> pd.DataFrame:
    """TSV topics ``qid<TAB>text`` → ``qid, query``; ids are kept as written (text).

    ``header`` (:func:`topics_header_setting`): None — the first line is a header, and
    skipped, when it names the two columns (:func:`is_topics_header`: ``qid<TAB>query``,
    ``topic<TAB>text``, ``qid<TAB>text``, …), otherwise it is a topic; False — no header;
    two names — the first line must be exactly those names (compared case-folded), and is
    skipped."""
    rows = []
    seen: dict[str, int] = {}
    expected = header if isinstance(header, tuple) else None
    for number, line in enumerate(_lines(path), start=1):
        line = line.rstrip("\n").rstrip("\r")
        if expected is not None and number == 1:
            names = tuple(f.strip().casefold() for f in line.split("\t"))
            if names != tuple(n.casefold() for n in expected):
                raise InputError(path, 1, "the header named in config (topics_header): "
                                 + "<TAB>".join(expected), line)
            continue
        if not line.strip():
            continue
        parts = line.split("\t")
        if header is None and not rows and not seen and is_topics_header(parts):
            continue
        if len(parts) != 2 or not parts[0].strip():
            raise InputError(path, number, "a topic line 'qid<TAB>text' (2 fields)", line)
        qid = check_id(parts[0].strip(), "topic id", path, number)
        once(seen, qid, path, number, "a unique topic id", qid)
        rows.append((qid, parts[1].strip()))
    return pd.DataFrame(rows, columns=["qid", "query"])


def read_topic_list(path: str | Path) -> list[str]:
    """One topic id per line, as written (a TSV's first column; a header line naming the
    column — ``qid``, ``topic``, … as in a topics file — is skipped): a plan set's
    ``topics`` file, ``gradedrel evaluate --topics``."""
    qids, seen = [], {}
    for number, line in enumerate(_lines(path), start=1):
        field = line.rstrip("\r\n").split("\t")[0].strip()
        if not field or (number == 1 and field.casefold() in TOPIC_ID_HEADERS):
            continue
        once(seen, field, path, number, "each topic id once", field)
        qids.append(check_id(field, "topic id", path, number))
    if not qids:
        raise InputError(path, None, "at least one topic id")
    return qids


#: The fields of a TREC topic a request can be made of (``topic_field``), in file order.
TREC_TOPIC_FIELDS = ("title", "desc", "narr")
_TREC_TOPIC_PREFIX = {"num": r"^\s*Number:\s*", "desc": r"^\s*Description:\s*",
                      "narr": r"^\s*Narrative:\s*", "title": r"^\s*Topic:\s*"}


def read_topics_trec(path: str | Path, field: str = "title") -> pd.DataFrame:
    """A TREC topic file → ``qid, query`` from one field (title, desc or narr); tags may be
    closed or not (old TREC files leave them open). :func:`~.judgements.load_topics` asks
    only for the fields among :data:`TREC_TOPIC_FIELDS` that config names."""
    text = "".join(_lines(path))
    rows = []
    seen: dict[str, int] = {}
    for match in re.finditer(r"<top>(.*?)</top>", text, flags=re.S | re.I):
        body = match.group(1)
        line = text.count("\n", 0, match.start()) + 1
        parts = {tag.lower(): content for tag, content in re.findall(
            r"<(num|title|desc|narr)>(.*?)(?=</?(?:num|title|desc|narr)>|\Z)", body,
            flags=re.S | re.I)}
        qid = re.sub(_TREC_TOPIC_PREFIX["num"], "", parts.get("num", ""), flags=re.I).strip()
        if not qid:
            raise InputError(path, line, "a <num> in every <top>", body.strip()[:60])
        check_id(qid, "topic id", path, line)
        value = re.sub(_TREC_TOPIC_PREFIX.get(field, "^"), "", parts.get(field, ""),
                       flags=re.I).strip()
        once(seen, qid, path, line, "a unique topic number", qid)
        rows.append((qid, " ".join(value.split())))
    if not rows:
        raise InputError(path, 1, "at least one <top> … </top> topic")
    return pd.DataFrame(rows, columns=["qid", "query"])


class RepeatedKey(ValueError):
    """A JSON object with a key given twice (``json`` keeps the last silently); its one
    argument is the key."""


def _once_each_key(pairs: list) -> dict:
    """A JSON object's pairs as a dict; a key given twice is :class:`RepeatedKey`."""
    record = dict(pairs)
    if len(record) != len(pairs):
        seen: set = set()
        raise RepeatedKey(next(k for k, _ in pairs if k in seen or seen.add(k)))
    return record


def iter_json_lines(path: str | Path) -> Iterator[tuple[int, object, str]]:
    """``(line number, parsed value, raw line)`` for every non-blank line of a JSONL file;
    a line that is not JSON is an :class:`InputError` at its line."""
    for number, line in enumerate(_lines(path, streams.DOCUMENT_LINE_LIMIT), start=1):
        if not line.strip():
            continue
        try:
            yield number, json.loads(line, object_pairs_hook=_once_each_key), line
        except RepeatedKey as repeated:
            raise InputError(path, number, "each key once in a JSON object",
                             f"key {repeated.args[0]!r} twice") from None
        except json.JSONDecodeError as error:
            raise InputError(path, number, "a JSON object per line", str(error)) from None


def iter_docs_jsonl(path: str | Path, id_field: str = "docno",
                    text_fields: tuple[str, ...] = ("text",)) -> Iterator[tuple[int, dict]]:
    """JSONL documents → ``(line, {"docno", "text"})``; text fields are joined by newlines."""
    for number, record, line in iter_json_lines(path):
        if not isinstance(record, dict) or id_field not in record:
            raise InputError(path, number, f"a JSON object with the id field {id_field!r}",
                             line.strip()[:80])
        missing = [f for f in text_fields if f not in record]
        if missing:
            raise InputError(path, number, f"text fields {list(text_fields)}",
                             f"missing {missing}")
        text = "\n".join(str(record[f] or "") for f in text_fields)
        yield number, {"docno": str(record[id_field]).strip(), "text": text}


_DOC_OPEN = re.compile(r"<DOC>", re.I)
_DOC_CLOSE = re.compile(r"</DOC>", re.I)


def iter_docs_trec(path: str | Path) -> Iterator[tuple[int, dict]]:
    """TREC SGML documents → ``(line, {"docno", "text"})``; markup is stripped from the text.

    Streams: one pass over the lines, holding one document at a time (linear time,
    memory bounded by the longest document). A ``<DOC>`` is closed by the first
    ``</DOC>`` after it; text between documents is ignored; a ``<DOC>`` left open at the
    end of the file is an error at its line.
    """
    count, inside, start, parts = 0, False, 0, []
    for number, line in enumerate(_lines(path, streams.DOCUMENT_LINE_LIMIT), start=1):
        pos = 0
        while True:
            if not inside:
                opening = _DOC_OPEN.search(line, pos)
                if not opening:
                    break
                inside, start, parts, pos = True, number, [], opening.end()
                continue
            closing = _DOC_CLOSE.search(line, pos)
            if not closing:
                parts.append(line[pos:])
                break
            parts.append(line[pos:closing.start()])
            count += 1
            yield start, _trec_document(path, start, "".join(parts))
            inside, pos = False, closing.end()
    if inside:
        raise InputError(path, start, "a </DOC> closing this <DOC>", "end of file")
    if count == 0:
        raise InputError(path, 1, "at least one <DOC> … </DOC> document")


def _trec_document(path, line: int, body: str) -> dict:
    docno = re.search(r"<DOCNO>\s*(.*?)\s*</DOCNO>", body, flags=re.S | re.I)
    if not docno or not docno.group(1):
        raise InputError(path, line, "a <DOCNO> in every <DOC>", body.strip()[:60])
    rest = body[:docno.start()] + body[docno.end():]
    plain = html.unescape(re.sub(r"<[^>]+>", " ", rest))
    return {"docno": docno.group(1), "text": " ".join(plain.split())}
