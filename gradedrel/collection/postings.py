"""A Terrier index's postings, with positions, as cached numpy arrays.

The InQuery back end (:mod:`gradedrel.retrieval.inquery`) scores with numpy over whole
posting lists, so the inverted index is read from Terrier *once* (one pass over
its inverted-index input stream, in lexicon order) into compressed-sparse-row
arrays and saved as ``.npz``:

- ``terms`` (sorted) and ``term_offsets``: the postings of term ``terms[i]`` are
  ``term_offsets[i]:term_offsets[i+1]``;
- per posting ``docids`` (Terrier's internal document ids, ascending within a
  term), ``tfs`` and ``position_offsets`` into ``positions`` (the block
  positions, ascending; Terrier counts positions over indexed terms only, so a
  stopword between two words does not separate them);
- per document ``doc_lengths`` (Terrier's document length: indexed tokens) and
  ``docnos``.

The cache records the size and modification time of every index file, and is
rebuilt if the index changed.
"""
from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gradedrel.core.io import atomic_open
from gradedrel.core.progress import progress

log = logging.getLogger("gradedrel")

CACHE_NAME = "postings.npz"
_BLOCK_POSTING = "org.terrier.structures.postings.BlockPosting"


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

    def term_id(self, term: str) -> int | None:
        i = int(np.searchsorted(self.terms, term))
        return i if i < len(self.terms) and self.terms[i] == term else None

    def postings(self, term: str) -> tuple[np.ndarray, np.ndarray]:
        """``(docids, tfs)`` of ``term`` (empty arrays for a term not in the index)."""
        i = self.term_id(term)
        if i is None:
            return np.zeros(0, np.int32), np.zeros(0, np.int32)
        lo, hi = self.term_offsets[i], self.term_offsets[i + 1]
        return self.docids[lo:hi], self.tfs[lo:hi]

    def occurrences(self, term: str) -> tuple[np.ndarray, np.ndarray]:
        """``(docids, positions)``: one row per occurrence of ``term``."""
        i = self.term_id(term)
        if i is None:
            return np.zeros(0, np.int32), np.zeros(0, np.int32)
        lo, hi = self.term_offsets[i], self.term_offsets[i + 1]
        plo, phi = self.position_offsets[lo], self.position_offsets[hi]
        counts = np.diff(self.position_offsets[lo:hi + 1])
        return np.repeat(self.docids[lo:hi], counts), self.positions[plo:phi]


    def occurrences_in(self, term: str, docids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`occurrences` restricted to ``docids`` (sorted, unique): gathers only their
        positions, so a phrase over frequent words costs what its rarest word's documents cost."""
        i = self.term_id(term)
        if i is None:
            return np.zeros(0, np.int32), np.zeros(0, np.int32)
        lo, hi = self.term_offsets[i], self.term_offsets[i + 1]
        chosen = lo + np.flatnonzero(np.isin(self.docids[lo:hi], docids, assume_unique=True))
        starts, ends = self.position_offsets[chosen], self.position_offsets[chosen + 1]
        return np.repeat(self.docids[chosen], ends - starts), self.positions[_ranges(starts, ends)]


def from_postings(postings: dict[str, list[tuple[int, list[int]]]], doc_lengths,
                  docnos) -> PostingArrays:
    """Build arrays from ``{term: [(docid, [positions…]), …]}`` (tests, small cases)."""
    terms = sorted(postings)
    offsets, docids, tfs, pos_offsets, positions = [0], [], [], [0], []
    for term in terms:
        for docid, pos in sorted(postings[term]):
            docids.append(docid)
            tfs.append(len(pos))
            positions.extend(sorted(pos))
            pos_offsets.append(len(positions))
        offsets.append(len(docids))
    return PostingArrays(np.array(terms, dtype=str), np.array(offsets, np.int64),
                         np.array(docids, np.int32), np.array(tfs, np.int32),
                         np.array(pos_offsets, np.int64), np.array(positions, np.int32),
                         np.asarray(doc_lengths, np.int64), np.array(docnos, dtype=str))


def index_signature(index_dir: str | Path) -> str:
    """Size and mtime of every file of the index, hashed: changes when the index does."""
    parts = [(p.name, p.stat().st_size, p.stat().st_mtime_ns)
             for p in sorted(Path(index_dir).iterdir()) if p.is_file()]
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:16]


