"""One run's evaluation (:class:`RunResult`): what :func:`~gradedrel.evaluation.evaluate.
evaluate_run` computes and the table writers (:mod:`.tables`, :mod:`.significance_tables`)
read."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class RunResult:
    """One run's measures: per-topic values and averaged curves."""

    label: str
    per_topic: dict[str, np.ndarray]          # measure → (T,), NaN = undefined
    pr: list[tuple]                            # level, reading, recall, precision, topics
    pr_topics: dict[tuple[int, str], np.ndarray]  # (level, reading) → (topics, P) defined rows
    pr_topic_index: dict[tuple[int, str], np.ndarray]  # … and which topics those rows are
    gain: list[tuple]                          # profile, kind, base, rank, value, ideal
    gain_topics: dict[tuple[str, str, int], np.ndarray]  # per-topic curves, defined rows
    effort: list[tuple]
    coverage: dict
    ranked_grades: list[str]                   # levels at ranks 1..depth, per topic
