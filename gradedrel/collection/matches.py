"""The documents Terrier's MatchOp operators match, counted from the posting arrays.

Planning (a multi-word key's document frequency) and the ``#syn`` statistics need the
number of documents a phrase or a ``#syn`` group matches in Terrier. Retrieving every
matching document costs a result row per document; the same sets follow from the
posting arrays with positions (:mod:`gradedrel.collection.postings`), provided they
follow Terrier 5.11's operators exactly (``terrier-core`` 5.11, read from its classes and
checked against its retrieval in ``tests/queries/test_matches_terrier.py``):

- ``#1(t_1 … t_n)`` (``PhraseOp`` → ``PhraseIterablePosting``): ordered, adjacent — but
  over the terms in the order ``ANDIterablePosting`` sorts them: by document frequency,
  descending, stable. ``MultiTermOp.mergeStatistics`` first adds every term's statistics
  into the *first* term's entry, so t_1 stays first and t_2 … t_n follow by descending df
  (ties in query order). Two-term phrases are therefore what they say; ``#1(cat dog cow)``
  with df(cow) > df(dog) matches "cat cow dog". (This is why ``#1`` over three or more
  terms "matched no document" for many Cranfield keys: docs/query-types.md.)
- ``#uwN(t_1 … t_n)`` (``UnorderedWindowOp`` → ``ProximityIterablePosting``): some
  window of max(N, n) consecutive positions holds every term, a term written k times
  at k distinct positions.
- ``#syn(m_1 … m_k)`` (``SynonymOp``): the documents any member matches; a member whose
  terms are not all in the index matches nothing (``#1``/``#uw`` need every term).
- Positions are Terrier's block positions, counted over indexed terms only, so a stopword
  between two words does not separate them (the arrays hold the same positions).

Terms are given as the MatchOp text writes them (surface tokens, ``#base64(…)`` for
non-ASCII ones) and mapped through the index's term pipeline, as Terrier's query
pipeline does.
"""
from __future__ import annotations

import base64
import re
from typing import Callable

import numpy as np

from gradedrel.collection.postings import PostingArrays

#: A MatchOp term written as it is (else ``#base64(…)``: :func:`term`).
_PLAIN = re.compile(r"^[a-z0-9]+$")


def term(token: str) -> str:
    """One token as a MatchOp term: as it is if plain ASCII, else ``#base64(…)``."""
    if _PLAIN.match(token):
        return token
    return f"#base64({base64.b64encode(token.encode('utf-8')).decode('ascii')})"


def phrase(tokens: tuple[str, ...] | list[str], operator: str = "auto") -> str:
    """A multi-word key as a Terrier proximity operator.

    ``#1``: ordered, adjacent; ``#uwN``: unordered window of N; ``#uw``: unordered
    window as wide as the key (its words adjacent, any order); ``auto``: ``#1`` for
    two words, ``#uw`` for more — Terrier 5.11's ``#1`` over three or more terms
    matched no document for 37 of the 73 such keys of the Cranfield plans although
    the phrase occurs (docs/query-types.md).
    """
    tokens = [term(t) for t in tokens]
    if len(tokens) == 1:
        return tokens[0]
    if operator == "auto":
        operator = "#1" if len(tokens) == 2 else "#uw"
    if operator == "#uw":
        operator = f"#uw{len(tokens)}"
    return f"{operator}({' '.join(tokens)})"


Pipeline = Callable[[str], "str | None"]

_EMPTY = np.zeros(0, np.int64)


def terrier_phrase_order(terms: tuple[str, ...], df: Callable[[str], int]) -> tuple[str, ...]:
    """The order in which Terrier 5.11's ``#1`` matches ``terms`` (see the module docstring)."""
    if len(terms) < 3:
        return tuple(terms)
    rest = sorted(range(1, len(terms)), key=lambda i: -df(terms[i]))  # stable: ties keep order
    return (terms[0], *(terms[i] for i in rest))


def _occurrence_codes(arrays: PostingArrays, term: str, docids: np.ndarray,
                      stride: np.int64) -> np.ndarray:
    """Occurrences of ``term`` in ``docids`` as sorted ``doc * stride + position`` codes."""
    docs, positions = arrays.occurrences_in(term, docids)
    return np.sort(docs.astype(np.int64) * stride + positions.astype(np.int64))


def every_term_documents(arrays: PostingArrays, terms: tuple[str, ...]) -> np.ndarray:
    """Internal ids (sorted) of the documents holding every one of ``terms`` (index terms,
    after the pipeline), anywhere and in any order: the documents that *contain a key*
    (Amendment 1, A6), the only ones a proximity operator can match. No terms: no document."""
    common = None
    for term in sorted(set(terms), key=lambda t: len(arrays.postings(t)[0])):
        docids = arrays.postings(term)[0]
        common = docids if common is None else np.intersect1d(common, docids, assume_unique=True)
        if common.size == 0:
            break
    return _EMPTY if common is None else common.astype(np.int64)


