"""How far Terrier's ``#syn`` document frequency departs from the true one.

InQuery's ``#syn`` treats its keys as one key: df is the number of documents containing
*any* member (Callan, Croft & Harding 1992). Terrier 5's ``#syn`` (``SynonymOp``, a
``MultiTermOp``) adds up its members' statistics, so its df is Σ df(member), larger than
the union df whenever members co-occur. With BM25's idf, log((N − df + 0.5)/(df + 0.5)), a
summed df above N/2 gives a negative weight and one above N a NaN score.

For every ``#syn`` group of the compiled queries this module records the summed df (what
Terrier uses) and the union df, both counted from the posting arrays
(:class:`gradedrel.collection.matches.MatchCounter`, following Terrier's operators;
tests/terrier_counts.py retrieves the same counts from Terrier: the independent check).
"""
from __future__ import annotations

from typing import Callable

import pandas as pd

from gradedrel.queries.matchop import MatchOpWriter
from gradedrel.queries.query_tree import Node, from_dict, syn_groups


def group_rows(qid: str, label: str, tree: Node, writer: MatchOpWriter,
               count: Callable[[str], int], documents: int) -> list[dict]:
    """One row per #syn group with two or more distinct members (``count(matchop)``: the
    number of documents a MatchOp query matches)."""
    rows = []
    for index, group in enumerate(syn_groups(tree)):
        members = writer.group_members(group.keys)
        if len(members) < 2:
            continue
        dfs = [count(f"#combine({m})") for m in members]
        union = count(f"#combine(#syn({' '.join(members)}))")
        summed = sum(dfs)
        rows.append({"qid": qid, "query_type": label, "group": index, "members": len(members),
                     "summed_df": summed, "union_df": union,
                     "ratio": summed / union if union else float("nan"),
                     "over_half": int(summed > documents / 2 >= union),
                     "over_n": int(summed > documents)})
    return rows


SUMMARY_COLUMNS = ["subset", "query_type", "documents", "groups", "departing", "departing_share",
                   "ratio_median", "ratio_p90", "ratio_max", "excess_df_median",
                   "crosses_half_n", "above_n"]


def summary(rows: pd.DataFrame, documents: int, selected: set[str] | None = None) -> pd.DataFrame:
    """Per query type (over all topics, and over ``selected`` ones): groups, share departing
    (summed > union), ratio quantiles, groups crossing N/2 (the union does not), above N."""
    out = []
    subsets = [("all", rows)]
    if selected is not None:
        subsets.append(("selected", rows[rows["qid"].isin(selected)]))
    for subset, label, part in ((s, lab, p) for s, r in subsets
                                for lab, p in r.groupby("query_type", sort=False)):
        departs = part[part["summed_df"] > part["union_df"]]
        out.append({"subset": subset, "query_type": label, "documents": documents, "groups": len(part),
                    "departing": len(departs),
                    "departing_share": len(departs) / len(part) if len(part) else float("nan"),
                    "ratio_median": part["ratio"].median(),
                    "ratio_p90": part["ratio"].quantile(0.9),
                    "ratio_max": part["ratio"].max(),
                    "excess_df_median": (part["summed_df"] - part["union_df"]).median(),
                    "crosses_half_n": int(part["over_half"].sum()),
                    "above_n": int(part["over_n"].sum())})
    return pd.DataFrame(out, columns=SUMMARY_COLUMNS)


GROUP_COLUMNS = ["qid", "query_type", "group", "members", "summed_df", "union_df", "ratio",
                 "over_half", "over_n"]


def query_file_rows(paths, writer: MatchOpWriter, count: Callable[[str], int],
                    documents: int) -> pd.DataFrame:
    """:func:`group_rows` of every query in the query files ``paths``."""
    from gradedrel.queries.query_files import read_query_file

    rows = [row for path in paths for q in read_query_file(path).itertuples(index=False)
            for row in group_rows(q.qid, q.query_type, from_dict(q.tree), writer, count,
                                  documents)]
    return pd.DataFrame(rows, columns=GROUP_COLUMNS)
