"""Comparing plans: two curators' plans of the same requests, and what distinguishes
one set of plans (automatic, expert) from another.

Agreement is measured on *normalised* keys: a key is its tuple of indexed terms
(tokenised as Terrier tokenises, stopwords out, stemmed by the index's pipeline),
so that "boundary layers" and "boundary layer" agree. For each request both
curators planned:

- facets: the number each curator named, and how many of them are major;
- concepts: Jaccard overlap of the concepts' normalised request expressions
  (``matched``, else the concept label);
- unexpanded keys: Jaccard overlap of the normalised ``keys``;
- all keys: Jaccard overlap of the normalised keys and expansion keys.

Jaccard(A, B) = |A ∩ B| / |A ∪ B| (1 = the same set; both empty counts as 1).
"""
from __future__ import annotations

from collections import Counter
from typing import Iterable

import pandas as pd

from gradedrel.plans.key_stats import Pipeline, Terms
from gradedrel.plans.model import Plan


def jaccard(a: set, b: set) -> float:
    """Jaccard similarity of two sets (1.0 for two empty sets)."""
    return 1.0 if not a and not b else len(a & b) / len(a | b)


def _concepts(plan: Plan, terms: Terms) -> set:
    return {terms(c.matched or c.label) for c in plan.concepts()} - {()}


def _keys(plan: Plan, terms: Terms, expanded: bool) -> set:
    return {terms(k.key) for c in plan.concepts() for k in c.all_keys(expanded)} - {()}


def agreement(first: Iterable[Plan], second: Iterable[Plan], pipeline: Pipeline) -> pd.DataFrame:
    """Per request planned by both: facet counts and Jaccard overlaps (see module doc)."""
    a, b = {p.qid: p for p in first}, {p.qid: p for p in second}
    terms = Terms(pipeline)   # the indexed terms of a text (stopwords out), cached
    rows = []
    for qid in [q for q in a if q in b]:
        pa, pb = a[qid], b[qid]
        rows.append({
            "qid": qid,
            "facets_first": len(pa.facets), "facets_second": len(pb.facets),
            "major_first": sum(f.importance == "major" for f in pa.facets),
            "major_second": sum(f.importance == "major" for f in pb.facets),
            "concepts_jaccard": jaccard(_concepts(pa, terms), _concepts(pb, terms)),
            "keys_u_jaccard": jaccard(_keys(pa, terms, False), _keys(pb, terms, False)),
            "keys_e_jaccard": jaccard(_keys(pa, terms, True), _keys(pb, terms, True)),
        })
    return pd.DataFrame(rows)


def profile(plans: Iterable[Plan]) -> dict:
    """What a set of plans looks like: per plan means of facets (major, minor), concepts,
    keys unexpanded and expanded, keys per concept, and the share of expansion keys by
    relation."""
    chosen = list(plans)
    concepts = [c for plan in chosen for c in plan.concepts()]
    facets = sum(len(plan.facets) for plan in chosen)
    major = sum(f.importance == "major" for plan in chosen for f in plan.facets)
    keys_u = sum(len(c.keys) for c in concepts)
    keys_e = sum(len(c.keys) + len(c.expansion) for c in concepts)
    relations = Counter(k.relation for c in concepts for k in c.expansion)
    n = max(len(chosen), 1)
    out = {"plans": len(chosen), "facets": facets / n, "major_facets": major / n,
           "minor_facets": (facets - major) / n, "concepts": len(concepts) / n,
           "keys_u": keys_u / n, "keys_e": keys_e / n,
           "keys_per_concept_e": keys_e / max(len(concepts), 1),
           "growth": keys_e / max(keys_u, 1)}
    expansion = sum(relations.values())
    for relation in ("UF", "NT", "BT", "RT", "variant", "curated", "request"):
        out[f"share_{relation}"] = relations[relation] / expansion if expansion else 0.0
    return out


def avp_between(first: pd.DataFrame, second: pd.DataFrame, qids: Iterable[str],
                measures: Iterable[str]) -> pd.DataFrame:
    """How much AvP moves between two plan sets on the same requests: per run and measure,
    the mean of first − second and of |first − second| over the requests both cover."""
    wanted = set(qids)
    keep = lambda f: f[f["qid"].astype(str).isin(wanted) & f["measure"].isin(list(measures))]
    merged = keep(first).merge(keep(second), on=["run", "qid", "measure"],
                               suffixes=("_first", "_second"))
    merged["diff"] = merged["value_first"] - merged["value_second"]
    merged["absdiff"] = merged["diff"].abs()
    return merged.groupby(["run", "measure"], sort=False).agg(
        topics=("qid", "nunique"), mean_first=("value_first", "mean"),
        mean_second=("value_second", "mean"), mean_diff=("diff", "mean"),
        mean_abs_diff=("absdiff", "mean")).reset_index()


def summary_markdown(profiles: pd.DataFrame, agreement: pd.DataFrame | None = None,
                     between: pd.DataFrame | None = None, first: str = "",
                     second: str = "") -> str:
    """The comparison of plan sets as Markdown: plan profiles and, for two curations of
    the same requests, their agreement and how AvP moved between them."""
    lines = ["# Plan sets compared", "", "Plan profiles (means per plan over each plan set's "
             "topics):", "", profiles.to_markdown(index=False, floatfmt=".2f"), ""]
    if agreement is not None:
        lines += [f"## Agreement: {first} vs {second} ({len(agreement)} requests)", "",
                  agreement.to_markdown(index=False, floatfmt=".2f"), "",
                  "Means: " + ", ".join(f"{c} {agreement[c].mean():.2f}" for c in
                                        agreement.columns if c != "qid"), "",
                  f"AvP moved between the two curations ({first} − {second}):", "",
                  between.to_markdown(index=False, floatfmt=".3f"), ""]
    return "\n".join(lines) + "\n"
