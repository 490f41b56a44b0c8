"""Document counts retrieved from a Terrier index (Terrier's Tf model, every matching
document retrieved): the independent check of the counts the package takes from the posting
arrays (:class:`gradedrel.collection.matches.MatchCounter`), for the tests and
benchmarks/scale.py."""
from __future__ import annotations

import functools
from typing import Callable

from gradedrel.plans import key_stats


def terrier_phrase_df(index, phrase_operator: str = "auto") -> Callable[[tuple[str, ...]], int]:
    """tokens → number of documents matching the phrase in a Terrier index.

    Counted as the documents Terrier retrieves for the phrase alone (Tf model,
    every matching document scores > 0), i.e. exactly the documents the
    compiled queries' phrase operator matches. One result row per matching document:
    the independent check of
    :func:`gradedrel.plans.key_stats.posting_phrase_df`.
    """
    documents = int(index.getCollectionStatistics().getNumberOfDocuments())
    return key_stats.posting_phrase_df(document_counter(index, documents), phrase_operator)


def document_counter(index, documents: int) -> Callable[[str], int]:
    """How many documents a MatchOp query matches (Terrier's Tf model, every document
    retrieved), cached per query: the independent check of the posting arrays' counts."""
    import pyterrier as pt

    counter = pt.terrier.Retriever(index, wmodel="Tf", num_results=documents + 1)
    return functools.lru_cache(maxsize=None)(lambda query: len(counter.search(query)))
