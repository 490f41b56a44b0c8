"""The paper's measures as ir_measures measures, usable beside nDCG@10 in ``pt.Experiment``.

Importing this module registers, under the names of :mod:`.names`:

- ``AvP(level=r[,reading='atleast'])`` — stratified AvP (no cutoff);
- ``JK_CG(profile=…)@k``, ``JK_nCG(profile=…)@k``, ``JK_DCG(b=…,profile=…)@k``,
  ``JK_nDCG(b=…,profile=…)@k`` — J&K's cumulated gain at rank k; optional
  ``gains={1:1,2:2,3:3}``;
- ``nDCG_log2(gain='linear'|'exp')@k`` — today's nDCG, under its own name.

so ``ir_measures.parse_measure("JK_DCG(b=10,profile='3')@10")`` works and the
objects can be passed to ``ir_measures.calc_aggregate`` or ``pt.Experiment``.
They are computed by ir_measures' *runtime* provider with this package's code
(ties broken as trec_eval does). Qrels relevance must already be a level 0–3
(map raw labels with a grade map first; a negative label counts as 0).
Every qrels topic gets a value (a topic the run lacks scores 0, as ir_measures
scores it); a topic where the measure is undefined (empty recall base, ideal 0)
gets NaN, and the measures' aggregator leaves NaN out of the mean — never
counting it as 0. ``ir_measures.calc_aggregate`` therefore gives the mean over
the topics where the measure is defined. ``pt.Experiment`` (PyTerrier 1.1)
averages per-topic values itself, so a NaN makes its mean NaN: restrict its
topics with :func:`defined_topics` (see docs/measures.md).
"""
from __future__ import annotations

import ir_measures
import numpy as np
import pandas as pd
from ir_measures import Metric
from ir_measures.measures import MeanAgg, Measure, ParamInfo, registry

from gradedrel.core.errors import InputError
from gradedrel.retrieval.runs import rank_frame
from gradedrel.evaluation.measures import cumulated_gain as cg
from gradedrel.evaluation.measures import names, stratified
from gradedrel.evaluation.measures.judgements import Judgements, judge

_PROFILES = {"all": (1, 2, 3), "2+3": (2, 3), "3": (3,)}


def _column(frame: pd.DataFrame, name: str) -> pd.Series:
    column = frame.loc[:, name]
    if isinstance(column, pd.DataFrame):
        raise InputError("<qrels or run>", None, f"one column named {name!r}",
                         f"{column.shape[1]} columns")
    return column


def _inputs(qrels: pd.DataFrame, run: pd.DataFrame):
    relevance = pd.to_numeric(_column(qrels, "relevance"), errors="coerce")
    if relevance.isna().any() or (relevance > 3).any():
        raise InputError("<qrels>", None, "relevance levels 0-3 (map raw labels with a grade map)",
                         sorted(set(_column(qrels, "relevance")[relevance.isna() | (relevance > 3)]))[:5])
    graded = pd.DataFrame({"qid": _column(qrels, "query_id").astype(str),
                           "docno": _column(qrels, "doc_id").astype(str),
                           "grade": relevance.clip(lower=0).astype(int)})
    judgements = Judgements.from_qrels(graded)
    ranked = rank_frame(pd.DataFrame({"qid": _column(run, "query_id").astype(str),
                                      "docno": _column(run, "doc_id").astype(str),
                                      "score": _column(run, "score")}))
    judged = judge(ranked, judgements)
    return judgements, judged


class DefinedMeanAgg(MeanAgg):
    """Mean over the topics where the measure is defined (NaN values are skipped)."""

    def add(self, value):
        if not np.isnan(value):
            super().add(value)


class _GradedMeasure(Measure):
    """Shared plumbing: compute per-topic values with this package, yield Metrics."""

    RUN_INPUTS = ["query_id", "doc_id", "score"]
    QREL_INPUTS = ["query_id", "doc_id", "relevance"]

    def runtime_impl(self, qrels, run):
        judgements, judged = _inputs(qrels, run)
        values = self.values(judged, judgements)
        for qid, value in zip(judgements.topics, values):
            yield Metric(str(qid), self, float(value))

    def aggregator(self):
        return DefinedMeanAgg()

    def values(self, judged, judgements) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def __repr__(self):
        return self.canonical_name()


class _AvP(_GradedMeasure):
    """Stratified non-interpolated average precision at one relevance level
    (Järvelin & Kekäläinen 2000): recall base = judged exactly ``level`` (default)
    or at least ``level`` (``reading='atleast'``)."""

    __name__ = "AvP"
    NAME = "AvP"
    PRETTY_NAME = "Stratified AvP"
    SHORT_DESC = "Average precision against the recall base of one relevance level."
    SUPPORTED_PARAMS = {
        "level": ParamInfo(dtype=int, required=True, choices=(1, 2, 3), desc="relevance level"),
        "reading": ParamInfo(dtype=str, default="exact", choices=stratified.READINGS,
                             desc="recall base: judged exactly level, or at least level"),
    }

    def canonical_name(self):
        if "level" not in self.params:
            return "AvP"  # the unparameterised template
        return names.avp(self.params["level"], self["reading"])

    def values(self, judged, judgements):
        return stratified.average_precision(judged, judgements, self["level"], self["reading"])


def _gains(measure) -> dict:
    gains = measure.params.get("gains") or cg.DEFAULT_GAINS
    return {int(k): float(v) for k, v in gains.items()}


