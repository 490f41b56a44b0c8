"""trec_eval's ``ndcg_cut``, ``map`` and ``P`` computed from a judged ranking, as
trec_eval computes them (so as pytrec_eval / ir_measures give them), for the
ir_measures names ``nDCG@k``, ``AP``, ``AP(rel=r)``, ``P@k`` and ``P(rel=r)@k``.

Definitions (trec_eval 9, ``m_ndcg_cut.c``, ``m_map.c``, ``m_P.c``), over a topic's
ranking in trec_eval's order, with unjudged documents at grade 0. trec_eval ranks by
score descending, then document id descending, but holds scores as C ``float``
(single precision): two scores that differ only beyond float32's precision (e.g.
0.4162151818 and 0.4162151678) are a tie to it, broken by document id.
:class:`~gradedrel.retrieval.runs.RankedRun` orders on the double-precision scores, so
:func:`float32_order` gives the few re-orderings that trec_eval's view implies.

Measures:

- ``nDCG@k``: the sum of ``grade / log2(i + 2)`` over ranks ``i = 0 … k-1`` divided by
  the same sum over the topic's judged grades sorted descending (0 when that ideal is 0);
- ``AP(rel=r)``: the sum, over retrieved documents of grade ≥ r, of (how many such
  documents up to and including this one) / (rank), divided by the number of judged
  documents of grade ≥ r (0 when none is retrieved); ``AP`` is ``AP(rel=1)``;
- ``P(rel=r)@k``: the number of documents of grade ≥ r in the first ``k``, divided by
  ``k`` (also when the ranking is shorter); ``P@k`` is ``P(rel=1)@k``.

A topic with no ranking scores 0 on each. Sums are taken in rank order, one term after
the other (``cumsum``, not NumPy's pairwise ``sum``), and each term with the same
operations as trec_eval's C code (``log2`` from the C library through :mod:`math`), so
that the values are trec_eval's own floats, not merely close to them.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

_NAME = re.compile(r"(nDCG|AP|P)(?:\(rel=(\d+)\))?(?:@(\d+))?")


@dataclass(frozen=True)
class TrecMeasure:
    """One measure of this module: ``kind`` is ``nDCG``, ``AP`` or ``P``."""

    kind: str
    rel: int = 1
    cutoff: int | None = None


def parse(name: str) -> TrecMeasure | None:
    """The measure an ir_measures name denotes, when this module computes it exactly;
    None for any other name (left to ir_measures)."""
    match = _NAME.fullmatch(name.strip())
    if match is None:
        return None
    kind, rel, cutoff = match.group(1), match.group(2), match.group(3)
    rel_value = int(rel) if rel is not None else 1
    cutoff_value = int(cutoff) if cutoff is not None else None
    if kind == "nDCG" and (rel is not None or cutoff_value is None):
        return None  # nDCG has no rel; nDCG without cutoff is trec_eval's `ndcg`: not here
    if kind == "AP" and cutoff is not None:
        return None  # AP@k is trec_eval's map_cut: not here
    if kind == "P" and cutoff_value is None:
        return None
    if rel_value < 1 or (cutoff_value is not None and cutoff_value < 1):
        return None
    return TrecMeasure(kind, rel_value, cutoff_value)


def float32_order(topic: np.ndarray, score: np.ndarray, text_rank) -> np.ndarray | None:
    """The row order trec_eval sees (topic, score as float32 descending, document id
    descending), given rows in :class:`~gradedrel.retrieval.runs.RankedRun` order (topic,
    score descending, document id descending); None when it is the same order (no two
    neighbours of a topic whose scores differ as doubles but not as floats).
    ``text_rank()`` returns each row's rank of its document id in text order (called
    only when needed: it sorts the ids)."""
    if len(topic) < 2:
        return None
    single = score.astype(np.float32)
    merged = (topic[1:] == topic[:-1]) & (single[1:] == single[:-1]) & \
        (score[1:] != score[:-1])
    if not merged.any():
        return None
    # Only the groups of neighbours equal as floats that hold such a pair are re-sorted,
    # by document id descending (the groups stay where they are).
    starts = np.ones(len(topic), dtype=bool)
    starts[1:] = (topic[1:] != topic[:-1]) | (single[1:] != single[:-1])
    group = np.cumsum(starts) - 1
    rows = np.flatnonzero(np.isin(group, group[1:][merged]))
    rank = np.asarray(text_rank(), dtype=np.int64)[rows]
    span = int(rank.max()) + 1  # one int64 key (groups x ids stays far below 2**63)
    sub = rows[np.argsort(group[rows] * span + (span - 1 - rank), kind="stable")]
    if (sub == rows).all():
        return None
    order = np.arange(len(topic))
    order[rows] = sub
    return order


def _discounts(n: int) -> np.ndarray:
    """``log2(i + 2)`` for ``i = 0 … n-1``, from the C library (as trec_eval)."""
    return np.array([math.log2(i + 2) for i in range(n)], dtype=np.float64)


def _row_sums(topic: np.ndarray, column: np.ndarray, terms: np.ndarray,
              n_topics: int) -> np.ndarray:
    """Per topic, the terms added one after the other in ``column`` order (rank order)."""
    sums = np.zeros(n_topics, dtype=np.float64)
    if len(terms) == 0:
        return sums
    matrix = np.zeros((n_topics, int(column.max()) + 1), dtype=np.float64)
    matrix[topic, column] = terms
    return np.cumsum(matrix, axis=1)[:, -1]


def values(measure: TrecMeasure, topic: np.ndarray, position: np.ndarray, grade: np.ndarray,
           level_counts: np.ndarray) -> np.ndarray:
    """Per-topic values ``(T,)`` of ``measure``.

    ``topic``, ``position`` (0-based rank) and ``grade`` (0 when unjudged) describe every
    retrieved row, rows of a topic in rank order (a
    :class:`~gradedrel.evaluation.measures.judgements.JudgedRun`); ``level_counts[t, g]``
    is the number of documents judged at grade ``g`` for topic ``t``.
    """
    n_topics = level_counts.shape[0]
    topic = np.asarray(topic, dtype=np.int64)
    position = np.asarray(position, dtype=np.int64)
    grade = np.asarray(grade, dtype=np.int64)
    if measure.kind == "P":
        top = (position < measure.cutoff) & (grade >= measure.rel)
        hits = np.bincount(topic[top], minlength=n_topics).astype(np.float64)
        return hits / float(measure.cutoff)
    if measure.kind == "AP":
        relevant = grade >= measure.rel
        r_topic, r_position = topic[relevant], position[relevant]
        # the topics' groups in topic order (a run file's topics come in its own order;
        # the stable sort keeps each topic's rows in rank order)
        by_topic = np.argsort(r_topic, kind="stable")
        r_topic, r_position = r_topic[by_topic], r_position[by_topic]
        # the how-many-th relevant document of its topic each relevant row is
        starts = np.searchsorted(r_topic, np.arange(n_topics))
        nth = np.arange(len(r_topic)) - starts[r_topic]          # 0-based
        terms = (nth + 1).astype(np.float64) / (r_position + 1).astype(np.float64)
        sums = _row_sums(r_topic, nth, terms, n_topics)
        num_rel = level_counts[:, measure.rel:].sum(axis=1)
        retrieved = np.bincount(r_topic, minlength=n_topics) > 0
        out = np.zeros(n_topics, dtype=np.float64)
        out[retrieved] = sums[retrieved] / num_rel[retrieved].astype(np.float64)
        return out
    if measure.kind == "nDCG":
        k = measure.cutoff
        discount = _discounts(k)
        top = (position < k) & (grade > 0)
        terms = grade[top].astype(np.float64) / discount[position[top]]
        gained = _row_sums(topic[top], position[top], terms, n_topics)
        ideal = _row_sums_dense(_ideal_grades(level_counts, k) / discount)
        out = np.zeros(n_topics, dtype=np.float64)
        has_ideal = ideal > 0.0
        out[has_ideal] = gained[has_ideal] / ideal[has_ideal]
        return out
    raise ValueError(f"not a measure of this module: {measure!r}")


def _row_sums_dense(matrix: np.ndarray) -> np.ndarray:
    if matrix.shape[1] == 0:
        return np.zeros(matrix.shape[0], dtype=np.float64)
    return np.cumsum(matrix, axis=1)[:, -1]


def _ideal_grades(level_counts: np.ndarray, depth: int) -> np.ndarray:
    """``(T, depth)``: each topic's judged grades sorted descending, zero-padded."""
    n_topics, n_levels = level_counts.shape
    ideal = np.zeros((n_topics, depth), dtype=np.float64)
    ranks = np.arange(depth)
    start = np.zeros(n_topics, dtype=np.int64)
    for level in range(n_levels - 1, 0, -1):
        stop = start + level_counts[:, level]
        fill = (ranks[None, :] >= start[:, None]) & (ranks[None, :] < stop[:, None])
        ideal[fill] = float(level)
        start = stop
    return ideal
