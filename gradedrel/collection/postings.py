"""A Terrier index's postings, with positions, as memory-mapped numpy arrays.

The InQuery back end (:mod:`gradedrel.retrieval.inquery`) scores with numpy over whole
posting lists, so the inverted index is read from Terrier *once* into
compressed-sparse-row arrays, one ``.npy`` file each in a directory
(``results/{c}/index_arrays/postings/``), which retrieval jobs open memory-mapped
(``np.load(mmap_mode="r")``): a job's memory grows with the posting lists its queries
touch, not with the collection.

- ``terms`` (sorted) and ``term_offsets``: the postings of term ``terms[i]`` are
  ``term_offsets[i]:term_offsets[i+1]``;
- per posting ``docids`` (Terrier's internal document ids, ascending within a
  term), ``tfs`` and ``position_offsets`` into ``positions`` (the block
  positions, ascending; Terrier counts positions over indexed terms only, so a
  stopword between two words does not separate them);
- per document ``doc_lengths`` (Terrier's document length: indexed tokens) and
  ``docnos``.

Reading (:func:`build`): ``PostingArraysWriter.java``, run by Java's source launcher with
the pinned Terrier on its class path, walks the lexicon and the inverted index once and
streams every array straight into its ``.npy`` file, checking each term's posting count
against the lexicon and the positions against the index's token count. Memory stays at
Terrier's own structures plus write buffers, whatever the collection's size. (Asking
Terrier for each posting through pyjnius, as before, cost three Java calls per posting:
about 0.1 million postings per second.)

``signature.json`` records the size and modification time of every index file; the
arrays are rebuilt if the index changed.
"""
from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gradedrel.core.io import atomic_folder

log = logging.getLogger("gradedrel")

CACHE_NAME = "postings"          # a directory of .npy files, one per array
SIGNATURE_FILE = "signature.json"


@dataclass(frozen=True)
class PostingArrays:
    """Postings of every term of one index; see the module docstring."""

    terms: np.ndarray            # str, sorted
    term_offsets: np.ndarray     # int64, len(terms) + 1
    docids: np.ndarray           # int32, one per posting
    tfs: np.ndarray              # int32, one per posting
    position_offsets: np.ndarray  # int64, postings + 1
    positions: np.ndarray        # int32
    doc_lengths: np.ndarray      # int64, one per document
    docnos: np.ndarray           # str, one per document

    @property
    def N(self) -> int:
        """Documents in the collection."""
        return int(len(self.doc_lengths))

    @property
    def avg_dl(self) -> float:
        """Mean document length (indexed tokens)."""
        return float(self.doc_lengths.mean()) if self.N else 0.0

    def _span(self, term: str) -> tuple[int, int]:
        """Where the postings of ``term`` are (empty for a term not in the index)."""
        i = int(np.searchsorted(self.terms, term))
        found = i < len(self.terms) and self.terms[i] == term
        return (self.term_offsets[i], self.term_offsets[i + 1]) if found else (0, 0)

    def postings(self, term: str) -> tuple[np.ndarray, np.ndarray]:
        """``(docids, tfs)`` of ``term`` (empty arrays for a term not in the index)."""
        lo, hi = self._span(term)
        return self.docids[lo:hi], self.tfs[lo:hi]

    def occurrences_in(self, term: str, docids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(docids, positions)``, one row per occurrence of ``term`` in ``docids`` (sorted,
        unique): gathers only their positions, so a phrase over frequent words costs what its
        rarest word's documents cost."""
        lo, hi = self._span(term)
        chosen = lo + np.flatnonzero(np.isin(self.docids[lo:hi], docids, assume_unique=True))
        starts, ends = self.position_offsets[chosen], self.position_offsets[chosen + 1]
        return np.repeat(self.docids[chosen], ends - starts), self.positions[_ranges(starts, ends)]


def index_signature(index_dir: str | Path) -> str:
    """Size and mtime of every file of the index, hashed: changes when the index does."""
    parts = [(p.name, p.stat().st_size, p.stat().st_mtime_ns)
             for p in sorted(Path(index_dir).iterdir()) if p.is_file()]
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:16]


