"""The findings across collections: each finding × collection × thesaurus (plan set) × model,
with its effect, interval and verdict, as a table (TSV, Markdown) and one figure.

Built from the collections' own summaries (:func:`gradedrel.report.assessment.summary_rows`,
``results/{c}/report/summary.tsv``), so the numbers are the ones each collection reports.
"""
from __future__ import annotations

import math
from typing import Mapping, Sequence

import matplotlib.pyplot as plt
import pandas as pd

from gradedrel.report import assessment
from gradedrel.report.figures import _rc   # it selects the Agg backend, before any figure

#: The summaries' columns (:data:`assessment.SUMMARY_COLUMNS`), with each plan set's thesaurus.
COLUMNS = [*assessment.SUMMARY_COLUMNS[:2], "thesaurus", *assessment.SUMMARY_COLUMNS[2:]]
#: What each finding's effect is, for axis labels and the table's note.
EFFECTS = {1: "level-3 spread of mean AvP over the six query types (points)",
           2: "WSYN/e − SUM/u, AvP at level 3 (points)",
           3: "share of deciding components that hold",
           4: "effort ratio WSYN/e / SUM/u (profile 3)"}
#: The same, short enough for an axis.
AXES = {1: "spread, level 3\n(AvP points)", 2: "WSYN/e − SUM/u\n(AvP points, level 3)",
        3: "components\nholding (share)", 4: "effort ratio\nWSYN/e / SUM/u"}
#: Where "no effect" lies on each finding's scale.
NULL = {1: 0.0, 2: 0.0, 3: None, 4: 1.0}
VERDICT_COLOURS = {"holds": "#009E73", "does not hold": "#D55E00",
                   "inconclusive": "#999999"}


def verdict_colour(verdict: str) -> str:
    """The colour of a verdict, its size qualifier aside ("holds (as large as published)"
    is "holds"); black for anything else, which the legend does not name."""
    return VERDICT_COLOURS.get(str(verdict).split(" (")[0].strip(), "#000000")


def combine(summaries: Sequence[pd.DataFrame], thesauri: Mapping[tuple[str, str], str]) -> pd.DataFrame:
    """The collections' summaries in one table, with each plan set's thesaurus
    (``thesauri[(collection, plan_set)]``), in the order given."""
    frame = pd.concat(list(summaries), ignore_index=True) if summaries else \
        pd.DataFrame(columns=assessment.SUMMARY_COLUMNS)
    missing = sorted({(c, p) for c, p in zip(frame["collection"], frame["plan_set"])}
                     - set(thesauri))
    if missing:
        raise ValueError(f"no thesaurus known for (collection, plan set) {missing}")
    frame["thesaurus"] = [thesauri[(c, p)] for c, p in zip(frame["collection"], frame["plan_set"])]
    return frame.sort_values("finding", kind="stable")[COLUMNS].reset_index(drop=True)


def numeric_effect(row: Mapping) -> tuple[float, float, float]:
    """(effect, low, high) as numbers; finding 3's "k of n hold" as the share k/n."""
    effect = row["effect"]
    if isinstance(effect, str) and " of " in effect:
        held, _, rest = effect.partition(" of ")
        total = int(rest.split()[0])
        return (int(held) / total if total else math.nan), math.nan, math.nan
    return float(effect), float(row["low"]), float(row["high"])


def markdown(frame: pd.DataFrame, title: str) -> str:
    """The across-collections findings table as Markdown, under ``title``."""
    lines = [f"# {title}", "",
             "Effects: " + "; ".join(f"finding {k} — {v}" for k, v in EFFECTS.items()) +
             ". Intervals: 95 % paired bootstrap. Rules: docs/preregistration.md "
             "(NFCorpus: docs/preregistration-nfcorpus.md).", "",
             "| finding | collection | thesaurus | plan set | model | requests | effect "
             "| 95 % interval | paper | p | verdict | why |",
             "|---|---|---|---|---|---:|---:|---|---:|---:|---|---|"]
    for r in frame.to_dict("records"):
        effect, low, high = numeric_effect(r)
        cells = assessment.effect_cells(r, None if r["finding"] == 3 else effect, low, high)
        why = r.get("why") if isinstance(r.get("why"), str) and r.get("why") else "–"
        lines.append(f"| {r['finding']} | {r['collection']} | {r['thesaurus']} | {r['plan_set']} "
                     f"| {r['model']} | {r['requests']} | {cells} | {r['verdict']} | {why} |")
    return "\n".join(lines) + "\n"


