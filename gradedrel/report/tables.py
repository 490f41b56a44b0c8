"""The paper's tables, regenerated from the evaluation, beside the published numbers.

Each builder is a pure function from contract-shaped DataFrames (see
:mod:`gradedrel.report.evaluation_files`) to a :class:`Table`, which renders itself as CSV (for
machines), Markdown and LaTeX (for people). Rendering is deterministic: fixed
digits, fixed row and column order, LF line ends, no dates.

AvP values are shown in percent, as in Järvelin & Kekäläinen (SIGIR 2000), Table 1;
"diff" is ours minus published, in AvP points.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from gradedrel.core.io import write_text
from gradedrel.evaluation.measures.avp import AvP
from gradedrel.report.published import Published

from gradedrel.collection.grades import LEVEL_SHORT as LEVEL_NAMES
from gradedrel.queries.query_types import structure_of


@dataclass
class Table:
    """A table: the data (CSV), a title, notes printed under it, digits per column."""

    frame: pd.DataFrame
    title: str
    notes: list[str] = field(default_factory=list)
    digits: Mapping[str, int] = field(default_factory=dict)
    whole_as_int: bool = False     # counts in a float column print without decimals
    infinite: str = "not reached"  # how an infinite value prints (effort: a rank not reached)

    def _cell(self, column: str, value) -> str:
        if isinstance(value, (bool, np.bool_)):
            return "yes" if value else "no"
        if isinstance(value, (float, np.floating)):
            if math.isnan(value):
                return "–"
            if math.isinf(value):
                return self.infinite if value > 0 else "−" + self.infinite
            if self.whole_as_int and float(value).is_integer():
                return str(int(value))
            if column in self.digits and self.digits[column] < 0:   # p-values: 3 significant
                return f"{value:.3g}"
            text = f"{value:.{self.digits.get(column, 4)}f}"
            return text[1:] if text.startswith("-") and not text.strip("-0.") else text
        return str(value)

    def _rows(self) -> list[list[str]]:
        return [[self._cell(c, v) for c, v in zip(self.frame.columns, row)]
                for row in self.frame.itertuples(index=False, name=None)]

    def to_csv(self) -> str:
        """The table as CSV (floats to six decimals)."""
        return self.frame.to_csv(index=False, float_format="%.6f", lineterminator="\n")

    def to_markdown(self) -> str:
        """The table as Markdown, with its title and notes."""
        numeric = [pd.api.types.is_numeric_dtype(self.frame[c]) for c in self.frame.columns]
        lines = [f"**{self.title}**", "",
                 "| " + " | ".join(map(str, self.frame.columns)) + " |",
                 "|" + "|".join("---:" if n else "---" for n in numeric) + "|"]
        lines += ["| " + " | ".join(row) + " |" for row in self._rows()]
        if self.notes:
            lines.append("")
            lines += self.notes
        return "\n".join(lines) + "\n"

    def to_latex(self) -> str:
        """The table as a LaTeX table (booktabs), with its title as caption and notes."""
        numeric = [pd.api.types.is_numeric_dtype(self.frame[c]) for c in self.frame.columns]
        spec = "".join("r" if n else "l" for n in numeric)
        lines = ["\\begin{table}[t]", "\\centering", "\\small",
                 f"\\caption{{{latex_escape(self.title)}}}",
                 f"\\begin{{tabular}}{{{spec}}}", "\\toprule",
                 " & ".join(latex_escape(str(c)) for c in self.frame.columns) + " \\\\",
                 "\\midrule"]
        lines += [" & ".join(latex_escape(c) for c in row) + " \\\\" for row in self._rows()]
        lines += ["\\bottomrule", "\\end{tabular}"]
        if self.notes:
            lines.append("\\par\\footnotesize " + " ".join(latex_escape(n) for n in self.notes))
        lines.append("\\end{table}")
        return "\n".join(lines) + "\n"

    def write(self, csv: str, md: str, tex: str, html: str | None = None) -> None:
        """Write the table atomically as CSV, Markdown, LaTeX (and, for the report, its Markdown
        as a standalone HTML page)."""
        from gradedrel.report.html import markdown_to_html

        write_text(self.to_csv(), csv)
        write_text(self.to_markdown(), md)
        write_text(self.to_latex(), tex)
        if html is not None:
            write_text(markdown_to_html(self.to_markdown(), self.title), html)


_LATEX = {"\\": "\\textbackslash{}", "&": "\\&", "%": "\\%", "$": "\\$", "#": "\\#",
          "_": "\\_", "{": "\\{", "}": "\\}", "~": "\\textasciitilde{}",
          "^": "\\textasciicircum{}", "–": "--", "Δ": "$\\Delta$", "≥": "$\\geq$"}


def latex_escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped."""
    return "".join(_LATEX.get(ch, ch) for ch in text)


