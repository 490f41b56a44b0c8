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
from gradedrel.evaluation.measures import names
from gradedrel.report import assessment
from gradedrel.report.design import Design
from gradedrel.report.published import Published
from gradedrel.report.tables import mean_of

def avp_means(means: pd.DataFrame, levels: Sequence[int],
              query_types: Sequence[str]) -> dict[tuple[int, str], float]:
    """Mean AvP (0..1) per (level, query type) from a means.tsv frame."""
    return {(lv, q): mean_of(means, q, names.avp(lv))[0] for lv in levels for q in query_types}


def assess_files(per_topic: pd.DataFrame, runs: Mapping[str, str], qrels: pd.DataFrame,
                 topics: Sequence[str], paper: Published, gains: Mapping[int, float],
                 profiles: Mapping[str, Sequence[int]], depth: int, design: Design):
    """(comparisons, findings) for one plan set and model under ``design``.

    ``runs`` maps query type -> run file; ``qrels`` has ``qid, docno, grade``; ``topics`` are
    the plan set's requests (the effort curves average over them, as the evaluation does);
    ``gains`` and ``profiles`` are the evaluation's (the design names the profiles its effort
    and DCG comparisons read).
    """
    from gradedrel.retrieval.runs import read_run

    per_topic = per_topic.assign(value=pd.to_numeric(per_topic["value"]))
    avp = {level: assessment.avp_matrix(per_topic, level, design.query_types)
           for level in design.levels()}
    ranked = {t: read_run(runs[t]) for t in design.query_types}
    used = {name: profiles[name] for name in design.profiles()}
    curves, ideal = assessment.gain_vectors_of_runs(ranked, qrels, topics, used, gains, depth)
    return assessment.assess(avp, curves, ideal, assessment.published_from(paper), design)


def write_assessment(comparisons: pd.DataFrame, findings: pd.DataFrame, verdicts: str,
                     findings_path: str, primary: str) -> None:
    """The verdict tables: every comparison, each finding's verdict, the primary comparison."""
    write_tsv(comparisons, verdicts)
    write_tsv(findings, findings_path)
    write_tsv(comparisons[comparisons["part"] == "primary"], primary)
