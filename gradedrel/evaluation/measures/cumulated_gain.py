"""Cumulated gain (Järvelin & Kekäläinen 2000, method 2; 2002 for nCG/nDCG).

The *gain vector* G of a ranking holds, at rank i, the gain of the document
there: by default its relevance level used linearly (0–3). A *gain profile*
says which levels earn gain: ``all`` (levels 1–3), ``2+3`` (levels 2 and 3),
``3`` (level 3 only); the others earn 0. Then

    CG[1] = G[1];   CG[i] = CG[i−1] + G[i]
    DCG[i] = CG[i]                          if i < b
    DCG[i] = DCG[i−1] + G[i] / log_b(i)     if i ≥ b

— no discount before rank b (dividing by log_b(i) < 1 there would inflate gains).
The *ideal vector* sorts the recall base by gain (3s, then 2s, then 1s, then 0s);
its CG/DCG is the upper bound. nCG and nDCG divide the actual vector by the
ideal one rank by rank (2002); a topic whose ideal is 0 (no document earns gain
under the profile) has no normalised value (NaN).

Today's nDCG (Burges et al. 2005; trec_eval ``ndcg_cut``) is different and is
named ``nDCG_log2`` here: gain g (linear) or 2^g − 1 (exp), discount log2(i + 1)
at every rank, normalised by the ideal DCG at the same cutoff.
"""
from __future__ import annotations

from gradedrel.core import lazy

from typing import Mapping

np = lazy.module("numpy")

from gradedrel.evaluation.measures.judgements import JudgedRun, Judgements

DEFAULT_GAINS = {1: 1.0, 2: 2.0, 3: 3.0}
DEFAULT_PROFILES = {"all": (1, 2, 3), "2+3": (2, 3), "3": (3,)}
MODERN_GAINS = {"linear": (0.0, 1.0, 2.0, 3.0), "exp": (0.0, 1.0, 3.0, 7.0)}  # 2^g - 1


def gain_table(levels, gains: Mapping[int, float] = DEFAULT_GAINS) -> np.ndarray:
    """Gain of each grade 0..3 (index = grade) under a gain profile: ``gains[level]`` for the
    profile's ``levels``, 0 for the others."""
    table = np.zeros(4, dtype=np.float64)
    for level in levels:
        table[int(level)] = float(gains[int(level)])
    return table


def gain_vectors(run: JudgedRun, gain_by_grade: np.ndarray, depth: int) -> np.ndarray:
    """Gain vectors ``(T, depth)`` of a run's top ``depth`` documents (0 beyond the ranking)."""
    return np.asarray(gain_by_grade, dtype=np.float64)[run.topk_grades(depth)]


def ideal_vectors(level_counts: np.ndarray, gain_by_grade: np.ndarray, depth: int) -> np.ndarray:
    """Ideal gain vectors ``(T, depth)`` from the recall base: per-topic counts of judged
    documents per level ``(T, 4)`` (``Judgements.level_counts``), their gains sorted
    descending (all highly relevant first, …), zero-padded."""
    gains = np.asarray(gain_by_grade, dtype=np.float64)
    order = np.argsort(-gains, kind="stable")  # grades by gain, best first
    ends = np.cumsum(level_counts[:, order], axis=1)  # (T, 4): where each grade's run ends
    block = (np.arange(depth)[None, :, None] >= ends[:, None, :]).sum(axis=2)  # (T, depth)
    # a grade without gain earns 0, and so does a rank past the recall base (block 4); C
    # order, as the ideal DCG's row sums are pairwise only along a contiguous axis (the
    # index's own order gives sums that differ in the last bit)
    return np.ascontiguousarray(np.append(np.maximum(gains[order], 0.0), 0.0)[block])


def cumulated_gain(gains: np.ndarray) -> np.ndarray:
    """CG, rank by rank along the last axis."""
    return np.cumsum(gains, axis=-1)


def discounted_cumulated_gain(gains: np.ndarray, base: int) -> np.ndarray:
    """DCG with J&K's rule, rank by rank along the last axis: the gain at rank i divided by 1
    for i < b, by log_b(i) for i ≥ b (b ≥ 2: checked by ``JK_DCG`` and the settings'
    ``dcg_bases``)."""
    rank = np.arange(1, gains.shape[-1] + 1, dtype=np.float64)
    return np.cumsum(gains / np.where(rank < base, 1.0, np.log(rank) / np.log(base)), axis=-1)


def curve(gains: np.ndarray, kind_base: int) -> np.ndarray:
    """CG (``kind_base = 0``) or DCG with base ``kind_base``."""
    return cumulated_gain(gains) if kind_base == 0 else discounted_cumulated_gain(gains, kind_base)


def normalised(actual: np.ndarray, ideal: np.ndarray) -> np.ndarray:
    """nCG/nDCG: actual over ideal rank by rank (element by element); NaN where the ideal
    is 0."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(ideal > 0, actual / np.where(ideal > 0, ideal, 1.0), np.nan)


def ndcg_log2(run: JudgedRun, judgements: Judgements, cutoff: int,
              gain: str = "linear") -> np.ndarray:
    """Today's nDCG@cutoff (gain g or 2^g − 1, discount log2(i+1) at every rank), per topic;
    NaN where the topic has no relevant document (as nDCG is 0/0 there)."""
    table = np.array(MODERN_GAINS[gain])
    discount = np.log2(np.arange(2, cutoff + 2, dtype=np.float64))
    dcg = (gain_vectors(run, table, cutoff) / discount).sum(axis=1)
    idcg = (ideal_vectors(judgements.level_counts, table, cutoff) / discount).sum(axis=1)
    return normalised(dcg, idcg)
