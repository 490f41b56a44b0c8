"""TREC run files: ``qid Q0 docno rank score tag``."""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from gradedrel.core import lazy

np = lazy.module("numpy")
pd = lazy.module("pandas")

from gradedrel.core.errors import InputError, once
from gradedrel.core.io import NOT_IN_ID, atomic_open
from gradedrel.core.streams import log_bom, read_bounded

#: A character that may not appear in a run line: whitespace other than space, tab and
#: the line end, or a control character (pandas would keep it inside an id; trec_eval splits).
FOREIGN = re.compile(r"[^\S \t\n\r]|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def write_run(run: pd.DataFrame, path: str | Path, tag: str, topic_order: list[str],
              record: Mapping | None = None) -> None:
    """Write ``qid, docno, rank, score`` as a TREC run (six columns a line, nothing else:
    what trec_eval, pytrec_eval, ir_measures and PyTerrier read), topics in
    ``topic_order`` (the topics the run was retrieved for: every topic it holds), scores
    with 10 significant digits; ``record`` (the run's ir_metadata) in the file beside it
    (:func:`gradedrel.core.ir_metadata.record_path`)."""
    order = {qid: i for i, qid in enumerate(topic_order)}
    for column, values in (("qid", pd.unique(run["qid"].astype(str))),
                           ("docno", pd.unique(run["docno"].astype(str))), ("tag", [tag])):
        bad = [v for v in values if NOT_IN_ID.search(v)]  # six fields, read back
        if bad:
            raise ValueError(f"{path}: a {column} with whitespace or a control character "
                             f"cannot be written as a TREC run field: {bad[0]!r}")
    run = run.assign(_order=run["qid"].map(order)).sort_values(["_order", "rank"], kind="stable")
    # plain lists: walking pandas' string arrays costs several times the formatting
    rows = zip(run["qid"].tolist(), run["docno"].tolist(), run["rank"].tolist(),
               run["score"].tolist())
    with atomic_open(path) as handle:
        handle.writelines(f"{qid} Q0 {docno} {int(rank)} {score:.10g} {tag}\n"
                          for qid, docno, rank, score in rows)
    if record is not None:
        from gradedrel.core import ir_metadata

        with atomic_open(ir_metadata.record_path(path)) as handle:
            handle.write(ir_metadata.dump(record))


# --- Reading: strict, and ranked as trec_eval ranks ----------------------------------------

RUN_FIELDS = ["qid", "q0", "docno", "rank", "score", "tag"]


@dataclass(frozen=True)
class RankedRun:
    """A run in trec_eval order (within a topic: score descending, then document id
    descending; the rank column ignored), as flat arrays, topic after topic in order of
    first appearance. Document ids are also codes into ``vocabulary``, so that joining
    the qrels needs no string hashing per row."""

    topics: np.ndarray      # distinct qids (object)
    topic: np.ndarray       # int64 per row, index into topics, non-decreasing
    docno: np.ndarray       # object per row
    score: np.ndarray       # float64 per row
    doc_code: np.ndarray    # int64 per row, index into vocabulary
    vocabulary: np.ndarray  # distinct docnos (object)
    source: str = "<run>"

    def __len__(self) -> int:
        return len(self.docno)

    def rank(self) -> np.ndarray:
        """1-based rank of each row within its topic."""
        starts = np.searchsorted(self.topic, np.arange(len(self.topics)))
        return np.arange(len(self.topic)) - starts[self.topic] + 1

    def to_frame(self) -> pd.DataFrame:
        """``qid, docno, rank, score`` in ranked order."""
        return pd.DataFrame({"qid": self.topics[self.topic], "docno": self.docno,
                             "rank": self.rank(), "score": self.score})


