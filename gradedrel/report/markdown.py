"""The findings report as Markdown, one per collection and model.

It states each of the paper's four findings, our numbers with p-values and effect
sizes, the verdict by the rule of :func:`gradedrel.report.findings.verdict`, the reproduction
measures of Breuer et al. (SIGIR 2020) and, plainly, how our setting differs from the
paper's. Deterministic: no dates, fixed order and digits.
"""
from __future__ import annotations

from typing import Mapping, Sequence

import pandas as pd

from gradedrel.report.findings import Finding
from gradedrel.report.published import Published
from gradedrel.report.tables import Table

ASPECTS = [("collection", "collection"), ("engine", "retrieval engine"),
           ("thesaurus", "thesaurus"), ("query_construction", "query construction")]


def reproduction_table(frame: pd.DataFrame, title: str) -> Table:
    """ER and ΔRI per query type and level (AvP improvements shown in points)."""
    shown = frame.copy()
    for column in ("paper improvement", "our improvement"):
        shown[column] = 100 * shown[column]
    notes = ["Improvements over the baseline in AvP points. ER = our improvement ÷ the paper's "
             "(1 = reproduced, < 1 smaller, < 0 reversed); ΔRI = RI(paper) − RI(ours), with "
             "RI = (M_type − M_baseline) / M_baseline (0 = reproduced, > 0 smaller than "
             "published). Breuer et al., SIGIR 2020 (as in repro_eval), from published means."]
    return Table(shown, title, notes, {"paper improvement": 1, "our improvement": 1, "ER": 2,
                                       "RI paper": 3, "RI ours": 3, "ΔRI": 3})


def findings_markdown(collection: str, model: str, findings: Sequence[Finding],
                      reproduction: Table, avp: Table, published: Published,
                      ours: Mapping[str, str], thresholds: Mapping, alpha: float,
                      paired_test: str, links: Mapping[str, str]) -> str:
    lines = [f"# The four findings of Järvelin & Kekäläinen (SIGIR 2000): {collection}, {model}",
             "", f"Published numbers: {published.source}.", "",
             "| finding | claim | verdict |", "|---|---|---|"]
    lines += [f"| {f.number} | {f.claim} | **{f.verdict}** |" for f in findings]
    lines += ["", "Verdict rule (the same for every finding): each finding is tested by the "
              "conditions listed under it; it **holds** if every condition holds, **holds "
              "partly** if some but not all do, and **does not hold** if none does. "
              f"Thresholds (config `report.verdict`): {_thresholds(thresholds)}; "
              f"significance level α = {alpha}; " + _tests_text(paired_test), "",
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
    for f in findings:
        lines += [f"## Finding {f.number}: {f.verdict}", "", f"**Claim.** {f.claim}", "",
                  f"**Paper.** {f.published}.", "", "**Conditions.**", ""]
        lines += [f"- [{'x' if c.holds else ' '}] {c.text} — {c.numbers}" for c in f.conditions]
        if f.evidence:
            lines += ["", "**Further numbers.**", ""]
            lines += [f"- {e}" for e in f.evidence]
        lines.append("")
    lines += ["## Reproduction measures", "", reproduction.to_markdown(),
              "## Stratified AvP beside the paper's", "", avp.to_markdown()]
    if links:
        lines += ["## Tables and figures", ""]
        lines += [f"- [{name}]({path})" for name, path in links.items()]
        lines.append("")
    return "\n".join(lines)


def _tests_text(paired_test: str) -> str:
    if paired_test == "evaluation":
        return ("p-values as the evaluation step computed them (its significance files, as in "
                "the significance tables: Friedman per level; each type against the baseline "
                "and the pairwise tests with the p column configured in "
                "`report.significance_columns`); Kendall's W = χ²_F / (n (k − 1)) from its "
                "Friedman statistic.")
    return (f"tests computed here on per-topic AvP with scipy: Friedman (tie-corrected) with "
            f"Kendall's W, and a paired {paired_test} test.")


def _thresholds(thresholds: Mapping) -> str:
    return ", ".join(f"{k} = {v}" for k, v in sorted(thresholds.items()))
