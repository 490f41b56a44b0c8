"""Significance (Friedman, post-hoc, against a baseline) and bootstrap tables over the runs'
per-topic values, computed by the one statistics module (:mod:`gradedrel.evaluation.measures.significance`)."""
from __future__ import annotations

import logging
from itertools import combinations

import numpy as np
import pandas as pd

from gradedrel.core.progress import progress
from gradedrel.evaluation.contract import COLUMNS
from gradedrel.evaluation.run_result import RunResult
from gradedrel.evaluation.measures import jk, significance
from gradedrel.evaluation.measures.avp import AvP
from gradedrel.evaluation.measures.judgements import Judgements
from gradedrel.evaluation.settings import Settings

log = logging.getLogger("gradedrel")


def topic_order(judgements: Judgements) -> np.ndarray:
    """The order the tests take the topics in: by id as text (as the findings' per-request
    matrices have them, :func:`gradedrel.report.assessment.avp_matrix`). The randomisation
    test's sign flips are drawn per position, so one comparison gets one p whichever table
    reports it."""
    return np.argsort(np.asarray(judgements.topics, dtype=str), kind="stable")


def significance_tables(results: list[RunResult], judgements: Judgements,
                        settings: Settings) -> dict[str, pd.DataFrame]:
    """Friedman, post-hoc and versus-baseline tables of the runs for each significance measure
    (ValueError: one not computed)."""
    measures = list(settings.default_significance_measures()) if results else []
    unknown = [m for m in measures if m not in results[0].per_topic]
    if unknown:
        raise ValueError(f"config: evaluation.significance.measures: not computed: {unknown}")
    labels = [r.label for r in results]
    friedman_rows, posthoc_rows, baseline_rows = [], [], []
    order = topic_order(judgements)
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
            for j, i in enumerate(others):
                baseline_rows.append((measure, labels[i], base, len(values),
                                      values[:, i].mean(), values[:, b].mean(),
                                      values[:, i].mean() - values[:, b].mean(),
                                      t_tests[j].statistic, t_tests[j].p_value, t_adj[j],
                                      r_tests[j].p_value, r_adj[j],
                                      settings.randomisation_trials, settings.correction))
    if settings.baseline_run not in labels:
        log.info("baseline run %r not among the runs %s: no tests against a baseline",
                 settings.baseline_run, labels)
    return {
        "significance_friedman": pd.DataFrame(
            friedman_rows, columns=COLUMNS["significance_friedman"]),
        "significance_posthoc": pd.DataFrame(
            posthoc_rows, columns=COLUMNS["significance_posthoc"]),
        "significance_vs_baseline": pd.DataFrame(
            baseline_rows, columns=COLUMNS["significance_vs_baseline"]),
    }


def bootstrap_table(results: list[RunResult], settings: Settings) -> pd.DataFrame:
    """Bootstrap CIs: means of the significance measures; averaged P–R and gain curves."""
    rows = []
    boot = dict(resamples=settings.bootstrap_resamples, confidence=settings.confidence,
                seed=settings.seed)

    def add(label, measure, at, values):
        mean, low, high = significance.bootstrap_ci(values, **boot)
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
            name = str(jk.measure(kind, profile, base, gains=settings.gains))
            add(r.label, name, [str(i) for i in range(1, settings.depth + 1)], matrix)
    return pd.DataFrame(rows, columns=COLUMNS["bootstrap_ci"])
