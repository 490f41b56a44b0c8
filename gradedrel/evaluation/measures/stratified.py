"""Stratified precision–recall (Järvelin & Kekäläinen 2000, method 1).

For each relevance level r a *separate recall base* R_r is formed: the documents
judged exactly r (the paper's definition; ``reading="exact"``) or at least r
(``reading="atleast"``, as trec_eval's relevance threshold reads it). Then, per
topic,

    AvP_r = (1/|R_r|) · Σ_{d ∈ R_r} P(rank(d))       (a d not retrieved adds 0)

which is trec_eval's ``map`` on the qrels reduced to that recall base; and the
interpolated precision at recall point c is trec_eval's ``iprec_at_recall``:
with m relevant documents needed, the largest precision at or after the m-th
relevant document retrieved (0 if fewer than m are retrieved; for m = 0, the
largest precision at any relevant document). trec_eval up to 9.0.7 — and
pytrec_eval, which embeds it — takes m = (long)(c·|R_r| + 0.9) (``"legacy"``,
the default here); trec_eval 9.0.8 changed to m = lround(c·|R_r|)
(``"lround"``). They differ when the fraction of c·|R_r| is in [0.1, 0.5),
e.g. c = 0.6, |R_r| = 4: legacy needs 3 documents, lround 2.

A topic whose recall base at r is empty has no value at r: NaN here, left out
of means (and counted) by the caller.
"""
from __future__ import annotations

from gradedrel.core import lazy

np = lazy.module("numpy")
pd = lazy.module("pandas")

from gradedrel.evaluation.measures.judgements import READINGS, JudgedRun, Judgements, relevant

RECALL_POINTS = tuple(round(0.1 * i, 1) for i in range(11))
ROUNDINGS = ("legacy", "lround")


def _relevant_hits(run: JudgedRun, level: int, reading: str):
    """Relevant retrieved documents: (topic, j = 1-based order among them, rank, precision)."""
    mask = relevant(run.grade, level, reading)
    topic = run.topic[mask]
    rank = run.position[mask] + 1
    j = pd.Series(topic).groupby(topic).cumcount().to_numpy() + 1
    return topic, j, rank, j / rank


def average_precision(run: JudgedRun, judgements: Judgements, level: int,
                      reading: str = "exact") -> np.ndarray:
    """Non-interpolated AvP per topic at ``level``; NaN where the recall base is empty."""
    base = judgements.recall_base(level, reading)
    topic, _, _, precision = _relevant_hits(run, level, reading)
    total = np.bincount(topic, weights=precision, minlength=judgements.n_topics)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(base > 0, total / np.maximum(base, 1), np.nan)


def interpolated_precision(run: JudgedRun, judgements: Judgements, level: int,
                           reading: str = "exact",
                           recall_points=RECALL_POINTS, rounding: str = "legacy") -> np.ndarray:
    """Interpolated precision ``(T, len(recall_points))`` at ``level`` as trec_eval computes
    ``iprec_at_recall``; rows of topics with an empty recall base are NaN."""
    base = judgements.recall_base(level, reading)
    points = np.asarray(recall_points, dtype=np.float64)
    topic, j, _, precision = _relevant_hits(run, level, reading)
    n_topics = judgements.n_topics
    hits = np.bincount(topic, minlength=n_topics)
    width = int(hits.max(initial=0)) + 1
    # (T, width) table of precision at the j-th relevant document, then the
    # running maximum from the right: column j holds max over j' >= j.
    table = np.zeros((n_topics, width), dtype=np.float64)
    table[topic, j - 1] = precision
    suffix_max = np.maximum.accumulate(table[:, ::-1], axis=1)[:, ::-1]
    needed = documents_needed(points[None, :] * base[:, None], rounding)
    column = np.clip(np.maximum(needed, 1) - 1, 0, width - 1)
    values = np.take_along_axis(suffix_max, column, axis=1)
    values = np.where(needed <= hits[:, None], values, 0.0)
    values[base == 0] = np.nan
    return values


def documents_needed(x: np.ndarray, rounding: str = "legacy") -> np.ndarray:
    """Relevant documents needed for recall point c, from x = c·|R| (see module doc)."""
    if rounding == "legacy":
        return np.floor(x + 0.9).astype(np.int64)  # C's (long) cast truncates; x >= 0
    if rounding == "lround":
        # C's lround for x >= 0: halves away from zero (floor(x + 0.5) would round
        # 0.49999999999999994 up in floating point)
        whole = np.floor(x)
        return (whole + (x - whole >= 0.5)).astype(np.int64)
    raise ValueError(f"rounding must be one of {ROUNDINGS}, not {rounding!r}")
