"""The evaluation's results as the tidy tables of the contract (per topic, means, curves,
effort, coverage); column names in :mod:`gradedrel.evaluation.contract`."""
from __future__ import annotations

import numpy as np
import pandas as pd

from gradedrel.evaluation.contract import COLUMNS
from gradedrel.evaluation.run_result import RunResult
from gradedrel.evaluation.measures import ranked_grades
from gradedrel.evaluation.measures.judgements import Judgements


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
        with np.errstate(invalid="ignore"):
            mean = np.where(counts > 0, np.nansum(matrix, axis=0) / np.maximum(counts, 1),
                            np.nan)
        means.append(pd.DataFrame({"run": result.label, "measure": measures, "mean": mean,
                                   "topics": counts.astype(np.int64)}))
    pr, gain, eff = (pd.DataFrame([(r.label, *row) for r in results for row in getattr(r, field)],
                                  columns=COLUMNS[name])
                     for field, name in (("pr", "pr_curves"), ("gain", "gain_curves"),
                                         ("effort", "effort")))
    eff["rank_reached"] = eff["rank_reached"].astype("Int64")
    coverage = pd.DataFrame([r.coverage for r in results])
    return {"per_topic": pd.concat(per_topic, ignore_index=True) if per_topic else
            pd.DataFrame(columns=COLUMNS["per_topic"]),
            "means": pd.concat(means, ignore_index=True) if means else
            pd.DataFrame(columns=COLUMNS["means"]),
            "pr_curves": pr, "pr_per_topic": pr_per_topic_table(results, judgements),
            "gain_curves": gain, "effort": eff, "coverage": coverage,
            "ranked_grades": ranked_grades.ranked_grades_table(
                [r.label for r in results], [r.ranked_grades for r in results], judgements)}


def pr_per_topic_table(results: list[RunResult], judgements: Judgements) -> pd.DataFrame:
    """Interpolated precision per topic, level, reading and recall point (defined topics)."""
    frames = []
    for r in results:
        for (level, reading), matrix in r.pr_topics.items():
            if not len(matrix):
                continue
            n_topics, n_points = matrix.shape
            # every (level, reading) uses the same recall points: read them off the curve rows
            points = np.asarray([row[2] for row in r.pr[:n_points]], dtype=np.float64)
            frames.append(pd.DataFrame({
                "run": r.label,
                "qid": np.repeat(judgements.topics[r.pr_topic_index[(level, reading)]],
                                 n_points),
                "level": level, "reading": reading,
                "recall": np.tile(points, n_topics), "precision": matrix.reshape(-1)}))
    columns = COLUMNS["pr_per_topic"]
    return pd.concat(frames, ignore_index=True)[columns] if frames else \
        pd.DataFrame(columns=columns)
