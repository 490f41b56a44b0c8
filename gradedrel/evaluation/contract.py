"""The evaluation's files and their columns: the one statement of the contract, imported
by the writer (:mod:`gradedrel.evaluation.tables`, :mod:`.files`) and every reader (the
report, the comparison of plan sets).

Each file is ``results/{c}/evaluation/{planset}/{model}/<name>.tsv``.
"""
from __future__ import annotations

COLUMNS = {
    "per_topic": ["run", "qid", "measure", "value"],
    "means": ["run", "measure", "mean", "topics"],
    "pr_curves": ["run", "level", "reading", "recall", "precision", "topics"],
    "pr_per_topic": ["run", "qid", "level", "reading", "recall", "precision"],
    "gain_curves": ["run", "profile", "kind", "base", "rank", "value", "ideal"],
    "effort": ["run", "profile", "kind", "base", "k", "ideal_at_k", "rank_reached", "reached"],
    "significance_friedman": ["measure", "runs", "topics", "statistic", "df", "p_value"],
    "significance_posthoc": ["measure", "run_a", "run_b", "topics", "mean_a", "mean_b",
                             "statistic", "p_value", "p_adjusted", "correction"],
    "significance_vs_baseline": ["measure", "run", "baseline", "topics", "mean_run",
                                 "mean_baseline", "difference", "t_statistic", "t_p_value",
                                 "t_p_adjusted", "randomisation_p_value",
                                 "randomisation_p_adjusted", "trials", "correction"],
    "bootstrap_ci": ["run", "measure", "at", "mean", "low", "high", "confidence",
                     "resamples", "topics"],
    # what the findings' effort needs besides the values: the judged rankings
    # (gradedrel.evaluation.measures.ranked_grades rebuilds gain and ideal vectors from
    # them and the collection's recall_base.tsv)
    "ranked_grades": ["run", "qid", "grades"],
    # the collection's recall_base.tsv (gradedrel.collection.testbed.recall_base), read with it
    "recall_base": ["qid", "n_0", "n_1", "n_2", "n_3"],
    # written beside them by the comparisons rule (gradedrel.evaluation.comparisons): the
    # numbers of a study design's comparisons, and the difference figures' intervals
    "comparisons": ["finding", "part", "comparison", "measure", "test_of_record", "requests",
                    "estimate", "low", "high", "confidence", "p_value", "p_holm",
                    "mde", "mean_second", "first_rank", "second_rank", "censored", "depth"],
    "difference_bands": ["run", "profile", "kind", "base", "rank", "lo", "hi", "topics"],
}
#: The files written, in order (coverage.tsv: one row per run, columns as evaluated).
TABLES = ("per_topic", "means", "pr_curves", "pr_per_topic", "gain_curves", "effort",
          "significance_friedman", "significance_posthoc", "significance_vs_baseline",
          "bootstrap_ci", "coverage", "ranked_grades")
SIGNIFICANCE_TABLES = ("significance_friedman", "significance_posthoc",
                       "significance_vs_baseline")