PAPER_COLOUR = "#CC79A7"


def figure(frame: pd.DataFrame, figures: Mapping, findings: Sequence[int] | None = None,
           paper: bool = False, label_collection: bool = True):
    """One panel per finding: each condition's effect (dot) and interval (bar), coloured by
    its verdict; the dashed line is no effect. With ``paper``, a forest plot: the paper's
    value of the effect as a dotted line in each panel (where it has one). A condition whose
    rows carry a ``mark`` (``deciding``, ``contaminated record``: Amendment 3, C2) is drawn
    first, its label in bold and prefixed by the mark."""
    findings = sorted(frame["finding"].unique()) if findings is None else list(findings)
    frame = frame[frame["finding"].isin(findings)]

    def name(r):
        parts = [r["collection"]] if label_collection else []
        return " · ".join(parts + [r["thesaurus"], r["plan_set"], r["model"]])

    marks = {name(r): r["mark"] for r in frame.to_dict("records")
             if isinstance(r.get("mark"), str) and r.get("mark")}
    labels = list(dict.fromkeys(name(r) for r in frame.to_dict("records")))
    labels.sort(key=lambda label: label not in marks)   # stable: the marked ones first
    height = max(figures["height"], 0.16 * len(labels) + 1.2)
    with plt.rc_context(_rc(figures["font_size"])):
        fig, axes = plt.subplots(1, len(findings), figsize=(figures["width"], height),
                                 layout="constrained", sharey=True, squeeze=False)
        for ax, finding in zip(axes.ravel(), findings):
            rows = frame[frame["finding"] == finding]
            for r in rows.to_dict("records"):
                y = len(labels) - 1 - labels.index(name(r))
                effect, low, high = numeric_effect(r)
                colour = verdict_colour(r["verdict"])
                if math.isfinite(low) and math.isfinite(high):
                    ax.plot([low, high], [y, y], color=colour, linewidth=1.6)
                ax.plot([effect], [y], marker="o", color=colour, markersize=4.5)
            if NULL[finding] is not None:
                ax.axvline(NULL[finding], color="#000000", linestyle="--", linewidth=0.8)
            values = pd.to_numeric(rows["published"], errors="coerce").dropna().unique() \
                if paper and "published" in rows else []
            for value in values:
                ax.axvline(value, color=PAPER_COLOUR, linestyle=":", linewidth=1.4)
            ax.set_title(f"finding {finding}")
            ax.set_xlabel(AXES[finding])
            ax.grid(axis="x", linewidth=0.3)
        shown = [f"{marks[label]}: {label}" if label in marks else label for label in labels]
        axes[0][0].set_yticks(range(len(labels)), list(reversed(shown)))
        for tick, label in zip(axes[0][0].get_yticklabels(), reversed(labels)):
            if label in marks:
                tick.set_fontweight("bold")
        handles = [plt.Line2D([], [], color=c, marker="o", linewidth=1.6, label=v)
                   for v, c in VERDICT_COLOURS.items()]
        if paper:
            handles.append(plt.Line2D([], [], color=PAPER_COLOUR, linestyle=":", linewidth=1.4,
                                      label="the paper's value"))
        fig.legend(handles=handles, loc="outside lower center", ncol=len(handles), frameon=False)
    return fig


def testbeds_markdown(testbeds: Mapping[str, pd.DataFrame], topics: Mapping[str, int],
                      paper_requests: int, paper_recall_base: Mapping[int, int]) -> str:
    """Each collection's testbed (judged documents per level, total and per request) beside
    the paper's (``testbeds``: collection -> its testbed.tsv)."""
    columns = [("paper (J&K 2000)", paper_requests,
                {int(k): float(v) for k, v in paper_recall_base.items()})]
    for name, frame in testbeds.items():
        columns.append((name, topics[name],
                        {int(r.level): float(r.judged_total) for r in frame.itertuples()}))
    lines = ["## Testbeds beside the paper's", "",
             "| | " + " | ".join(c[0] for c in columns) + " |",
             "|---|" + "---:|" * len(columns),
             "| requests | " + " | ".join(str(c[1]) for c in columns) + " |"]
    for level, name in ((3, "highly"), (2, "fairly"), (1, "marginally")):
        cells = [f"{base[level]:.0f} ({base[level] / n:.1f} per request)"
                 if n and math.isfinite(base.get(level, math.nan)) else "–"
                 for _, n, base in columns]
        lines.append(f"| level {level} ({name}) | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