def mean_of(means: pd.DataFrame, run: str, measure: str) -> tuple[float, int]:
    """The (mean, topics) of one run and measure in a means.tsv frame; a clear error if absent.

    A measure no topic has (AvP at a level none of the plan set's topics has a document at,
    e.g. after a grade-map edit) has an empty mean over 0 topics: NaN, shown as a gap."""
    row = means[(means["run"] == run) & (means["measure"] == measure)]
    if len(row) != 1:
        raise ValueError(f"means.tsv: expected one row for run {run!r}, measure {measure!r}; "
                         f"found {len(row)}")
    value, topics = row["mean"].iloc[0], int(row["topics"].iloc[0])
    if pd.isna(value) or str(value).strip() == "":
        if topics == 0:
            return float("nan"), 0
        raise ValueError(f"means.tsv: run {run!r}, measure {measure!r}: no mean over "
                         f"{topics} topics")
    return float(value), topics


def avp_table(means: pd.DataFrame, published: Published, query_types: Sequence[str],
              levels: Sequence[int], title: str) -> Table:
    """Stratified AvP (%) in the paper's layout: rows level x (u, e); per structure ours,
    published and ours - published; topics (with >= 1 document at the level) per row."""
    structures = list(dict.fromkeys(structure_of(q)[0] for q in query_types))
    rows, counts = [], {}
    for level in sorted(levels):
        measure = str(AvP(level=level))
        for expansion in ("u", "e"):
            row = {"level": f"{level} {LEVEL_NAMES[level]}", "exp.": expansion}
            for structure in structures:
                qt = f"{structure}/{expansion}"
                if qt not in query_types:
                    continue
                ours, topics = mean_of(means, qt, measure)
                counts.setdefault(level, set()).add(topics)
                paper = published.avp_of(level, qt)
                row[f"{structure} ours"] = 100 * ours
                row[f"{structure} paper"] = 100 * paper
                row[f"{structure} diff"] = 100 * (ours - paper)
            row["topics"] = _count_text(counts.get(level, set()))
            rows.append(row)
    frame = pd.DataFrame(rows)
    notes = ["AvP in percent; diff = ours − paper, in AvP points. Topics: requests with at least "
             "one document judged at the level (the level's recall base is not empty).",
             "Topics per level (ours): " + "; ".join(f"level {lv}: {_count_text(c)}"
                                                     for lv, c in sorted(counts.items()))
             + f". Paper: {published.requests} requests."]
    digits = {c: 1 for c in frame.columns if c.endswith(("ours", "paper", "diff"))}
    return Table(frame, title, notes, digits)


def _count_text(counts: Iterable[int]) -> str:
    values = sorted(set(counts))
    if not values:
        return ""
    return str(values[0]) if len(values) == 1 else f"{values[0]}–{values[-1]}"


def _of_topics(frame: pd.DataFrame, topics: Sequence[str] | None) -> pd.DataFrame:
    """The rows of ``topics`` (all if None), qid as text."""
    frame = frame.assign(qid=frame["qid"].astype(str))
    return frame if topics is None else frame[frame["qid"].isin(set(map(str, topics)))]


def testbed_table(recall_base: pd.DataFrame, statistics: pd.DataFrame | None,
                  published: Published, query_types: Sequence[str], title: str,
                  topics: Sequence[str] | None = None) -> Table:
    """Topics, recall base per level (total and mean per topic), and mean facets /
    concepts / search keys per query for each query type, ours beside the paper's."""
    base = _of_topics(recall_base, topics)
    n = len(base)
    rows = [("topics (requests)", float(n), float(published.requests))]
    for level in (3, 2, 1, 0):
        total = float(base[f"n_{level}"].sum())
        paper = float(published.recall_base.get(level, np.nan))
        rows.append((f"recall base, level {level} ({LEVEL_NAMES[level]}): total", total, paper))
        rows.append((f"recall base, level {level} ({LEVEL_NAMES[level]}): mean per topic",
                     total / n if n else np.nan, paper / published.requests))
    if statistics is not None and len(statistics):
        stats = _of_topics(statistics, topics)
        quantities = [c for c in stats.columns if c not in ("qid", "query_type")
                      and pd.api.types.is_numeric_dtype(stats[c])]
        for quantity in quantities:
            for qt in query_types:
                rows.append((f"mean {quantity} per query: {qt}",   # NaN for none
                             float(stats.loc[stats["query_type"] == qt, quantity].mean()), np.nan))
    frame = pd.DataFrame(rows, columns=["quantity", "ours", "paper"])
    notes = [f"Paper: {published.requests} requests; {published.setting.get('collection', '')}. "
             "'–' where the paper gives no number."]
    return Table(frame, title, notes, {"ours": 2, "paper": 2}, whole_as_int=True)