def phrase_matches(arrays: PostingArrays, terms: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Documents (sorted) where ``terms`` occur in this order at adjacent positions, and how
    many times in each: ``#1`` over the terms in the order given (InQuery's phrase key)."""
    common = every_term_documents(arrays, terms)
    # positions are below the document's length; a phrase never reaches the next document
    stride = np.int64(int(arrays.doc_lengths[common].max(initial=0)) + len(terms) + 1)
    starts = _EMPTY
    for offset, term in enumerate(terms):
        codes = _occurrence_codes(arrays, term, common, stride) - offset
        starts = codes if offset == 0 else starts[np.isin(starts, codes)]
        if starts.size == 0:
            break
    return np.unique(starts // stride, return_counts=True)


def proximity_documents(arrays: PostingArrays, terms: tuple[str, ...], window: int) -> np.ndarray:
    """Documents with a window of ``max(window, len(terms))`` positions holding every one of
    ``terms``, a term written k times at k positions (``#uwN``; ``#1`` is
    :func:`phrase_matches`)."""
    common = every_term_documents(arrays, terms)
    if common.size == 0 or len(terms) == 1:
        return common
    width = max(window, len(terms))
    # positions are below the document's length; a window never reaches the next document
    stride = np.int64(int(arrays.doc_lengths[common].max(initial=0)) + width + 1)
    needed = {t: terms.count(t) for t in terms}
    codes = {t: _occurrence_codes(arrays, t, common, stride) for t in needed}
    # a window holding every term can be moved to start at its first occurrence
    starts = np.unique(np.concatenate(list(codes.values())))
    ok = np.ones(len(starts), bool)
    for term, count in needed.items():
        inside = (np.searchsorted(codes[term], starts + width - 1, side="right")
                  - np.searchsorted(codes[term], starts, side="left"))
        ok &= inside >= count
    return np.unique(starts[ok] // stride)


_TOKEN = re.compile(r"\s*(#combine\(|#syn\(|#1\(|#uw([0-9]+)\(|#base64\(([A-Za-z0-9+/=]*)\)|\)|[^\s()#]+)")


def _lex(query: str) -> list[tuple[str, str]]:
    out, at = [], 0
    query = query.rstrip()
    while at < len(query):
        match = _TOKEN.match(query, at)
        if not match:
            raise ValueError(f"not a MatchOp query this counter reads, at {at}: {query!r}")
        at = match.end()
        text = match.group(1)
        if match.group(2) is not None:
            out.append(("uw", match.group(2)))
        elif match.group(3) is not None:
            out.append(("term", base64.b64decode(match.group(3)).decode("utf-8")))
        elif text in ("#combine(", "#syn(", "#1(", ")"):
            out.append((text.rstrip("("), text))
        else:
            out.append(("term", text))
    return out


class MatchCounter:
    """Number of documents a MatchOp query matches in Terrier, from the posting arrays.

    Reads the queries :mod:`gradedrel.queries.matchop` writes for counting:
    ``#combine(x)`` with ``x`` a term, ``#1(…)``, ``#uwN(…)`` or ``#syn(…)`` of those.
    Counts are cached per query.
    """

    def __init__(self, arrays: PostingArrays, pipeline: Pipeline):
        self.arrays = arrays
        self.pipeline = pipeline
        self._cache: dict[str, int] = {}

    def df(self, term: str) -> int:
        """Number of documents that hold the indexed ``term``."""
        return int(len(self.arrays.postings(term)[0]))

    def _term(self, token: str) -> str:
        term = self.pipeline(token)
        if not term:
            raise ValueError(f"{token!r} is a stopword: the MatchOp writer never writes one")
        return term

    def _operand(self, tokens: list, at: int) -> tuple[np.ndarray, int]:
        kind, value = tokens[at]
        if kind == "term":
            return self.arrays.postings(self._term(value))[0].astype(np.int64), at + 1
        if kind in ("#1", "uw", "#syn"):
            members, at = [], at + 1
            while at < len(tokens) and tokens[at][0] != ")":
                if kind != "#syn" and tokens[at][0] != "term":
                    raise ValueError(f"a phrase holds terms only: {tokens}")
                if kind == "#syn":
                    docs, at = self._operand(tokens, at)
                    members.append(docs)
                else:
                    members.append(self._term(tokens[at][1]))
                    at += 1
            if at == len(tokens) or not members:
                raise ValueError(f"unbalanced or empty operator: {tokens}")
            if kind == "#syn":
                return np.unique(np.concatenate(members)), at + 1
            if kind == "uw":
                return proximity_documents(self.arrays, tuple(members), int(value)), at + 1
            return phrase_matches(self.arrays, terrier_phrase_order(tuple(members),
                                                                    self.df))[0], at + 1
        raise ValueError(f"unexpected {value!r} in {tokens}")

    def documents(self, query: str) -> np.ndarray:
        """Internal ids of the documents ``query`` matches (sorted)."""
        tokens = _lex(query)
        if len(tokens) < 3 or tokens[0][0] != "#combine" or tokens[-1][0] != ")":
            raise ValueError(f"expected #combine(one operand): {query!r}")
        docs, at = self._operand(tokens, 1)
        if at != len(tokens) - 1:
            raise ValueError(f"expected #combine(one operand): {query!r}")
        return docs

    def __call__(self, query: str) -> int:
        if query not in self._cache:
            self._cache[query] = int(len(self.documents(query)))
        return self._cache[query]