WRITER = Path(__file__).with_name("PostingArraysWriter.java")
# a small, growing heap and the quick compiler: the writer's loop is simple, and its memory
# should stay near Terrier's own structures (benchmarks/README.md, "Scale")
JAVA_OPTIONS = ("-XX:+UseSerialGC", "-Xms16m", "-XX:TieredStopAtLevel=1")


def build(index_dir: str | Path, out_dir: str | Path, signature: str) -> dict:
    """Read every posting list (with positions), document lengths and docnos of the Terrier
    index in ``index_dir`` into ``out_dir`` (one ``.npy`` per array), with
    ``PostingArraysWriter.java`` run by the JVM that pyjnius started (its ``java`` and
    class path: the pinned Terrier). Written beside ``out_dir`` and moved into place, with
    the index's ``signature``, when complete (:func:`~gradedrel.core.io.atomic_folder`).
    Progress lines go to the log. Returns counts: postings, positions, terms, documents."""
    import subprocess

    from jnius import autoclass

    system = autoclass("java.lang.System")
    java = Path(system.getProperty("java.home")) / "bin" / "java"
    with atomic_folder(out_dir) as staging:
        command = [str(java), *JAVA_OPTIONS, "-cp", system.getProperty("java.class.path"),
                   str(WRITER), str(Path(index_dir).resolve()), str(staging.resolve())]
        with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True) as process:
            errors = []
            for line in process.stderr:
                line = line.rstrip()
                if line.startswith(("postings:", "wrote ")):
                    log.info("%s", line)
                else:
                    errors.append(line)
        if process.returncode:
            raise RuntimeError(f"{WRITER.name} failed on {index_dir}: "
                               + " | ".join(e for e in errors if e)[-2000:])
        arrays = _open(staging)
        if len(arrays.terms) > 1 and not bool(np.all(arrays.terms[:-1] < arrays.terms[1:])):
            # Java orders strings by UTF-16 code units, numpy by code points: they differ only
            # for characters beyond U+FFFF against U+E000-U+FFFF. Rare; reordered in memory.
            log.warning("terms out of numpy's order: reordering the postings in memory")
            moved = _reorder(arrays, np.argsort(arrays.terms, kind="stable"))
            del arrays
            for name, values in moved.items():
                np.save(staging / f"{name}.npy", values)
            arrays = _open(staging)
        summary = {"postings": len(arrays.docids), "positions": len(arrays.positions),
                   "terms": len(arrays.terms), "documents": arrays.N}
        del arrays
        (staging / SIGNATURE_FILE).write_text(json.dumps({"signature": signature}) + "\n")
    return summary


def _reorder(arrays: PostingArrays, order: np.ndarray) -> dict[str, np.ndarray]:
    """The arrays with the terms put in ``order``, their postings and positions moved along
    (the per-document arrays stay)."""
    starts, ends = arrays.term_offsets[order], arrays.term_offsets[order + 1]
    moved = _ranges(starts, ends)
    tfs = arrays.tfs[moved]
    offsets = arrays.position_offsets
    return {"terms": arrays.terms[order],
            "term_offsets": np.concatenate([[0], np.cumsum(ends - starts)]).astype(np.int64),
            "docids": arrays.docids[moved], "tfs": tfs,
            "position_offsets": np.concatenate([[0], np.cumsum(tfs)]).astype(np.int64),
            "positions": arrays.positions[_ranges(offsets[moved], offsets[moved + 1])]}


