"""Posting arrays built in memory for the tests (small cases, no Terrier index)."""
from __future__ import annotations

import json

import numpy as np

from gradedrel.collection import postings
from gradedrel.collection.postings import PostingArrays
from gradedrel.core.io import atomic_folder


def from_postings(postings: dict[str, list[tuple[int, list[int]]]], doc_lengths,
                  docnos) -> PostingArrays:
    """Build arrays from ``{term: [(docid, [positions…]), …]}`` (small cases)."""
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


def save(arrays: PostingArrays, out_dir, signature: str) -> None:
    """Write arrays held in memory as ``out_dir``, one ``.npy`` each, as the package's cache
    (as :func:`postings.build` stages it: the folder replaced whole, with the signature file)."""
    with atomic_folder(out_dir) as staging:
        for name in PostingArrays.__dataclass_fields__:
            np.save(staging / f"{name}.npy", getattr(arrays, name))
        (staging / postings.SIGNATURE_FILE).write_text(json.dumps({"signature": signature}) + "\n")
