"""The paper's measures as ir_measures measures, usable beside nDCG@10 in ``pt.Experiment``.

Importing this module registers with ir_measures every family of
:mod:`gradedrel.evaluation.measures.registry` (``AvP``, ``JK_CG``, ``JK_nCG``, ``JK_DCG``,
``JK_nDCG``, ``nDCG_log2``, ``Q``, ``nERR``, and any family added there), each under its own
name and parameters, so ``ir_measures.parse_measure("JK_DCG(b=10,profile='3')@10")`` works
and the objects can be passed to ``ir_measures.calc_aggregate`` or ``pt.Experiment``. Each is
a thin ir_measures :class:`~ir_measures.measures.Measure` around the family's own measure,
which names it and computes it (ir_measures' *runtime* provider; ties broken as trec_eval
does). Qrels relevance must already be a level 0–3 (map raw labels with a grade map first; a
negative label counts as 0); gain profiles are the paper's (``all``, ``2+3``, ``3``).

Every qrels topic gets a value (a topic the run lacks scores 0, as ir_measures and
``gradedrel evaluate`` score it). A topic where the measure is undefined (AvP at a level
without a judged document, nCG/nDCG with an ideal of 0) has no value in ``gradedrel
evaluate`` and is left out of the mean; ir_measures has no way to give a topic no value,
so here:

- through ir_measures (``calc_aggregate``, ``calc``, ``iter_calc``, the command of
  :mod:`gradedrel.irm`) such a topic's value is NaN, with an :class:`UndefinedTopicsWarning`
  naming the topics, and the measure's aggregator leaves it out of the mean: the mean is
  ``gradedrel evaluate``'s, over the same topics;
- ``pt.Experiment`` (PyTerrier 1.1) averages per-topic values itself, so a NaN would make
  its mean NaN: called from PyTerrier, the measure stops instead with :class:`UndefinedTopics`
  saying which topics and how to restrict them (:func:`defined_topics`);
- a measure defined for none of the topics stops everywhere (its mean would be NaN): the
  relevance values are likely not the levels 0–3.
"""
from __future__ import annotations

import sys
import warnings

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
    bad = relevance.isna() | (relevance > 3) | (relevance != relevance.round())
    if bad.any():
        raise InputError("<qrels>", None, "relevance levels 0-3, whole numbers (map raw labels "
                         "with a grade map; a negative label counts as 0)",
                         sorted(set(_column(qrels, "relevance")[bad].astype(str)))[:5])
    graded = pd.DataFrame({"qid": _column(qrels, "query_id").astype(str),
                           "docno": _column(qrels, "doc_id").astype(str),
                           "grade": relevance.clip(lower=0).astype(int)})
    judgements = Judgements.from_qrels(graded)
    ranked = rank_frame(pd.DataFrame({"qid": _column(run, "query_id").astype(str),
                                      "docno": _column(run, "doc_id").astype(str),
                                      "score": _column(run, "score")}))
    judged = judge(ranked, judgements)
    return judgements, judged


class UndefinedTopics(ValueError):
    """The measure is undefined for topics a tool would average as NaN (PyTerrier), or for
    every topic; the message names the topics and what to do."""


class UndefinedTopicsWarning(UserWarning):
    """Topics where a measure is undefined: NaN per topic, left out of the mean."""


def _listed(topics) -> str:
    shown = ", ".join(str(t) for t in topics[:10])
    return shown + (f", … ({len(topics) - 10} more)" if len(topics) > 10 else "")


def _callers() -> list[str]:
    """The module names of the call stack, from the caller's frame outwards."""
    frame, names = sys._getframe(1), []
    while frame is not None:
        names.append(str(frame.f_globals.get("__name__", "")))
        frame = frame.f_back
    return names


def check_defined(measure, topics, values, levels, pyterrier: bool) -> None:
    """Stop or warn about the topics where ``measure`` (ours) is undefined (NaN ``values``):
    :class:`UndefinedTopics` when it is defined for none of them, or for some but
    ``pyterrier`` averages every value itself; otherwise an :class:`UndefinedTopicsWarning`
    (NaN per topic, left out of the mean as ``gradedrel evaluate`` leaves them).
    ``levels``: the levels the qrels hold."""
    undefined = [str(t) for t, v in zip(topics, values) if np.isnan(v)]
    if not undefined:
        return
    why = measure.undefined_when()
    if len(undefined) == len(topics):
        raise UndefinedTopics(
            f"{measure} is undefined for all {len(topics)} topics of the qrels ({why}); the "
            f"qrels hold levels {list(levels)}: are the relevance values the levels 0-3? "
            "Map raw labels to levels first (gradedrel evaluate --grade-map; docs/measures.md)")
    if pyterrier:
        raise UndefinedTopics(
            f"{measure} is undefined for {len(undefined)} of {len(topics)} topics ({why}): "
            f"{_listed(undefined)}. gradedrel evaluate leaves such topics out of the mean "
            "(means.tsv, column topics); pt.Experiment would average them in as NaN. "
            "Evaluate it over the topics where it is defined: "
            f"topics[topics['qid'].isin(irm.defined_topics({str(measure)!r}, qrels))]")
    warnings.warn(
        f"{measure} is undefined for {len(undefined)} of {len(topics)} topics ({why}): "
        f"{_listed(undefined)}; their value is NaN and the mean leaves them out, as "
        "gradedrel evaluate does (means.tsv, column topics)", UndefinedTopicsWarning,
        # name the first frame outside these measures and ir_measures (the caller's line)
        stacklevel=next((level for level, name in enumerate(_callers(), 1)
                         if not name.startswith((__name__, "ir_measures"))), 1))


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
        """Check the parameters by building our measure (refused: ir_measures' AssertionError)."""
        try:
            self.ours()
        except ValueError as error:
            raise AssertionError(str(error)) from None  # ir_measures' way of refusing
        self.validated = True

    def runtime_impl(self, qrels, run):
        """Per-topic values (ir_measures Metric records) of our measure on ``qrels`` and ``run``."""
        judgements, judged = _inputs(qrels, run)
        ours = self.ours()
        values = ours.values(Ranking(judged, judgements))
        levels = np.flatnonzero(judgements.level_counts.any(axis=0)).tolist()
        # PyTerrier's pt.Experiment averages per-topic values itself, not through aggregator()
        pyterrier = any(name.partition(".")[0] == "pyterrier" for name in _callers())
        check_defined(ours, judgements.topics, values, levels, pyterrier)
        for qid, value in zip(judgements.topics, values):
            yield Metric(str(qid), self, float(value))

    def aggregator(self):
        """The aggregator: the mean over topics where the measure is defined."""
        return DefinedMeanAgg()

    def __repr__(self):
        """The name of our measure with these parameters."""
        return str(self.ours())


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
    judgements, judged = _inputs(frame, pd.DataFrame(columns=["query_id", "doc_id", "score"]))
    values = measure.ours().values(Ranking(judged, judgements))
    return [str(q) for q, v in zip(judgements.topics, values) if not np.isnan(v)]


#: ``ir_measures.parse_measure``, with this package's measures registered.
parse = ir_measures.parse_measure
