"""nERR@k: expected reciprocal rank (Chapelle, Metzler, Zhang & Grinspan, CIKM 2009),
normalised by the ideal ranking's as NTCIREVAL normalises it (Sakai & Song, SIGIR 2011).

A user scans the ranking and stops at rank r, satisfied, with probability R_r, having not
stopped before:

    ERR@k = Σ_{r≤k} (1/r) · R_r · Π_{i<r} (1 − R_i),     R = g / (g_max + 1)

with g the gain of the document's level (``gains``, default 1, 2, 3; an unjudged document
0) and g_max the gain of the highest level, as NTCIREVAL computes ERR from its gain values.
(With ``gains={1:1,2:3,3:7}``, R = (2^level − 1)/2^3: Chapelle et al.'s own.) ``nERR@k``
divides by the ERR@k of the ideal ranking (the recall base sorted by gain, best first); a
request where that is 0 has no value (NaN). A family entry ``nERR`` expands over the
evaluation's ``cutoffs``.
"""
from __future__ import annotations

from gradedrel.core import lazy

np = lazy.module("numpy")

from gradedrel.evaluation.measures import cumulated_gain as cg
from gradedrel.evaluation.measures.base import Measure, Param, Ranking


def expected_reciprocal_rank(gains: np.ndarray, g_max: float) -> np.ndarray:
    """ERR of ``(requests, k)`` gain vectors, per request."""
    stop = gains / (g_max + 1.0)
    reached = np.ones_like(stop)
    reached[:, 1:] = np.cumprod(1.0 - stop[:, :-1], axis=1)
    rank = np.arange(1, gains.shape[1] + 1, dtype=np.float64)
    return (stop * reached / rank).sum(axis=1)


class NERRMeasure(Measure):
    """Normalised expected reciprocal rank at rank k."""

    NAME = "nERR"
    PRETTY_NAME = "nERR"
    SHORT_DESC = "Expected reciprocal rank at k over the ideal ranking's (NTCIREVAL's nERR)."
    UNDEFINED = "no judged document has gain: an ideal of 0"
    SUPPORTED_PARAMS = {
        "gains": Param(dict, default=dict(cg.DEFAULT_GAINS),
                       desc="gain per level, non-decreasing (default 1:1,2:2,3:3)"),
        "cutoff": Param(int, required=True, grid="cutoffs", desc="ranking cutoff k"),
    }

    def __init__(self, **params):
        super().__init__(**params)
        gains = self["gains"]
        if sorted(gains) != [1, 2, 3] or not 0 <= gains[1] <= gains[2] <= gains[3] or \
                gains[3] <= 0:
            raise ValueError(f"{self}: the gains of levels 1, 2, 3 must be non-decreasing, "
                             "from 0, the highest above 0 (NTCIREVAL's grades)")

    def values(self, ranking: Ranking) -> np.ndarray:
        """Per-topic ERR at the cutoff over the ideal ranking's ERR (NaN where the ideal is 0)."""
        k = self["cutoff"]
        gains = self["gains"]
        table = np.array([0.0, gains[1], gains[2], gains[3]])
        actual = expected_reciprocal_rank(ranking.vectors(table, k), gains[3])
        ideal = expected_reciprocal_rank(ranking.vectors(table, k, ideal=True), gains[3])
        return cg.normalised(actual, ideal)


nERR = NERRMeasure()
MEASURES = (nERR,)
