"""The findings report of one plan set and model: the four findings assessed under the
pre-registered rules (:mod:`gradedrel.report.assessment`, docs/preregistration.md), from
the evaluation's per-request values and the runs' gain vectors.

:func:`assess_files` reads the files, :func:`write_assessment` writes the three verdict
tables (every comparison, one verdict per finding, the primary comparison alone).
"""
from __future__ import annotations

from typing import Mapping, Sequence

import pandas as pd

from gradedrel.core.io import write_tsv
from gradedrel.evaluation.measures.avp import AvP
from gradedrel.report import assessment
from gradedrel.report.design import Design
from gradedrel.report.published import Published
from gradedrel.report.tables import mean_of

def avp_means(means: pd.DataFrame, levels: Sequence[int],
              query_types: Sequence[str]) -> dict[tuple[int, str], float]:
    """Mean AvP (0..1) per (level, query type) from a means.tsv frame."""
    return {(lv, q): mean_of(means, q, str(AvP(level=lv)))[0] for lv in levels for q in query_types}


def assess_files(per_topic: pd.DataFrame, ranked_grades: pd.DataFrame,
                 recall_base: pd.DataFrame, paper: Published, gains: Mapping[int, float],
                 profiles: Mapping[str, Sequence[int]], depth: int, design: Design):
    """(comparisons, findings) for one plan set and model under ``design``, from the
    evaluation's files only: its per-topic values, and its judged rankings and recall bases
    (``ranked_grades.tsv``, ``recall_base.tsv``: :mod:`gradedrel.evaluation.measures.ranked_grades`),
    from which the per-request gain vectors are rebuilt exactly as the evaluation built
    them. ``gains`` and ``profiles`` are the evaluation's (the design names the profiles its
    effort and DCG comparisons read); the requests are the evaluation's, in its order.
    """
    from gradedrel.evaluation.measures.ranked_grades import vectors_by_profile

    per_topic = per_topic.assign(value=pd.to_numeric(per_topic["value"]))
    avp = {level: assessment.avp_matrix(per_topic, level, design.query_types)
           for level in design.levels()}
    used = {name: profiles[name] for name in design.profiles()}
    curves, ideal = vectors_by_profile(ranked_grades, recall_base, used, gains, depth,
                                       runs=design.query_types)
    return assessment.assess(avp, curves, ideal, assessment.published_from(paper), design)


def write_assessment(comparisons: pd.DataFrame, findings: pd.DataFrame, verdicts: str,
                     findings_path: str, primary: str) -> None:
    """The verdict tables: every comparison, each finding's verdict, the primary comparison."""
    write_tsv(comparisons, verdicts)
    write_tsv(findings, findings_path)
    write_tsv(comparisons[comparisons["part"] == "primary"], primary)
