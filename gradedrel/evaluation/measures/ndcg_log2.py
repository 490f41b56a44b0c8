"""Today's nDCG@k, named apart from J&K's: ``nDCG_log2(gain='linear'|'exp')@k``.

Gain g (``linear``) or 2^g − 1 (``exp``), discount log2(i + 1) at every rank, normalised by
the ideal DCG at the same cutoff (Burges et al. 2005; trec_eval ``ndcg_cut``); NaN where no
document of the request has gain. Definition:
:func:`gradedrel.evaluation.measures.cumulated_gain.ndcg_log2`. A family entry
``nDCG_log2`` expands over the evaluation's ``ndcg_log2`` gains and cutoffs.
"""
from __future__ import annotations

from gradedrel.core import lazy

np = lazy.module("numpy")

from gradedrel.evaluation.measures import cumulated_gain as cg
from gradedrel.evaluation.measures.base import Measure, Param, Ranking


class NDCGLog2Measure(Measure):
    """Today's nDCG@k (log2(i+1) discount at every rank)."""

    NAME = "nDCG_log2"
    PRETTY_NAME = "nDCG (log2 discount)"
    SHORT_DESC = "Today's nDCG@k: discount log2(i+1) at every rank; not J&K's nDCG."
    UNDEFINED = "no judged document has gain: an ideal of 0"
    SUPPORTED_PARAMS = {
        "gain": Param(str, default="linear", choices=tuple(cg.MODERN_GAINS), shown=True,
                      grid="ndcg_log2_gains", desc="linear (g) or exp (2^g - 1)"),
        "cutoff": Param(int, required=True, grid="ndcg_log2_cutoffs", desc="ranking cutoff"),
    }

    def values(self, ranking: Ranking) -> np.ndarray:
        """Per-topic nDCG with the log2 discount at this measure's cutoff and gain."""
        return cg.ndcg_log2(ranking.judged, ranking.judgements, self["cutoff"], self["gain"])

    def label(self, long: bool = False) -> str:
        """``nDCG (log2 discount), linear gain at rank 10`` (``nDCG_log2``'s own name is
        J&K's nDCG's otherwise)."""
        return f"{self.PRETTY_NAME}, {self['gain']} gain{self._at_rank()}"


nDCG_log2 = NDCGLog2Measure()
MEASURES = (nDCG_log2,)
