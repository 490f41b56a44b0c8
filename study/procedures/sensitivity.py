"""Sensitivity of the primary comparison to requests named in advance.

A pre-registration may name requests whose plans are in doubt (docs/preregistration-nfcorpus.md:
a curator's keys for PLAIN-3372 came from memory of the page the request was made from). The
primary comparison is then reported twice: on every request (it decides) and without the
named ones (it does not). Same rules, same bootstrap and randomisation; pure functions.
"""
from __future__ import annotations

from typing import Sequence

import pandas as pd

from gradedrel.report import assessment
from gradedrel.report.design import Design

COLUMNS = ["condition", "excluded", "reason"] + assessment.COMPARISON_COLUMNS


def primary_without(per_topic: pd.DataFrame, exclude: Sequence[str], reason: str,
                    paper: assessment.Published, study: Design) -> pd.DataFrame:
    """Two rows: the primary comparison on every request, and without ``exclude``.

    A named request that is not among the per-topic values is an error (a typo would
    otherwise report an unchanged comparison as a sensitivity result).
    """
    per_topic = per_topic.assign(value=pd.to_numeric(per_topic["value"]))
    finding = study.finding(2)
    level = finding.headline.level
    m3 = assessment.avp_matrix(per_topic, level, study.query_types)
    unknown = sorted(set(exclude) - set(m3.index))
    if unknown:
        raise ValueError(f"sensitivity: requests {unknown} have no AvP(level=3) in this "
                         f"plan set (known: {len(m3)} requests)")
    rows = []
    for condition, matrix, excluded, why in (
            ("all requests", m3, "", ""),
            ("without the named requests", m3.drop(index=list(exclude)), " ".join(exclude),
             reason)):
        from gradedrel.evaluation.comparisons import finding_rows

        numbers = pd.DataFrame(finding_rows(finding, {finding.headline.measure: matrix}, None,
                                            study))
        found, _, _ = assessment.assess_finding(
            finding, assessment.numbers_of(numbers, finding.number), None, paper, study)
        primary = dict(found[0], deciding=condition == "all requests")
        rows.append({"condition": condition, "excluded": excluded, "reason": why, **primary})
    return pd.DataFrame(rows, columns=COLUMNS)


def markdown(table: pd.DataFrame, title: str) -> str:
    """The sensitivity table of the primary comparison as Markdown, with the exclusion reasons."""
    lines = [f"# Sensitivity of the primary comparison — {title}", "",
             "| condition | excluded | requests | estimate | 95 % CI | p | verdict |",
             "|---|---|---:|---:|---|---:|---|"]
    for row in table.itertuples(index=False):
        lines.append(f"| {row.condition} | {row.excluded or '—'} | {row.requests} | "
                     f"{row.estimate:+.1f} | [{row.low:+.1f}, {row.high:+.1f}] | "
                     f"{row.p_value:.3f} | {row.verdict} |")
    reasons = {r for r in table["reason"] if r}
    if reasons:
        lines += ["", *(f"Excluded because: {r}" for r in sorted(reasons))]
    lines += ["", "The comparison on all requests decides (pre-registered); the other is "
              "reported beside it and does not."]
    return "\n".join(lines) + "\n"
