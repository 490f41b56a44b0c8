"""How big the compiled queries are: facets, concepts, search keys per query.

Per topic and query type, in the compiled tree (stopwords removed, keys de-duplicated):
the plan's ``facets`` and ``concepts``, ``groups`` (#syn groups) and ``keys`` (once per
group). The paper's queries grew several-fold on expansion: ``growth`` in the means table
is mean keys of ``X/e`` over those of ``X/u``.
"""
from __future__ import annotations

import pandas as pd

from gradedrel.queries.query_tree import Node, keys, syn_groups


def row(qid: str, label: str, tree: Node, facets: int, concepts: int) -> dict:
    """A query's statistics row: facets, concepts, #syn groups and keys."""
    return {"qid": qid, "query_type": label, "facets": facets, "concepts": concepts,
            "groups": len(syn_groups(tree)), "keys": len(keys(tree))}


def means(per_topic: pd.DataFrame) -> pd.DataFrame:
    """Mean facets, concepts, groups, keys per query type (over its topics), with growth."""
    table = (per_topic.groupby("query_type", sort=False)
             [["facets", "concepts", "groups", "keys"]].mean().reset_index())
    table.insert(1, "topics", per_topic.groupby("query_type", sort=False).size().values)
    base = {lab.split("/")[0]: k for lab, k in zip(table["query_type"], table["keys"])
            if lab.endswith("/u")}
    table["growth"] = [k / base[lab.split("/")[0]] if lab.split("/")[0] in base else float("nan")
                       for lab, k in zip(table["query_type"], table["keys"])]
    return table


def means_by_subset(per_topic: pd.DataFrame, selected: set[str]) -> pd.DataFrame:
    """:func:`means` over all topics and over the selected topics (column ``subset``)."""
    parts = []
    for subset, rows in (("all", per_topic), ("selected", per_topic[per_topic["qid"].isin(selected)])):
        if len(rows):
            table = means(rows)
            table.insert(0, "subset", subset)
            parts.append(table)
    return pd.concat(parts, ignore_index=True)
