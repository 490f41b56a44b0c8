"""The findings report as Markdown, one per collection and model.

It states each of the paper's four findings with its verdict under the pre-registered
rules (docs/preregistration.md; :mod:`gradedrel.report.assessment`), every comparison
behind the verdicts (effect, interval, raw and Holm-adjusted p, minimum detectable effect),
the reproduction measures of Breuer et al. (SIGIR 2020) and, plainly, how our setting differs
from the paper's. Deterministic: no dates, fixed order and digits.
"""
from __future__ import annotations

from typing import Mapping

import pandas as pd

from gradedrel.report import assessment
from gradedrel.report.published import Published
from gradedrel.report.tables import Table

ASPECTS = [("collection", "collection"), ("engine", "retrieval engine"),
           ("thesaurus", "thesaurus"), ("query_construction", "query construction")]


def reproduction_table(frame: pd.DataFrame, title: str) -> Table:
    """ER and ΔRI per query type and level (AvP improvements shown in points)."""
    shown = frame.assign(**{c: 100 * frame[c] for c in ("paper improvement", "our improvement")})
    notes = ["Improvements over the baseline in AvP points. ER = our improvement ÷ the paper's "
             "(1 = reproduced, < 1 smaller, < 0 reversed); ΔRI = RI(paper) − RI(ours), with "
             "RI = (M_type − M_baseline) / M_baseline (0 = reproduced, > 0 smaller than "
             "published). Breuer et al., SIGIR 2020 (as in repro_eval), from published means."]
    return Table(shown, title, notes, {"paper improvement": 1, "our improvement": 1, "ER": 2,
                                       "RI paper": 3, "RI ours": 3, "ΔRI": 3})


def findings_markdown(title: str, model: str, comparisons: pd.DataFrame,
                      findings: pd.DataFrame, reproduction: Table, avp: Table,
                      published: Published, ours: Mapping[str, str],
                      links: Mapping[str, str]) -> str:
    """The findings report: verdicts under the pre-registered rules, every comparison behind
    them, how the setting differs, the reproduction measures and the AvP table."""
    lines = [f"# The four findings of Järvelin & Kekäläinen (SIGIR 2000): {title}, {model}",
             "", f"Published numbers: {published.source}.", "",
             assessment.verdicts_markdown("Verdicts", comparisons, findings),
             "## How our setting differs from the paper's", "",
             "| | paper | ours |", "|---|---|---|"]
    for key, label in ASPECTS:
        lines.append(f"| {label} | {published.setting.get(key, '–')} | {ours.get(key, '–')} |")
    by_program = str(ours.get("query_construction", "")).startswith("automatic")
    construction = ("queries built by program rather than by people" if by_program else
                    "queries built by other curators, from another thesaurus")
    lines += ["", "Differences in the numbers below are read against these differences: a "
              "different collection and judges, a different engine and ranking function, a "
              f"general thesaurus instead of one built for the requests, and {construction}.",
              ""]
    lines += ["## Reproduction measures", "", reproduction.to_markdown(),
              "## Stratified AvP beside the paper's", "", avp.to_markdown()]
    if links:
        lines += ["## Tables and figures", "",
                  *(f"- [{name}]({path})" for name, path in links.items()), ""]
    return "\n".join(lines)
