"""Evaluating a set of runs with the paper's measures, topic by topic (:func:`evaluate`).

``evaluate`` takes ranked runs (label → :class:`~gradedrel.retrieval.runs.RankedRun`) and
graded :class:`~gradedrel.evaluation.measures.judgements.Judgements` and returns the tables
that :func:`~gradedrel.evaluation.files.write_tables` writes to
``results/{c}/evaluation/{planset}/{model}/`` (their columns:
:data:`gradedrel.evaluation.contract.COLUMNS`; what each holds: docs/measures.md). A measure
undefined for a topic (empty recall base, ideal 0) has no ``per_topic`` row, and the means,
curves and ``topics`` columns count only the topics where it is defined.

The per-topic values are those of the evaluation's measure objects
(:meth:`Settings.measure_list`, each computing its values from the judged run and naming
its rows), in their order; the curves, effort and significance follow the settings.
Measures and conventions: docs/measures.md.
"""
from __future__ import annotations

import logging
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from gradedrel.evaluation import standard_measures
from gradedrel.evaluation.measures import cumulated_gain as cg
from gradedrel.evaluation.measures import effort, ranked_grades, stratified
from gradedrel.evaluation.measures.base import Ranking
from gradedrel.evaluation.measures.judgements import Judgements, judge
from gradedrel.evaluation.settings import Settings
from gradedrel.evaluation.tables import (RunResult, bootstrap_table, significance_tables,
                                        tidy_tables)
from gradedrel.retrieval.runs import RankedRun

log = logging.getLogger("gradedrel")

#: The warnings of a run's topics (label, count, ...): evaluated topics it does not rank,
#: and its topics that are not evaluated (``gradedrel compare`` reports both itself).
NOT_RANKED = "run %s: %d evaluated topic(s) not in the run (%s): %s"
NOT_JUDGED = "run %s: %d topic(s) not evaluated (not among the selected, judged topics), ignored: %s"
TOPIC_WARNINGS = (NOT_RANKED, NOT_JUDGED)


def evaluate_run(label: str, run: RankedRun, judgements: Judgements, settings: Settings,
                 measures: Sequence,
                 standard: "standard_measures.StandardMeasures | None") -> RunResult:
    """One run: each measure's per-topic values (``measures``, the settings'
    :meth:`~Settings.measure_list`; ``standard`` computes the standard ones, set up once per
    evaluation: :func:`evaluate_runs`), the averaged P–R and gain curves, effort and
    coverage — vectorised over topics and ranks."""
    judged = judge(run, judgements)
    counted = judged.evaluated(settings.missing_topics)
    ranking = Ranking(judged, judgements, run=run, depth=settings.depth,
                      profiles=settings.profiles, standard=standard)
    pr, pr_topics, pr_per_topic = _pr_curves(ranking, settings, counted)
    gain, gain_topics, effort_rows = _gain_curves(ranking, settings, counted)
    # a topic the run lacks scores 0 ("zero") or is left out ("skip")
    per_topic = {str(measure): np.where(counted, measure.values(ranking), np.nan)
                 for measure in measures}
    coverage = {"run": label, "evaluated_topics": judgements.n_topics,
                "ranked": int(judged.present.sum()),
                "missing_from_run": int((~judged.present).sum()),
                "missing_topics": settings.missing_topics,
                "ignored_not_in_qrels": len(judged.ignored_topics)}
    if coverage["missing_from_run"]:
        log.warning(NOT_RANKED, label,
                    coverage["missing_from_run"], settings.missing_topics,
                    ", ".join(judgements.topics[~judged.present][:10]))
    if judged.ignored_topics:
        log.warning(NOT_JUDGED, label,
                    len(judged.ignored_topics), ", ".join(judged.ignored_topics[:10]))
    return RunResult(label, per_topic, pr, pr_topics, pr_per_topic, gain, gain_topics,
                     effort_rows, coverage, ranked_grades.grade_strings(judged, settings.depth))


