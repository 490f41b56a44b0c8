"""Small posting arrays for the tests (:class:`gradedrel.collection.postings.PostingArrays`
built from a dict of posting lists, without Terrier)."""
from __future__ import annotations

import numpy as np

from gradedrel.collection.postings import PostingArrays


def from_postings(lists: dict[str, list[tuple[int, list[int]]]], doc_lengths,
                  docnos) -> PostingArrays:
    """Posting arrays from ``{term: [(docid, [positions…]), …]}``."""
    terms = sorted(lists)
    offsets, docids, tfs, pos_offsets, positions = [0], [], [], [0], []
    for term in terms:
        for docid, pos in sorted(lists[term]):
            docids.append(docid)
            tfs.append(len(pos))
            positions.extend(sorted(pos))
            pos_offsets.append(len(positions))
        offsets.append(len(docids))
    return PostingArrays(np.array(terms, dtype=str), np.array(offsets, np.int64),
                         np.array(docids, np.int32), np.array(tfs, np.int32),
                         np.array(pos_offsets, np.int64), np.array(positions, np.int32),
                         np.asarray(doc_lengths, np.int64), np.array(docnos, dtype=str))
