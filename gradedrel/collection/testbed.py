"""The testbed: recall base per topic and level, its summary and description."""
from __future__ import annotations

from collections import Counter
from typing import Mapping, Sequence

from gradedrel.core import lazy

pd = lazy.module("pandas")

from gradedrel.collection.grades import LEVEL_NAMES, LEVELS, GradeMap


def recall_base(qrels: pd.DataFrame, topics: pd.DataFrame) -> pd.DataFrame:
    """Judged documents per topic and level: ``qid, n_0, n_1, n_2, n_3``."""
    counts = (qrels.groupby(["qid", "grade"]).size().unstack(fill_value=0)
              .reindex(columns=list(LEVELS), fill_value=0))
    counts = counts.reindex(topics["qid"], fill_value=0)
    counts.columns = [f"n_{level}" for level in LEVELS]
    return counts.reset_index().rename(columns={"index": "qid"})


def testbed_summary(per_topic: pd.DataFrame) -> pd.DataFrame:
    """The paper's testbed description: recall base per level, total and per topic."""
    rows = []
    for level in sorted(LEVELS, reverse=True):
        column = per_topic[f"n_{level}"]
        rows.append({
            "level": level, "name": LEVEL_NAMES[level], "judged_total": int(column.sum()),
            "mean_per_topic": float(column.mean()) if len(column) else 0.0,
            "min_per_topic": int(column.min()) if len(column) else 0,
            "max_per_topic": int(column.max()) if len(column) else 0,
            "topics_with_any": int((column > 0).sum()),
        })
    return pd.DataFrame(rows)


def missing_documents(exclusions: pd.DataFrame) -> int:
    """Judgements excluded because their document is not among the documents."""
    if not len(exclusions):
        return 0
    return int(((exclusions["kind"] == "judgement")
                & (exclusions["reason"] == "document not in collection")).sum())


def dropped_text_lines(what: str, dropped: Mapping[str, Mapping[str, int]],
                       shown: int = 10) -> list[str]:
    """One line saying what the tokeniser dropped from ``what`` (texts by id -> counts of
    ``reason: text``), with the most frequent items."""
    total: Counter = Counter()
    for lost in dropped.values():
        total.update(lost)
    texts = sum(1 for lost in dropped.values() if lost)
    if not total:
        return [f"- text dropped by the tokeniser from the {what}: nothing"]
    items = ", ".join(f"`{item}` ×{n}" for item, n in
                      sorted(total.items(), key=lambda kv: (-kv[1], kv[0]))[:shown])
    more = f" (and {len(total) - shown} more)" if len(total) > shown else ""
    return [f"- text dropped by the tokeniser from the {what}: {sum(total.values())} item(s) "
            f"in {texts} of {len(dropped)}: {items}{more}"]


def testbed_markdown(name: str, summary: pd.DataFrame, n_topics: int, n_documents: int,
                     n_empty_documents: int, exclusions: pd.DataFrame,
                     grade_map: GradeMap, dropped: Sequence[str] = (),
                     licences: Mapping[str, str] | None = None,
                     byte_order_marks: Sequence[str] = ()) -> str:
    """The testbed report. ``dropped``: lines from :func:`dropped_text_lines`;
    ``licences``: what -> licence text (the collection, its thesauri);
    ``byte_order_marks``: the input files that started with one (stripped; a line only
    when there is one)."""
    marks = [f"- UTF-8 byte-order marks stripped from the start of {len(byte_order_marks)} "
             f"input file(s): {', '.join(byte_order_marks)}"] if byte_order_marks else []
    lines = [f"# Testbed: {name}", "",
             f"- documents: {n_documents} ({n_empty_documents} empty, kept in the index)",
             f"- topics with judgements: {n_topics}",
             f"- judgements of documents not among the documents: {missing_documents(exclusions)}"
             " (excluded, listed in exclusions.tsv)",
             *dropped, *marks, "",
             "| level | judged (total) | per topic (mean) | min | max | topics with any |",
             "|---|---:|---:|---:|---:|---:|"]
    for row in summary.itertuples():
        lines.append(f"| {row.level} {row.name} | {row.judged_total} | {row.mean_per_topic:.2f} "
                     f"| {row.min_per_topic} | {row.max_per_topic} | {row.topics_with_any} |")
    lines += ["", "Grade map (level: raw labels):", "", "```", grade_map.describe(), "```", ""]
    if len(exclusions):
        lines.append("Excluded (see exclusions.tsv):")
        lines.append("")
        for (kind, reason), group in exclusions.groupby(["kind", "reason"], sort=True):
            lines.append(f"- {len(group)} {kind}(s): {reason}")
    else:
        lines.append("Excluded: nothing.")
    if licences:
        lines += ["", "## Licences", ""]
        lines += [f"- {what}: {text}" for what, text in licences.items()]
    return "\n".join(lines) + "\n"