class _JKCumulated(_GradedMeasure):
    """J&K's cumulated gain at rank ``cutoff`` under a gain profile."""

    KIND = "CG"
    SUPPORTED_PARAMS = {
        "cutoff": ParamInfo(dtype=int, required=True, desc="rank at which the curve is read"),
        "profile": ParamInfo(dtype=str, default="all", choices=tuple(_PROFILES),
                             desc="levels that earn gain: all, 2+3 or 3"),
        "gains": ParamInfo(dtype=dict, default=None, desc="gain per level (default 1:1,2:2,3:3)"),
    }

    def base(self) -> int:
        return 0

    def canonical_name(self):
        return names.cumulated_gain(self.KIND, self["profile"], self.base(),
                                    self.params.get("cutoff"), self.params.get("gains"))

    def values(self, judged, judgements):
        cutoff = self["cutoff"]
        profile = cg.GainProfile(self["profile"], _PROFILES[self["profile"]], _gains(self))
        table = profile.gain_by_grade
        actual = cg.curve(cg.gain_vectors(judged, table, cutoff), self.base())[:, -1]
        if not self.KIND.startswith("n"):
            return actual
        ideal = cg.curve(cg.ideal_vectors(judgements, table, cutoff), self.base())[:, -1]
        return cg.normalised(actual, ideal)


class _JKDiscounted(_JKCumulated):
    SUPPORTED_PARAMS = dict(_JKCumulated.SUPPORTED_PARAMS,
                            b=ParamInfo(dtype=int, default=2, desc="log base: no discount "
                                        "before rank b"))

    def base(self) -> int:
        return self["b"]


class _JK_CG(_JKCumulated):
    """J&K cumulated gain CG[k] (Järvelin & Kekäläinen 2000)."""
    __name__ = NAME = "JK_CG"
    KIND = "CG"


class _JK_nCG(_JKCumulated):
    """J&K normalised cumulated gain nCG[k] = CG[k] / ideal CG[k] (J&K 2002)."""
    __name__ = NAME = "JK_nCG"
    KIND = "nCG"


class _JK_DCG(_JKDiscounted):
    """J&K discounted cumulated gain DCG[k], no discount before rank b (J&K 2000)."""
    __name__ = NAME = "JK_DCG"
    KIND = "DCG"


class _JK_nDCG(_JKDiscounted):
    """J&K normalised DCG: DCG[k] / ideal DCG[k] with J&K's discount (J&K 2002).
    Not today's nDCG (see nDCG_log2)."""
    __name__ = NAME = "JK_nDCG"
    KIND = "nDCG"


class _NDCGLog2(_GradedMeasure):
    """Today's nDCG@k: gain g or 2^g − 1, discount log2(i+1) at every rank (Burges et al.
    2005; trec_eval ndcg_cut). Named apart from J&K's nDCG."""

    __name__ = NAME = "nDCG_log2"
    SUPPORTED_PARAMS = {
        "cutoff": ParamInfo(dtype=int, required=True, desc="ranking cutoff"),
        "gain": ParamInfo(dtype=str, default="linear", choices=tuple(cg.MODERN_GAINS),
                          desc="linear (g) or exp (2^g - 1)"),
    }

    def canonical_name(self):
        if "cutoff" not in self.params:
            return f"nDCG_log2(gain={self['gain']!r})"
        return names.ndcg_log2(self["gain"], self.params["cutoff"])

    def values(self, judged, judgements):
        return cg.ndcg_log2(judged, judgements, self["cutoff"], self["gain"])


AvP = _AvP()
JK_CG = _JK_CG()
JK_nCG = _JK_nCG()
JK_DCG = _JK_DCG()
JK_nDCG = _JK_nDCG()
nDCG_log2 = _NDCGLog2()

for _measure in (AvP, JK_CG, JK_nCG, JK_DCG, JK_nDCG, nDCG_log2):
    if _measure.NAME not in registry:  # importing twice (reloads) must not fail
        ir_measures.measures.register(_measure)


def defined_topics(measure, qrels: pd.DataFrame) -> list[str]:
    """The qrels topics (``qid``/``query_id``, ``label``/``relevance`` columns, levels 0–3)
    where ``measure`` is defined: a non-empty recall base for AvP, a non-zero ideal for
    JK_nCG/JK_nDCG/nDCG_log2, every topic for JK_CG/JK_DCG."""
    measure = parse(measure) if isinstance(measure, str) else measure
    frame = qrels.rename(columns={"qid": "query_id", "docno": "doc_id", "label": "relevance"})
    empty_run = pd.DataFrame({"query_id": pd.Series([], dtype=str),
                              "doc_id": pd.Series([], dtype=str),
                              "score": pd.Series([], dtype=float)})
    judgements, judged = _inputs(frame, empty_run)
    if isinstance(measure, _GradedMeasure) and measure.NAME in ("JK_CG", "JK_DCG"):
        return [str(q) for q in judgements.topics]
    if not isinstance(measure, _GradedMeasure):
        raise ValueError(f"not one of this package's measures: {measure}")
    if measure.NAME == "AvP":
        base = judgements.recall_base(measure["level"], measure["reading"])
        return [str(q) for q, n in zip(judgements.topics, base) if n > 0]
    values = measure.values(judged, judgements)  # an empty run: NaN exactly where undefined
    return [str(q) for q, v in zip(judgements.topics, values) if not np.isnan(v)]


def parse(name: str):
    """``ir_measures.parse_measure`` with this module's measures registered."""
    return ir_measures.parse_measure(name)