def read_run(path: str | Path) -> RankedRun:
    """Read a TREC run file ``qid Q0 docno rank score tag`` strictly and rank it: six
    fields a line, a finite score, a document once per topic; the first violation is an
    :class:`InputError` naming the file and line (found by a line-by-line pass over the
    bytes read, only when pandas' C reader finds something wrong: the input is read once,
    and may be a pipe). An annotated run's ir_metadata header (the layout of results written
    before run files became plain TREC) is skipped."""
    path = Path(path)
    whole = read_bounded(path, "a TREC run as UTF-8 text")  # once: it may be a pipe
    data = whole[header_bytes(path, whole):]
    log_bom(path, data)  # pandas' reader strips it
    if has_foreign_bytes(data):
        locate_run_error(path, whole)
    try:
        # All six fields are read: only then does the C reader reject a seventh.
        frame = pd.read_csv(io.BytesIO(data), sep=r"\s+", header=None, names=RUN_FIELDS,
                            dtype={"qid": str, "q0": str, "docno": str, "rank": str,
                                   "score": np.float64, "tag": str},
                            na_filter=False, engine="c", quoting=csv.QUOTE_NONE,
                            skip_blank_lines=True)
    except (ValueError, pd.errors.ParserError, pd.errors.EmptyDataError) as error:
        locate_run_error(path, whole)
        raise InputError(path, None, "a TREC run 'qid Q0 docno rank score tag'",
                         str(error)) from None
    qid = frame["qid"].to_numpy(dtype=object)
    docno = frame["docno"].to_numpy(dtype=object)
    score = frame["score"].to_numpy(dtype=np.float64)
    tag = frame["tag"].to_numpy(dtype=object)
    bad = (tag == "") | ~np.isfinite(score)
    if bad.any() or len(frame) == 0:
        locate_run_error(path, whole)
    try:
        return rank_rows(qid, docno, score, source=str(path))
    except InputError:
        locate_run_error(path, whole)
        raise


#: Bytes a run file may hold anywhere: printable ASCII, tab, line ends, and every byte of
#: a multi-byte UTF-8 character (those are searched only in a non-ASCII file).
_ALLOWED_BYTES = bytes(range(0x20, 0x7f)) + b"\t\n\r" + bytes(range(0x80, 0x100))


def has_foreign_bytes(data: bytes) -> bool:
    """Whether a run file's bytes hold a :data:`FOREIGN` character (one ``translate`` pass;
    the Unicode spaces searched only in a non-ASCII file, UTF-8 as read)."""
    if data.translate(None, _ALLOWED_BYTES):
        return True
    return not data.isascii() and FOREIGN.search(data.decode("utf-8")) is not None


#: Significant digits of a score in a run file (``%.10g``): ranks are set on scores as written.
SCORE_DIGITS = 10


def round_scores(scores: np.ndarray, digits: int = SCORE_DIGITS) -> np.ndarray:
    """Scores as a run file holds them (``%.{digits}g``), so ranks agree with trec_eval's order."""
    return np.array([float(f"{s:.{digits}g}") for s in np.asarray(scores).tolist()],
                    dtype=np.float64)


def trec_eval_ranking(run: pd.DataFrame) -> pd.DataFrame:
    """``qid, docno, rank, score`` ranked as trec_eval ranks a run file (scores as written,
    10 significant digits): the one ranking of every back end and the baseline."""
    if run.empty:
        return pd.DataFrame({"qid": pd.Series(dtype=str), "docno": pd.Series(dtype=str),
                             "rank": pd.Series(dtype=int), "score": pd.Series(dtype=float)})
    run = run.assign(score=round_scores(run["score"].to_numpy(np.float64)))
    return rank_frame(run).to_frame()


def rank_frame(run: pd.DataFrame, source: str = "<run>") -> RankedRun:
    """Rank an in-memory run (columns ``qid, docno, score``) as :func:`read_run` does."""
    score = pd.to_numeric(run["score"], errors="coerce").to_numpy(dtype=np.float64)
    if not np.isfinite(score).all():
        row = int(np.flatnonzero(~np.isfinite(score))[0])
        raise InputError(source, row + 1, "a finite numeric score", run["score"].iloc[row])
    return rank_rows(run["qid"].astype(str).to_numpy(dtype=object),
                     run["docno"].astype(str).to_numpy(dtype=object), score, source=source)