def _pr_curves(ranking: Ranking, settings: Settings, counted: np.ndarray):
    """Mean interpolated precision per level and reading, and the defined topics' rows (as
    matrices, and as the rows of pr_per_topic.tsv)."""
    pr, pr_topics, pr_per_topic = [], {}, []
    points = np.asarray(settings.recall_points, dtype=np.float64)
    for level in settings.levels:
        for reading in settings.readings:
            ip = stratified.interpolated_precision(ranking.judged, ranking.judgements, level,
                                                   reading, settings.recall_points)
            defined = counted & ~np.isnan(ip[:, 0])
            pr_topics[(level, reading)] = ip[defined]
            if defined.any():
                pr_per_topic.append(pd.DataFrame({
                    "qid": np.repeat(ranking.judgements.topics[defined], len(points)),
                    "level": level, "reading": reading,
                    "recall": np.tile(points, int(defined.sum())),
                    "precision": ip[defined].reshape(-1)}))
            means = ip[defined].mean(axis=0) if defined.any() else \
                np.full(len(settings.recall_points), np.nan)
            pr += [(level, reading, point, value, int(defined.sum()))
                   for point, value in zip(settings.recall_points, means)]
    return pr, pr_topics, pr_per_topic


def _gain_curves(ranking: Ranking, settings: Settings, counted: np.ndarray):
    """Mean CG/DCG curves with the ideal, nCG/nDCG, the per-topic curves and effort, per
    gain profile and (kind, base), at ranks 1..depth."""
    depth = settings.depth
    ranks = np.arange(1, depth + 1)
    gain_rows, gain_topics, effort_rows = [], {}, []
    for profile, levels in settings.profiles.items():
        table = cg.gain_table(levels, settings.gains)
        for kind, base in [("CG", 0)] + [("DCG", b) for b in settings.dcg_bases]:
            actual = ranking.curve(table, base, depth)[counted]
            ideal = ranking.curve(table, base, depth, ideal=True)[counted]
            norm = cg.normalised(actual, ideal)
            has_ideal = ideal[:, 0] > 0
            norm_kind = "n" + kind
            mean_actual = actual.mean(axis=0) if len(actual) else np.full(depth, np.nan)
            mean_ideal = ideal.mean(axis=0) if len(ideal) else np.full(depth, np.nan)
            mean_norm = norm[has_ideal].mean(axis=0) if has_ideal.any() else \
                np.full(depth, np.nan)
            gain_rows += [(profile, kind, base, int(r), v, i)
                          for r, v, i in zip(ranks, mean_actual, mean_ideal)]
            gain_rows += [(profile, norm_kind, base, int(r), v, 1.0)
                          for r, v in zip(ranks, mean_norm)]
            gain_topics[(profile, kind, base)] = actual
            gain_topics[(profile, norm_kind, base)] = norm[has_ideal]
            for k in settings.effort_ranks:
                target = float(mean_ideal[k - 1])
                reached = effort.rank_reached(mean_actual, target) if target > 0 else None
                effort_rows.append((profile, kind, base, k, target, reached,
                                    reached is not None))
    return gain_rows, gain_topics, effort_rows


def evaluate_runs(runs: Mapping[str, RankedRun], judgements: Judgements,
                  settings: Settings) -> list[RunResult]:
    """:func:`evaluate_run` of every run (label → ranked run): the settings' measures listed,
    and the standard ones among them set up, once for all."""
    measures = settings.measure_list()
    names = [str(m) for m in measures if isinstance(m, standard_measures.StandardMeasure)]
    standard = standard_measures.StandardMeasures(judgements, names) if names else None
    return [evaluate_run(label, run, judgements, settings, measures, standard)
            for label, run in runs.items()]


def evaluate(runs: Mapping[str, RankedRun], judgements: Judgements,
             settings: Settings, bootstrap: bool = True) -> dict[str, pd.DataFrame]:
    """Every table of the contract for a set of runs (label → ranked run); without
    ``bootstrap`` all but ``bootstrap_ci`` (the slowest table, which nothing downstream
    of ``gradedrel evaluate`` needs unless asked for)."""
    results = evaluate_runs(runs, judgements, settings)
    tables = tidy_tables(results, judgements)
    tables.update(significance_tables(results, judgements, settings))
    if bootstrap:
        tables["bootstrap_ci"] = bootstrap_table(results, settings)
    return tables

