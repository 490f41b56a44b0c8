"""Sakai's Q-measure (Sakai 2004; NTCIREVAL's ``Q-measure``) as a measure family.

``Q(beta=β)`` averages, over the relevant documents retrieved, the *blended ratio* at their
ranks, against the number of relevant documents R (documents judged at level 1 or higher):

    Q = (1/R) · Σ_r I(r) · BR(r),     BR(r) = (C(r) + β·cg(r)) / (r + β·cg*(r))

where I(r) is 1 when the document at rank r is relevant, C(r) the number of relevant
documents in the top r, cg(r) the cumulated gain of the top r (gain of a level: ``gains``,
default 1, 2, 3) and cg*(r) that of the ideal ranking (the recall base sorted by gain,
best first). β = 0 is average precision; a larger β weighs the gains more. ``Q(beta=β)@k``
ranks only the top k and divides by min(R, k) (NTCIREVAL's Q@k). Unjudged documents are not
relevant. A request without a relevant document has no value (NaN).
"""
from __future__ import annotations

from gradedrel.core import lazy

np = lazy.module("numpy")

from gradedrel.evaluation.measures import cumulated_gain as cg
from gradedrel.evaluation.measures.base import Measure, Param, Ranking


class QMeasure(Measure):
    """Sakai's Q-measure: graded average precision through the blended ratio."""

    NAME = "Q"
    PRETTY_NAME = "Q-measure"
    SHORT_DESC = "Average of the blended ratio (Sakai) at the relevant documents retrieved."
    UNDEFINED = "no document is judged relevant (level 1 or higher)"  # R = 0
    SUPPORTED_PARAMS = {
        "beta": Param(float, default=1.0, shown=True, symbol="β",
                      desc="weight of the gains in the blended ratio (0: average precision)"),
        "gains": Param(dict, default=dict(cg.DEFAULT_GAINS),
                       desc="gain per level (default 1:1,2:2,3:3)"),
        "cutoff": Param(int, desc="rank to which the ranking is read (default: all of it)"),
    }

    def __init__(self, **params):
        super().__init__(**params)
        if self["beta"] < 0 or any(g < 0 for g in self["gains"].values()) or \
                sorted(self["gains"]) != [1, 2, 3]:
            raise ValueError(f"{self}: beta and the gains of levels 1, 2, 3 must be >= 0")

    def values(self, ranking: Ranking) -> np.ndarray:
        """Per-topic Q-measure (to the cutoff if one is set, else over the whole ranking)."""
        judged = ranking.judged
        longest = int(judged.position.max()) + 1 if len(judged.position) else 1
        cutoff = self.params.get("cutoff")
        depth = longest if cutoff is None else cutoff
        table = np.array([0.0] + [self["gains"][level] for level in (1, 2, 3)])
        grades = ranking.cached(("grades", depth), lambda: judged.topk_grades(depth))
        relevant = grades > 0
        found = np.cumsum(relevant, axis=1)
        gain = np.cumsum(ranking.vectors(table, depth), axis=1)
        ideal = np.cumsum(ranking.vectors(table, depth, ideal=True), axis=1)
        rank = np.arange(1, depth + 1, dtype=np.float64)
        beta = self["beta"]
        with np.errstate(invalid="ignore", divide="ignore"):
            blended = (found + beta * gain) / (rank + beta * ideal)
        total = np.where(relevant, blended, 0.0).sum(axis=1)
        base = ranking.judgements.recall_base(1, "atleast").astype(np.float64)
        return cg.normalised(total, base if cutoff is None else np.minimum(base, cutoff))


Q = QMeasure()
MEASURES = (Q,)