def read_index(index) -> PostingArrays:
    """Read every posting list (with positions), document lengths and docnos from Terrier.

    One pass over the inverted-index input stream; about 0.2 million postings per
    second through pyjnius (Cranfield: 81,016 postings in under half a second).
    """
    import pyterrier as pt

    lexicon = index.getIndexStructureInputStream("lexicon")
    inverted = index.getIndexStructureInputStream("inverted")
    terms, dfs, docids, npos, positions = [], [], [], [], []
    bar = progress(desc="reading posting lists", unit="terms",
                   total=index.getCollectionStatistics().getNumberOfUniqueTerms())
    while lexicon.hasNext():
        entry = lexicon.next()
        term, stats = str(entry.getKey()), entry.getValue()
        if not inverted.hasNext():
            raise RuntimeError(f"inverted index ends before the lexicon, at term {term!r}")
        posting = inverted.next()
        block = pt.java.cast(_BLOCK_POSTING, posting)
        advance, docid, get_positions, eol = posting.next, posting.getId, block.getPositions, posting.EOL
        read = 0
        while advance() != eol:
            docids.append(docid())
            pos = get_positions()
            npos.append(len(pos))
            positions.extend(pos)
            read += 1
        if read != stats.getDocumentFrequency():
            raise RuntimeError(f"term {term!r}: {read} postings, lexicon says "
                               f"{stats.getDocumentFrequency()}")
        terms.append(term)
        dfs.append(read)
        bar.update()
    bar.close()
    lexicon.close()
    inverted.close()
    docs = index.getDocumentIndex()
    n = index.getCollectionStatistics().getNumberOfDocuments()
    doc_lengths = np.array([docs.getDocumentLength(i) for i in range(n)], np.int64)
    meta = index.getMetaIndex()
    docnos = np.array([str(meta.getItem("docno", i)) for i in range(n)], dtype=str)
    # with one-token blocks a posting's positions are its occurrences, so tf = len(positions),
    # unless a document outgrew index.*.blocks.max; then the totals disagree, and we stop
    tokens = index.getCollectionStatistics().getNumberOfTokens()
    if len(positions) != tokens:
        raise RuntimeError(f"{len(positions)} positions read but the index holds {tokens} tokens "
                           "(block size above 1, or documents longer than blocks.max)")
    order = np.argsort(np.array(terms, dtype=str), kind="stable")
    term_offsets = np.concatenate([[0], np.cumsum(dfs)]).astype(np.int64)
    arrays = _reorder(np.array(terms, dtype=str), term_offsets, np.array(docids, np.int32),
                      np.array(npos, np.int32), np.array(positions, np.int32), order)
    return PostingArrays(*arrays, doc_lengths=doc_lengths, docnos=docnos)


def _reorder(terms, term_offsets, docids, tfs, positions, order):
    """Put terms in ``order`` (sorted), moving their postings and positions along."""
    position_offsets = np.concatenate([[0], np.cumsum(tfs)]).astype(np.int64)
    if np.all(order == np.arange(len(order))):
        return terms, term_offsets, docids, tfs, position_offsets, positions
    starts, ends = term_offsets[order], term_offsets[order + 1]
    posting_idx = _ranges(starts, ends)
    new_tfs = tfs[posting_idx]
    pos_idx = _ranges(position_offsets[posting_idx], position_offsets[posting_idx + 1])
    new_offsets = np.concatenate([[0], np.cumsum(ends - starts)]).astype(np.int64)
    return (terms[order], new_offsets, docids[posting_idx], new_tfs,
            np.concatenate([[0], np.cumsum(new_tfs)]).astype(np.int64), positions[pos_idx])


def _ranges(starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """``concatenate([arange(s, e) for s, e in zip(starts, ends)])``, vectorised."""
    lengths = (ends - starts).astype(np.int64)
    if lengths.sum() == 0:
        return np.zeros(0, np.int64)
    shift = np.repeat(starts - np.concatenate([[0], np.cumsum(lengths)[:-1]]), lengths)
    return np.arange(lengths.sum(), dtype=np.int64) + shift


def save(arrays: PostingArrays, path: str | Path, signature: str) -> None:
    """Write the arrays as one ``.npz`` (atomically)."""
    with atomic_open(path, "wb") as handle:
        np.savez(handle, signature=np.array(signature), **{
            name: getattr(arrays, name) for name in PostingArrays.__dataclass_fields__})


def load(path: str | Path) -> tuple[PostingArrays, str]:
    with np.load(path, allow_pickle=False) as data:
        arrays = PostingArrays(**{name: data[name] for name in PostingArrays.__dataclass_fields__})
        return arrays, str(data["signature"])


def cached(index_dir: str | Path, cache_dir: str | Path | None = None) -> PostingArrays:
    """The index's postings from ``cache_dir/postings.npz``, read from Terrier if stale or absent.

    ``cache_dir`` defaults to ``index_arrays`` beside the index directory
    (``results/{c}/index_arrays/``). Reading from Terrier needs the JVM started.
    """
    index_dir = Path(index_dir)
    cache = Path(cache_dir) if cache_dir else index_dir.parent / "index_arrays"
    path = cache / CACHE_NAME
    signature = index_signature(index_dir)
    if path.exists():
        arrays, stored = load(path)
        if stored == signature:
            return arrays
        log.info("%s is stale (index changed): reading postings again", path)
    from gradedrel.core.terrier import open_index, read_properties

    if read_properties(index_dir).get("index.inverted.blocks", "0") in ("0", "false"):
        raise ValueError(f"{index_dir}: the index has no positions; build it with blocks=True")
    arrays = read_index(open_index(index_dir))
    save(arrays, path, signature)
    log.info("read %d postings of %d terms over %d documents into %s",
             len(arrays.docids), len(arrays.terms), arrays.N, path)
    return arrays
