"""The evaluation's results as the tables of the contract (column names in
:mod:`gradedrel.evaluation.contract`): one run's evaluation (:class:`RunResult`, what
:func:`~gradedrel.evaluation.evaluate.evaluate_run` computes), the tidy tables (per topic,
means, curves, effort, coverage), and the significance (Friedman, post-hoc, against a
baseline) and bootstrap tables over the runs' per-topic values, computed by the one
statistics module (:mod:`gradedrel.evaluation.measures.significance`)."""
from __future__ import annotations

import logging
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pandas as pd

from gradedrel.core.progress import progress
from gradedrel.evaluation.contract import COLUMNS, SIGNIFICANCE_TABLES
from gradedrel.evaluation.measures import registry, significance
from gradedrel.evaluation.measures.avp import AvP
from gradedrel.evaluation.measures.judgements import Judgements
from gradedrel.evaluation.settings import Settings

log = logging.getLogger("gradedrel")


@dataclass
class RunResult:
    """One run's measures: per-topic values and averaged curves."""

    label: str
    per_topic: dict[str, np.ndarray]          # measure → (T,), NaN = undefined
    pr: list[tuple]                            # level, reading, recall, precision, topics
    pr_topics: dict[tuple[int, str], np.ndarray]  # (level, reading) → (topics, P) defined rows
    pr_per_topic: list[pd.DataFrame]           # … as pr_per_topic.tsv's rows (no run column)
    gain: list[tuple]                          # profile, kind, base, rank, value, ideal
    gain_topics: dict[tuple[str, str, int], np.ndarray]  # per-topic curves, defined rows
    effort: list[tuple]
    coverage: dict
    ranked_grades: list[str]                   # levels at ranks 1..depth, per topic


def tidy_tables(results: list[RunResult], judgements: Judgements) -> dict[str, pd.DataFrame]:
    """per_topic, means, pr_curves, gain_curves, effort, coverage and ranked_grades
    tables."""
    topics = judgements.topics
    per_topic, means = [], []
    for result in results:
        measures = list(result.per_topic)
        matrix = np.vstack([result.per_topic[m] for m in measures]).T  # (T, M)
        defined = ~np.isnan(matrix)
        t_idx, m_idx = np.nonzero(defined)  # row-major: topic by topic, measures in order
        per_topic.append(pd.DataFrame({"run": result.label, "qid": topics[t_idx],
                                       "measure": np.asarray(measures, dtype=object)[m_idx],
                                       "value": matrix[t_idx, m_idx]}))
        counts = defined.sum(axis=0)
        mean = np.where(counts > 0, np.nansum(matrix, axis=0) / np.maximum(counts, 1), np.nan)
        means.append(pd.DataFrame({"run": result.label, "measure": measures, "mean": mean,
                                   "topics": counts.astype(np.int64)}))
    pr, gain, eff = (pd.DataFrame([(r.label, *row) for r in results for row in getattr(r, field)],
                                  columns=COLUMNS[name])
                     for field, name in (("pr", "pr_curves"), ("gain", "gain_curves"),
                                         ("effort", "effort")))
    eff["rank_reached"] = eff["rank_reached"].astype("Int64")
    coverage = pd.DataFrame([r.coverage for r in results])
    pr_per_topic = [rows.assign(run=r.label) for r in results for rows in r.pr_per_topic]
    return {"per_topic": _stacked(per_topic, "per_topic"), "means": _stacked(means, "means"),
            "pr_curves": pr, "pr_per_topic": _stacked(pr_per_topic, "pr_per_topic"),
            "gain_curves": gain, "effort": eff, "coverage": coverage,
            "ranked_grades": _stacked([pd.DataFrame({"run": r.label, "qid": topics,
                                                     "grades": r.ranked_grades})
                                       for r in results], "ranked_grades")}


def _stacked(frames: list[pd.DataFrame], name: str) -> pd.DataFrame:
    """The frames one under the other, in the columns of the table ``name`` (none: no row)."""
    columns = COLUMNS[name]
    return pd.concat(frames, ignore_index=True)[columns] if frames else \
        pd.DataFrame(columns=columns)


