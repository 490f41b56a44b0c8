"""The paper's measures as ir_measures measures, usable beside nDCG@10 in ``pt.Experiment``.

Importing this module registers with ir_measures every family of
:mod:`gradedrel.evaluation.measures.registry` (``AvP``, ``JK_CG``, ``JK_nCG``, ``JK_DCG``,
``JK_nDCG``, ``nDCG_log2``, and any family added there), each under its own name and
parameters, so ``ir_measures.parse_measure("JK_DCG(b=10,profile='3')@10")`` works and the
objects can be passed to ``ir_measures.calc_aggregate`` or ``pt.Experiment``. Each is a thin
ir_measures :class:`~ir_measures.measures.Measure` around the family's own measure, which
names it and computes it (ir_measures' *runtime* provider; ties broken as trec_eval does).
Qrels relevance must already be a level 0–3 (map raw labels with a grade map first; a
negative label counts as 0); gain profiles are the paper's (``all``, ``2+3``, ``3``).
Every qrels topic gets a value (a topic the run lacks scores 0, as ir_measures scores it); a
topic where the measure is undefined (empty recall base, ideal 0) gets NaN, and the
measures' aggregator leaves NaN out of the mean — never counting it as 0.
``ir_measures.calc_aggregate`` therefore gives the mean over the topics where the measure is
defined. ``pt.Experiment`` (PyTerrier 1.1) averages per-topic values itself, so a NaN makes
its mean NaN: restrict its topics with :func:`defined_topics` (see docs/measures.md).
"""
from __future__ import annotations

import ir_measures
import numpy as np
import pandas as pd
from ir_measures import Metric
from ir_measures.measures import MeanAgg, ParamInfo, registry

from gradedrel.core.errors import InputError
from gradedrel.evaluation.measures import registry as families
from gradedrel.evaluation.measures.base import NOT_GIVEN, Ranking
from gradedrel.evaluation.measures.judgements import Judgements, judge
from gradedrel.retrieval.runs import rank_frame


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
        """Add a topic's value to the mean unless it is NaN (undefined)."""
        if not np.isnan(value):
            super().add(value)


class GradedMeasure(ir_measures.measures.Measure):
    """An ir_measures measure around one of this package's measures (``FAMILY``)."""

    RUN_INPUTS = ["query_id", "doc_id", "score"]
    QREL_INPUTS = ["query_id", "doc_id", "relevance"]
    FAMILY = None  # the family's template (gradedrel.evaluation.measures.base.Measure)

    def ours(self):
        """This package's measure with these parameters."""
        return self.FAMILY(**self.params)

    def validate_params(self):
        """Check the parameters by building our measure; ir_measures' AssertionError if they are
        refused.
        """
        try:
            self.ours()
        except ValueError as error:
            raise AssertionError(str(error)) from None  # ir_measures' way of refusing
        self.validated = True

    def runtime_impl(self, qrels, run):
        """Per-topic values (ir_measures Metric records) of our measure on ``qrels`` and ``run``."""
        judgements, judged = _inputs(qrels, run)
        values = self.ours().values(Ranking(judged, judgements))
        for qid, value in zip(judgements.topics, values):
            yield Metric(str(qid), self, float(value))

    def aggregator(self):
        """The aggregator: the mean over topics where the measure is defined."""
        return DefinedMeanAgg()

    def canonical_name(self):
        """The name of our measure with these parameters."""
        return str(self.ours())

    def __repr__(self):
        return self.canonical_name()


def _param_info(spec) -> ParamInfo:
    extra = {} if spec.default is NOT_GIVEN else {"default": spec.default}
    if spec.choices is not None:
        extra["choices"] = spec.choices
    dtype = (int, float) if spec.dtype is float else spec.dtype
    return ParamInfo(dtype=dtype, required=spec.required, desc=spec.desc, **extra)


def adapt(template) -> GradedMeasure:
    """The ir_measures measure of one family (a new class named as the family)."""
    cls = type(f"_{template.NAME}", (GradedMeasure,), {
        "__name__": template.NAME, "NAME": template.NAME, "FAMILY": template,
        "__doc__": type(template).__doc__, "PRETTY_NAME": template.PRETTY_NAME,
        "SHORT_DESC": template.SHORT_DESC,
        "SUPPORTED_PARAMS": {k: _param_info(p) for k, p in template.SUPPORTED_PARAMS.items()}})
    return cls()


ADAPTED = {name: adapt(template) for name, template in families.families().items()}
for _name, _measure in ADAPTED.items():
    if _name not in registry:
        ir_measures.measures.register(_measure)
    elif type(registry[_name]).__module__ != __name__:  # (ours again: a reload)
        raise ValueError(f"measure family {_name!r}: ir_measures has a measure of that name")
globals().update(ADAPTED)  # irm.AvP, irm.JK_DCG, …


def defined_topics(measure, qrels: pd.DataFrame) -> list[str]:
    """The qrels topics (``qid``/``query_id``, ``label``/``relevance`` columns, levels 0–3)
    where ``measure`` is defined: those where its value for an empty run is not NaN (a
    non-empty recall base for AvP, a non-zero ideal for JK_nCG/JK_nDCG/nDCG_log2, every
    topic for JK_CG/JK_DCG)."""
    measure = parse(measure) if isinstance(measure, str) else measure
    if not isinstance(measure, GradedMeasure):
        raise ValueError(f"not one of this package's measures: {measure}")
    frame = qrels.rename(columns={"qid": "query_id", "docno": "doc_id", "label": "relevance"})
    empty_run = pd.DataFrame({"query_id": pd.Series([], dtype=str),
                              "doc_id": pd.Series([], dtype=str),
                              "score": pd.Series([], dtype=float)})
    judgements, judged = _inputs(frame, empty_run)
    values = measure.ours().values(Ranking(judged, judgements))
    return [str(q) for q, v in zip(judgements.topics, values) if not np.isnan(v)]


def parse(name: str):
    """``ir_measures.parse_measure`` with this package's measures registered."""
    return ir_measures.parse_measure(name)
