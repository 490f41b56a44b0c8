"""Topic selection: the paper's "expandable requests".

Järvelin & Kekäläinen (2000, sec. 3) used 30 requests that could be expanded
through their thesaurus. Here the criteria are configurable (config section
``topic_selection``) and every topic gets a row: selected or not, and why:

- ``min_facets``: the plan has at least this many facets (a structure needs aspects);
- ``min_thesaurus_concepts``: at least this many concepts come from the thesaurus;
- ``require_expansion``: expansion adds at least one search key;
- ``min_highly_relevant``: at least this many documents at level 3 in the recall base.
"""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from gradedrel.plans.model import Plan


@dataclass(frozen=True)
class Criteria:
    min_facets: int = 2
    min_thesaurus_concepts: int = 1
    require_expansion: bool = True
    min_highly_relevant: int = 1

    @classmethod
    def from_config(cls, section: dict) -> "Criteria":
        return cls(**{k: section[k] for k in
                      ("min_facets", "min_thesaurus_concepts", "require_expansion",
                       "min_highly_relevant") if k in section})


def reasons(plan: Plan | None, highly_relevant: int, criteria: Criteria) -> list[str]:
    """Why a topic is left out (empty: selected)."""
    if plan is None:
        return ["no plan"]
    out = []
    if len(plan.facets) < criteria.min_facets:
        out.append(f"{len(plan.facets)} facet(s) < {criteria.min_facets}")
    in_thesaurus = sum(c.uri is not None for c in plan.concepts())
    if in_thesaurus < criteria.min_thesaurus_concepts:
        out.append(f"{in_thesaurus} thesaurus concept(s) < {criteria.min_thesaurus_concepts}")
    if criteria.require_expansion and not any(c.expansion for c in plan.concepts()):
        out.append("expansion adds no key")
    if highly_relevant < criteria.min_highly_relevant:
        out.append(f"{highly_relevant} highly relevant document(s) < "
                   f"{criteria.min_highly_relevant}")
    return out


def select(plans: list[Plan], recall_base: pd.DataFrame, criteria: Criteria) -> pd.DataFrame:
    """``qid, selected, reason`` for every topic of the recall base (in its order),
    and for any plan without a recall-base row."""
    by_qid = {p.qid: p for p in plans}
    level3 = dict(zip(recall_base["qid"].astype(str), recall_base["n_3"].astype(int)))
    qids = list(recall_base["qid"].astype(str)) + [q for q in by_qid if q not in level3]
    rows = []
    for qid in qids:
        why = reasons(by_qid.get(qid), level3.get(qid, 0), criteria)
        rows.append((qid, int(not why), "; ".join(why) if why else "selected"))
    return pd.DataFrame(rows, columns=["qid", "selected", "reason"])


def named(recall_base: pd.DataFrame, qids: list[str], source: str) -> pd.DataFrame:
    """``qid, selected, reason`` when the topics are named by a list (e.g. the requests
    that have expert plans), not chosen by the criteria."""
    wanted = set(qids)
    known = set(recall_base["qid"].astype(str))
    unknown = sorted(wanted - known)
    if unknown:
        raise ValueError(f"{source}: names topics without judgements: {unknown[:10]}")
    return pd.DataFrame([(q, int(q in wanted), f"named in {source}" if q in wanted
                          else f"not named in {source}")
                         for q in recall_base["qid"].astype(str)],
                        columns=["qid", "selected", "reason"])
