"""Topic selection: the paper's "expandable requests".

Järvelin & Kekäläinen (2000, sec. 3) used 30 requests that could be expanded
through their thesaurus. Here the criteria are configurable (config section
``topic_selection``) and every topic gets a row: selected or not, and why. Selection
runs in two steps, so that editing a judgement re-runs no query or retrieval: the plan
set's *candidates* (:func:`candidates`, :func:`named_candidates`) depend on the plans
only and are what its queries and runs cover; the *selected* topics (:func:`select`)
are the candidates that also have the judgements the evaluation needs. The criteria:

- ``min_facets``: the plan has at least this many facets (a structure needs aspects);
- ``min_thesaurus_concepts``: at least this many concepts come from the thesaurus;
- ``require_expansion``: expansion adds at least one search key;
- ``min_highly_relevant``: at least this many documents at level 3 in the recall base.
"""
from __future__ import annotations

from dataclasses import dataclass, fields

import pandas as pd

from gradedrel.plans.model import Plan


@dataclass(frozen=True)
class Criteria:
    """What a request needs to be selected (module docstring)."""

    min_facets: int = 2
    min_thesaurus_concepts: int = 1
    require_expansion: bool = True
    min_highly_relevant: int = 1

    @classmethod
    def from_config(cls, section: dict) -> "Criteria":
        """Criteria from the config's selection section (absent keys: the defaults)."""
        return cls(**{f.name: section[f.name] for f in fields(cls) if f.name in section})


def plan_reasons(plan: Plan, criteria: Criteria) -> list[str]:
    """Why a topic's plan leaves it out (empty: a candidate)."""
    out = []
    if len(plan.facets) < criteria.min_facets:
        out.append(f"{len(plan.facets)} facet(s) < {criteria.min_facets}")
    in_thesaurus = sum(c.uri is not None for c in plan.concepts())
    if in_thesaurus < criteria.min_thesaurus_concepts:
        out.append(f"{in_thesaurus} thesaurus concept(s) < {criteria.min_thesaurus_concepts}")
    if criteria.require_expansion and not any(c.expansion for c in plan.concepts()):
        out.append("expansion adds no key")
    return out


CANDIDATE_COLUMNS = ["qid", "candidate", "reason"]


def candidates(plans: list[Plan], criteria: Criteria) -> pd.DataFrame:
    """``qid, candidate, reason`` for every plan (in plan order) by the plan criteria
    (reason empty for a candidate)."""
    rows = [(p.qid, int(not why), "; ".join(why))
            for p in plans for why in [plan_reasons(p, criteria)]]
    return pd.DataFrame(rows, columns=CANDIDATE_COLUMNS)


def named_candidates(requests: list[str], qids: list[str], source: str) -> pd.DataFrame:
    """``qid, candidate, reason`` when the topics are named by a list (the requests that
    have curated plans, or a topic file): a named topic that is not a request is an error."""
    wanted = set(qids)
    unknown = sorted(wanted - set(requests))
    if unknown:
        raise ValueError(f"{source}: names topics that are not among the requests: "
                         f"{unknown[:10]}")
    return pd.DataFrame([(q, int(q in wanted), f"named in {source}" if q in wanted
                          else f"not named in {source}") for q in requests],
                        columns=CANDIDATE_COLUMNS)


def select(candidate_table: pd.DataFrame, recall_base: pd.DataFrame,
           criteria: Criteria | None, source: str = "") -> pd.DataFrame:
    """``qid, selected, reason`` for every topic of the recall base (in its order): a
    candidate with the judgements the evaluation needs. With ``criteria`` (the
    expandable requests), also the candidates table's topics without a recall-base row,
    and the level-3 criterion applies; without (named topics), a named topic without
    judgements is an error naming ``source``."""
    table = candidate_table.assign(qid=candidate_table["qid"].astype(str))
    is_candidate = dict(zip(table["qid"], table["candidate"].astype(int)))
    why_not = dict(zip(table["qid"], table["reason"].fillna("").astype(str)))
    level3 = dict(zip(recall_base["qid"].astype(str), recall_base["n_3"].astype(int)))
    if criteria is None:
        unknown = sorted(q for q, c in is_candidate.items() if c and q not in level3)
        if unknown:
            raise ValueError(f"{source}: names topics without judgements: {unknown[:10]}")
        return pd.DataFrame([(q, is_candidate.get(q, 0), why_not.get(q, f"not named in {source}"))
                             for q in recall_base["qid"].astype(str)],
                            columns=["qid", "selected", "reason"])
    qids = list(recall_base["qid"].astype(str)) + [q for q in table["qid"] if q not in level3]
    rows = []
    for qid in qids:
        if qid not in is_candidate:
            why = ["no plan"]
        else:
            why = [why_not[qid]] if why_not[qid] else []
            if level3.get(qid, 0) < criteria.min_highly_relevant:
                why.append(f"{level3.get(qid, 0)} highly relevant document(s) < "
                           f"{criteria.min_highly_relevant}")
        rows.append((qid, int(not why), "; ".join(why) if why else "selected"))
    return pd.DataFrame(rows, columns=["qid", "selected", "reason"])


def select_by(setting: dict, candidate_table: pd.DataFrame, recall_base: pd.DataFrame,
              topics: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """:func:`select` by a plan set's topic selection ``setting`` (``rule``, ``source``,
    ``criteria``: the evaluate_runs rule's params; the criteria apply to rule ``selected``
    only, the expandable requests), and the rows of the collection's ``topics`` it selects
    (in their order)."""
    criteria = Criteria.from_config(setting["criteria"]) if setting["rule"] == "selected" \
        else None
    table = select(candidate_table, recall_base, criteria, setting["source"])
    return table, topics[topics["qid"].isin(set(table.loc[table["selected"] == 1, "qid"]))]
