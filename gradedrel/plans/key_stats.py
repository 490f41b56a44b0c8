"""Search keys as the index sees them: their indexed terms and document frequency.

A key's terms are its tokens (:func:`gradedrel.core.text.tokenise`) through the
index's term pipeline, stopwords dropped. Its document frequency is the df of
its term for a one-word key; for a multi-word key it is the number of
documents matching the phrase (``phrase_df``: Terrier's phrase operator, counted from
the posting arrays by :func:`posting_phrase_df`), or, when
no phrase counter is given, the smallest df of its terms (an upper bound). A
key is *in the index* when its df is positive.
"""
from __future__ import annotations

import functools
import math
from typing import Callable

from gradedrel.core.text import tokenise

Pipeline = Callable[[str], "str | None"]


class Terms:
    """Text → its indexed terms (tokens through the pipeline, stopwords out), cached."""

    def __init__(self, pipeline: Pipeline):
        self.pipeline = functools.lru_cache(maxsize=None)(pipeline)

    def __call__(self, text: str) -> tuple[str, ...]:
        return tuple(term for term in map(self.pipeline, tokenise(text)) if term)


class KeyStatistics:
    """Indexed terms and document frequencies of keys (phrases included), memoised."""

    def __init__(self, pipeline: Pipeline, term_df: Callable[[str], int], documents: int,
                 phrase_df: Callable[[tuple[str, ...]], int] | None = None):
        self.terms = Terms(pipeline)  # a key's indexed terms, in order (stopwords dropped)
        self.phrase_df = phrase_df
        self.term_df = term_df
        self.documents = documents

    @functools.cache  # memoised (statistics live as long as their run)
    def df(self, key: str) -> int:
        """min over the key's terms of their df (0 when a term is absent or no terms)."""
        terms = self.terms(key)
        found = min((self.term_df(t) for t in terms), default=0)
        if found and len(terms) > 1 and self.phrase_df is not None:
            return self.phrase_df(tuple(t for t in tokenise(key) if self.terms.pipeline(t)))
        return found

    def idf(self, key: str) -> float:
        """log(N / df), 0 for a key not in the index (it cannot discriminate)."""
        df = self.df(key)
        return math.log(self.documents / df) if df > 0 else 0.0


def terrier_term_df(index) -> Callable[[str], int]:
    """term → document frequency from a Terrier index's lexicon (0 if absent)."""
    lexicon = index.getLexicon()

    def df(term: str) -> int:
        entry = lexicon.getLexiconEntry(term)
        return 0 if entry is None else int(entry.getDocumentFrequency())

    return df


def posting_phrase_df(counter, phrase_operator: str = "auto") -> Callable[[tuple[str, ...]], int]:
    """tokens → number of documents the compiled queries' phrase operator matches.

    ``counter``: a :class:`gradedrel.collection.matches.MatchCounter` over the index's
    posting arrays, which follows Terrier's operators exactly (what Terrier's retrieval
    counts, without a result row per document: tests/terrier_counts.py), or any MatchOp
    query → count.
    """
    from gradedrel.collection.matches import phrase

    return lambda tokens: counter(f"#combine({phrase(tokens, phrase_operator)})")