def effort_table(effort: pd.DataFrame, published: Published, query_types: Sequence[str],
                 strong: Sequence[str], title: str) -> Table:
    """Documents to scan until the mean gain vector reaches the ideal gain at rank k
    (J&K 2000, finding 4), per query type ('not reached': infinite); group means beside
    the paper's 34/62 etc. (a type that never reaches it makes its group's mean infinite)."""
    others = [q for q in query_types if q not in strong]
    ranks = effort["rank_reached"].astype(float)
    reached = effort["reached"].astype(str).str.strip().str.lower().isin(["true", "1", "yes"])
    effort = effort.assign(rank=ranks.where(reached & ranks.notna(), math.inf))
    rows = []
    for spec in published.effort:
        chosen = effort[(effort["profile"] == spec.profile) & (effort["kind"] == spec.kind)
                        & (effort["base"].astype(int) == spec.base)
                        & (effort["k"].astype(int) == spec.k)]
        if chosen.empty:
            raise ValueError(f"effort.tsv: no rows for profile {spec.profile!r}, kind "
                             f"{spec.kind}, base {spec.base}, k {spec.k}")
        values = dict(zip(chosen["run"], chosen["rank"]))
        row = {"gain": f"{spec.kind}" + (f" b={spec.base}" if spec.base else ""),
               "levels": spec.profile, "k": spec.k,
               "ideal at k": float(chosen["ideal_at_k"].astype(float).iloc[0])}
        row |= {qt: values.get(qt, np.nan) for qt in query_types}
        for name, group in (("ours strong", strong), ("ours others", others)):
            ranked = [values[q] for q in group if q in values]
            row[name] = float(np.mean(ranked)) if ranked else np.nan
        rows.append(row | {"paper strong": spec.strong, "paper others": spec.others})
    frame = pd.DataFrame(rows)
    digits = {q: 0 for q in query_types} | {"ours strong": 1, "ours others": 1,
                                             "paper strong": 0, "paper others": 0,
                                             "ideal at k": 2}
    notes = [f"Rank at which the mean gain vector first reaches the ideal vector's gain at "
             f"rank k. 'strong' = mean over {', '.join(strong)}; 'others' = mean over "
             f"{', '.join(others)}; 'not reached' = not within the evaluated ranks. "
             f"Paper: the numbers stated with its finding 4."]
    return Table(frame, title, notes, digits)


#: The note of a significance table whose evaluation ran no tests.
NOT_TESTED = ("Not tested: the evaluation ran without significance tests "
              "(evaluation.significance: null, or gradedrel evaluate --no-significance), so "
              "this table has no rows.")


def significance_table(frame: pd.DataFrame, title: str, p_column: str, alpha: float,
                       tested: bool = True) -> Table:
    """The evaluation's significance file as a table, with a 'significant' column (p < alpha);
    ``tested`` False: the evaluation ran no tests, and the table's note says so
    (:data:`NOT_TESTED`)."""
    table = frame.copy()
    if p_column not in table.columns:
        raise ValueError(f"significance file: expected a p-value column {p_column!r}; "
                         f"found {list(table.columns)}")
    table["significant"] = pd.to_numeric(table[p_column], errors="coerce") < alpha
    digits = {p_column: -1} | {c: -1 for c in table.columns if "p_value" in c or "p_adjusted" in c}
    note = (f"significant: {p_column} < {alpha} (p-values as computed by the evaluation "
            "step).") if tested else NOT_TESTED
    return Table(table.reset_index(drop=True), title, [note], digits)


def measures_table(means: pd.DataFrame, query_types: Sequence[str], title: str) -> Table:
    """Every measure the evaluation computed (``means.tsv``: the paper's grid, ``evaluation.also``
    and the standard measures), in its order, a column per query type, with its topics."""
    names = dict.fromkeys(means.loc[means["run"].isin(query_types), "measure"])
    rows = []
    for m in names:
        values = {qt: mean_of(means, qt, m) for qt in query_types}
        rows.append({"measure": m, **{qt: v for qt, (v, _) in values.items()},
                     "topics": _count_text(n for _, n in values.values())})
    notes = ["Means of every measure the evaluation computed (means.tsv), named as "
             "docs/measures.md spells them (AvP as a fraction; the AvP table gives percent). "
             "nDCG@k is today's nDCG as ir_measures computes it (discount log2(i+1)), not J&K's "
             "DCG vector."]
    return Table(pd.DataFrame(rows, columns=["measure", *query_types, "topics"]), title, notes)