def significance_tables(results: list[RunResult], judgements: Judgements,
                        settings: Settings) -> dict[str, pd.DataFrame]:
    """Friedman, post-hoc and versus-baseline tables of the runs for each significance measure
    (ValueError: one not computed); with the tests off (``settings.significance_tests``),
    the tables with their columns and no row, so that their files are there and well-formed
    (provenance.json's ``config.evaluation.significance_tests: false`` says why they are
    empty)."""
    if not settings.significance_tests:
        log.info("significance tests off (evaluation.significance: null, or "
                 "--no-significance): the significance tables have no rows")
        return {name: pd.DataFrame(columns=COLUMNS[name]) for name in SIGNIFICANCE_TABLES}
    measures = list(settings.default_significance_measures()) if results else []
    unknown = [m for m in measures if m not in results[0].per_topic]
    if unknown:
        raise ValueError(f"config: evaluation.significance.measures: not computed: {unknown}")
    labels = [r.label for r in results]
    friedman_rows, posthoc_rows, baseline_rows = [], [], []
    # the tests take the topics by id as text (as the findings' per-request matrices have
    # them, gradedrel.report.assessment.avp_matrix): the randomisation test's sign flips are
    # drawn per position, so one comparison gets one p whichever table reports it
    order = np.argsort(np.asarray(judgements.topics, dtype=str), kind="stable")
    for measure in measures:
        # (topics, runs) over the topics where every run has a value, in topic order
        values = np.vstack([r.per_topic[measure] for r in results]).T[order]
        values = values[~np.isnan(values).any(axis=1)]
        outcome = significance.friedman(values)
        if outcome is not None:
            test, df = outcome
            friedman_rows.append((measure, len(labels), len(values), test.statistic, df,
                                  test.p_value))
        # post-hoc pairs only after Friedman's test (k >= 3 runs): two runs are one pair,
        # tested against the baseline below, not a family
        pairs = list(combinations(range(len(labels)), 2)) if outcome is not None else []
        tests = [significance.wilcoxon(values[:, a], values[:, b]) for a, b in pairs]
        adjusted = significance.adjust(np.array([t.p_value for t in tests]),
                                       settings.correction)
        for (a, b), test, p_adj in zip(pairs, tests, adjusted):
            posthoc_rows.append((measure, labels[a], labels[b], len(values),
                                 values[:, a].mean(), values[:, b].mean(),
                                 test.statistic, test.p_value, p_adj, settings.correction))
        base = settings.baseline_run
        if base in labels and len(labels) > 1:
            b = labels.index(base)
            others = [i for i in range(len(labels)) if i != b]
            t_tests = [significance.paired_t(values[:, i], values[:, b]) for i in others]
            r_tests = [significance.randomisation(values[:, i], values[:, b],
                                                  settings.randomisation_trials, settings.seed)
                       for i in others]
            t_adj = significance.adjust(np.nan_to_num(np.array([t.p_value for t in t_tests]),
                                                      nan=1.0), settings.correction)
            r_adj = significance.adjust(np.array([t.p_value for t in r_tests]),
                                        settings.correction)
            for i, t, t_p, r, r_p in zip(others, t_tests, t_adj, r_tests, r_adj):
                mean, mean_base = values[:, i].mean(), values[:, b].mean()
                baseline_rows.append((measure, labels[i], base, len(values), mean, mean_base,
                                      mean - mean_base, t.statistic, t.p_value, t_p, r.p_value,
                                      r_p, settings.randomisation_trials, settings.correction))
    if settings.baseline_run not in labels:
        log.info("baseline run %r not among the runs %s: no tests against a baseline",
                 settings.baseline_run, labels)
    found = (friedman_rows, posthoc_rows, baseline_rows)
    return {name: pd.DataFrame(rows, columns=COLUMNS[name])
            for name, rows in zip(SIGNIFICANCE_TABLES, found)}


def bootstrap_table(results: list[RunResult], settings: Settings) -> pd.DataFrame:
    """Bootstrap CIs: means of the significance measures; averaged P–R and gain curves."""
    rows = []

    def add(label, measure, at, values):
        mean, low, high = significance.bootstrap_ci(values, settings.bootstrap_resamples,
                                                    settings.confidence, settings.seed)
        for point, m, lo, hi in zip(at, mean, low, high):
            rows.append((label, measure, point, m, lo, hi, settings.confidence,
                         settings.bootstrap_resamples, len(values)))

    for r in progress(results, desc="bootstrap intervals", unit="runs"):
        for measure in settings.default_significance_measures():
            values = r.per_topic[measure]
            add(r.label, measure, [""], values[~np.isnan(values)])
        for (level, reading), matrix in r.pr_topics.items():
            name = AvP(level=level, reading=reading).interpolated_name
            add(r.label, name, [f"{p:g}" for p in settings.recall_points], matrix)
        for (profile, kind, base), matrix in r.gain_topics.items():
            curve = registry.families()[f"JK_{kind}"](profile=profile, gains=settings.gains)
            name = str(curve(b=base) if base else curve)
            add(r.label, name, [str(i) for i in range(1, settings.depth + 1)], matrix)
    return pd.DataFrame(rows, columns=COLUMNS["bootstrap_ci"])