def rank_rows(qid: np.ndarray, docno: np.ndarray, score: np.ndarray,
              source: str = "<run>") -> RankedRun:
    """Order rows as trec_eval does: topic (first appearance), score desc, docno desc; a
    (topic, document) pair twice is an :class:`InputError` naming it and its 1-based row."""
    topic, topics = pd.factorize(qid)
    doc_code, vocabulary = pd.factorize(docno)
    topic = topic.astype(np.int64)
    doc_code = doc_code.astype(np.int64)
    n_docs = max(len(vocabulary), 1)
    key = topic * n_docs + doc_code
    repeated = pd.Series(key).duplicated().to_numpy()
    if repeated.any():  # the first pair that repeats, in file order
        row = int(np.argmax(repeated))
        first = int(np.flatnonzero(key == key[row])[0])
        raise InputError(source, row + 1, f"each document once per topic; first at row {first + 1}",
                         f"topic {qid[row]} document {docno[row]}")
    # ties by document id descending: code-point order = UTF-8 byte order = strcmp's
    text_rank = np.empty(len(vocabulary), dtype=np.int64)
    text_rank[text_order(vocabulary)] = np.arange(len(vocabulary))
    order = _trec_eval_order(topic, score, text_rank[doc_code])
    return RankedRun(topics=np.asarray(topics, dtype=object), topic=topic[order],
                     docno=docno[order], score=score[order], doc_code=doc_code[order],
                     vocabulary=np.asarray(vocabulary, dtype=object), source=source)


def text_order(values) -> np.ndarray:
    """Indices that sort ``values`` (strings) in code-point order, without copying them
    into a fixed-width array (memory stays proportional to the total text)."""
    values = list(values)
    return np.fromiter(sorted(range(len(values)), key=values.__getitem__), dtype=np.int64,
                       count=len(values))


def _trec_eval_order(topic: np.ndarray, score: np.ndarray, text_rank: np.ndarray) -> np.ndarray:
    """Row order by topic, score descending, document id descending: one vectorised check
    for a file already in order (every run file this package writes), else ``np.lexsort``."""
    if len(topic) < 2:
        return np.arange(len(topic))
    same = topic[1:] == topic[:-1]
    in_order = (topic[1:] >= topic[:-1]) & (
        ~same | (score[1:] < score[:-1]) |
        ((score[1:] == score[:-1]) & (text_rank[1:] < text_rank[:-1])))
    if in_order.all():
        return np.arange(len(topic))
    return np.lexsort((-text_rank, -score, topic))


def header_bytes(path: str | Path, data: bytes) -> int:
    """How many bytes at the start of a run file's ``data`` are its ir_metadata header (0
    without one); a start without an end is an :class:`InputError`."""
    from gradedrel.core.ir_metadata import END, START

    start = START.encode()
    if not (data.startswith(start + b"\n") or data.startswith(start + b"\r\n")):
        return 0
    for end in (b"\n" + END.encode() + b"\n", b"\n" + END.encode() + b"\r\n"):
        at = data.find(end)
        if at >= 0:
            return at + len(end)
    if data.rstrip(b"\r\n").endswith(b"\n" + END.encode()):
        return len(data)
    raise InputError(path, 1, f"an ir_metadata header closed by a line '{END}'",
                     f"'{START}' without it")


def locate_run_error(path: str | Path, data: bytes) -> None:
    """Go through a run's bytes ``data`` (UTF-8, as read from ``path``) line by line and
    raise :class:`InputError` at the first bad line (the lines of an ir_metadata header
    skipped, counted): the bytes already read, never the file again."""
    seen: dict[tuple[str, str], int] = {}
    lines = 0
    header = data[:header_bytes(path, data)].count(b"\n")
    with io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig") as handle:
        for number, line in enumerate(handle, start=1):
            if number <= header:
                continue
            foreign = FOREIGN.search(line.rstrip("\r\n"))
            if foreign:
                raise InputError(path, number, "a TREC run line of fields separated by spaces "
                                 f"or tabs, without other whitespace or control characters "
                                 f"(found U+{ord(foreign.group()):04X})", line.rstrip("\r\n"))
            parts = line.split()
            if not parts:
                continue
            lines += 1
            if len(parts) != 6:
                raise InputError(path, number, "a TREC run line 'qid Q0 docno rank score tag' "
                                 "(6 fields)", line.rstrip("\n"))
            qid, _, docno, _, score, _ = parts
            try:
                value = float(score)
            except ValueError:
                raise InputError(path, number, "a numeric score (field 5)", score) from None
            if not np.isfinite(value):
                raise InputError(path, number, "a finite score (field 5)", score)
            once(seen, (qid, docno), path, number, "each document once per topic",
                 f"topic {qid} document {docno}")
    if lines == 0:
        raise InputError(path, None, "at least one TREC run line", "an empty file")