def _ranges(starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """``concatenate([arange(s, e) for s, e in zip(starts, ends)])``, vectorised."""
    lengths = (ends - starts).astype(np.int64)
    if lengths.sum() == 0:
        return np.zeros(0, np.int64)
    shift = np.repeat(starts - np.concatenate([[0], np.cumsum(lengths)[:-1]]), lengths)
    return np.arange(lengths.sum(), dtype=np.int64) + shift


def _open(out_dir: Path) -> PostingArrays:
    return PostingArrays(**{name: np.load(out_dir / f"{name}.npy", mmap_mode="r",
                                          allow_pickle=False)
                            for name in PostingArrays.__dataclass_fields__})


def load(out_dir: str | Path) -> tuple[PostingArrays, str]:
    """The arrays of ``out_dir``, memory-mapped (read-only), and their index signature.
    Arrays that cannot be opened, or whose lengths disagree (a file truncated or
    replaced), are a :class:`~gradedrel.core.errors.CorruptCache` naming the directory."""
    from gradedrel.core.errors import CorruptCache

    out_dir = Path(out_dir)
    try:
        arrays = _open(out_dir)
        signature = json.loads((out_dir / SIGNATURE_FILE).read_text())["signature"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise CorruptCache(out_dir, f"{type(error).__name__}: {error}", WHAT) from None
    problem = _inconsistency(arrays)
    if problem:
        raise CorruptCache(out_dir, problem, WHAT)
    return arrays, str(signature)


WHAT = "posting-array cache"


def _inconsistency(a: PostingArrays) -> str | None:
    """What disagrees between the arrays' lengths and offsets (None: nothing)."""
    postings, positions = len(a.docids), len(a.positions)
    checks = [(len(a.term_offsets) == len(a.terms) + 1, "term_offsets, terms"),
              (len(a.tfs) == postings, "tfs, docids"),
              (len(a.position_offsets) == postings + 1, "position_offsets, docids"),
              (len(a.doc_lengths) == len(a.docnos), "doc_lengths, docnos")]
    for ok, names in checks:
        if not ok:
            return f"the lengths of {names} disagree"
    if (len(a.term_offsets) and int(a.term_offsets[-1]) != postings) or \
            (len(a.position_offsets) and int(a.position_offsets[-1]) != positions):
        return "the last offsets do not end at the postings and positions"
    return None


def checked(index_dir: str | Path, out_dir: str | Path) -> PostingArrays:
    """The arrays of ``out_dir`` (memory-mapped), which must have been read from the index in
    ``index_dir`` as it is now; a clear error otherwise (rebuild rule ``index_arrays``)."""
    arrays, stored = load(out_dir)
    if stored != index_signature(index_dir):
        raise ValueError(f"{out_dir}: the posting arrays were read from another state of "
                         f"{index_dir} (signature {stored}); rebuild them (rule index_arrays)")
    return arrays


def cached(index_dir: str | Path, cache_dir: str | Path | None = None) -> PostingArrays:
    """The index's postings from ``cache_dir/postings/``, read from Terrier if stale or absent.

    ``cache_dir`` defaults to ``index_arrays`` beside the index directory
    (``results/{c}/index_arrays/``). Reading from Terrier needs the JVM started.
    """
    index_dir = Path(index_dir)
    cache = Path(cache_dir) if cache_dir else index_dir.parent / "index_arrays"
    path = cache / CACHE_NAME
    signature = index_signature(index_dir)
    if (path / SIGNATURE_FILE).exists():
        try:
            arrays, stored = load(path)
        except ValueError as error:  # corrupt (a CorruptCache): rebuilt below
            log.warning("%s: a corrupt %s (%s); rebuilding it", path, WHAT,
                        getattr(error, "found", error))
            stored = None
        if stored == signature:
            return arrays
        if stored is not None:
            log.info("%s is stale (index changed): reading postings again", path)
    from gradedrel.core.terrier import read_properties

    if read_properties(index_dir).get("index.inverted.blocks", "0") in ("0", "false"):
        raise ValueError(f"{index_dir}: the index has no positions; build it with blocks=True")
    summary = build(index_dir, path, signature)
    log.info("read %d postings of %d terms over %d documents into %s",
             summary["postings"], summary["terms"], summary["documents"], path)
    return load(path)[0]
