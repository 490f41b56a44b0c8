"""The findings report of one plan set and model: the four findings assessed under the
pre-registered rules (:mod:`gradedrel.report.assessment`, docs/preregistration.md), from
the evaluation's per-request values and its effort.

:func:`assess_files` reads the files, :func:`write_assessment` writes the three verdict
tables (every comparison, one verdict per finding, the primary comparison alone).
"""
from __future__ import annotations

from typing import Sequence

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


def assess_files(per_topic: pd.DataFrame, effort, paper: Published, design: Design):
    """(comparisons, findings) for one plan set and model under ``design``, from the
    evaluation's per-topic values (every measure the design names) and its effort
    (``effort``: :class:`gradedrel.evaluation.measures.effort.RequestCurves` of the
    evaluation's requests, for the gain profiles the design's effort comparisons name)."""
    per_topic = per_topic.assign(value=pd.to_numeric(per_topic["value"]))
    values = {name: assessment.measure_matrix(per_topic, name, design.query_types)
              for name in design.measures()}
    return assessment.assess(values, effort, assessment.published_from(paper), design)


def write_assessment(comparisons: pd.DataFrame, findings: pd.DataFrame, verdicts: str,
                     findings_path: str, primary: str) -> None:
    """The verdict tables: every comparison, each finding's verdict, the primary comparison."""
    write_tsv(comparisons, verdicts)
    write_tsv(findings, findings_path)
    write_tsv(comparisons[comparisons["part"] == "primary"], primary)
