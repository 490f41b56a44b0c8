"""The six query types: a plan compiled into an engine-neutral query tree.

Järvelin & Kekäläinen (2000, sec. 3), InQuery syntax:

- SUM    — a bag of all search keys: ``#sum(k1 k2 … kn)``;
- SSYN-C — one synonym group per concept: ``#sum(#syn(keys of c1) #syn(keys of c2) …)``;
- WSYN   — one synonym group per facet, weighted by importance:
  ``#wsum(1 10 #syn(major facet keys) 7 #syn(minor facet keys) …)``;

each unexpanded (``/u``: the concepts' ``keys``) and expanded (``/e``: ``keys``
and ``expansion``). Keys become :class:`gradedrel.query_tree.Key` with the
indexer's tokens, stopwords removed (a phrase operator matches nothing across a
stopword); a key with no tokens left is dropped, as is a group with no keys.
Identical keys (same tokens) appear once per group; keys that merely *stem*
alike are merged by the engine back end (:mod:`gradedrel.matchop`).
"""
from __future__ import annotations

from typing import Callable

from .plans import Plan, PlanKey
from .query_tree import Key, Node, Sum, Syn, WSum
from .text import tokenise

LABELS = ("SUM/u", "SUM/e", "SSYN-C/u", "SSYN-C/e", "WSYN/u", "WSYN/e")
STRUCTURES = ("SUM", "SSYN-C", "WSYN")
WEIGHTS = {"major": 10.0, "minor": 7.0}

Pipeline = Callable[[str], "str | None"]


def slug(label: str) -> str:
    """File slug of a query-type label: ``WSYN/e`` → ``WSYN-e``."""
    return label.replace("/", "-")


def parse_label(label: str) -> tuple[str, bool]:
    """``WSYN/e`` → (``WSYN``, expanded=True)."""
    structure, _, variant = label.partition("/")
    if structure not in STRUCTURES or variant not in ("u", "e"):
        raise ValueError(f"unknown query type {label!r}; expected one of {list(LABELS)}")
    return structure, variant == "e"


def to_key(text: str, pipeline: Pipeline) -> Key | None:
    """A search key as indexed tokens, stopwords removed; None if nothing is left."""
    tokens = tuple(t for t in tokenise(text) if pipeline(t) is not None)
    return Key(tokens) if tokens else None


def _keys(plan_keys: list[PlanKey], pipeline: Pipeline) -> list[Key]:
    out: list[Key] = []
    for plan_key in plan_keys:
        key = to_key(plan_key.key, pipeline)
        if key is not None and key not in out:
            out.append(key)
    return out


def compile_plan(plan: Plan, label: str, pipeline: Pipeline,
                 weights: dict[str, float] | None = None) -> Node | None:
    """The query tree of one query type for one plan (None if the plan has no keys)."""
    structure, expanded = parse_label(label)
    weights = weights or WEIGHTS
    if structure == "SUM":
        keys = _keys([k for c in plan.concepts() for k in c.all_keys(expanded)], pipeline)
        return Sum(tuple(keys)) if keys else None
    if structure == "SSYN-C":
        groups = [_keys(c.all_keys(expanded), pipeline) for c in plan.concepts()]
        children = tuple(Syn(tuple(g)) for g in groups if g)
        return Sum(children) if children else None
    pairs = []
    for facet in plan.facets:
        keys = _keys([k for c in facet.concepts for k in c.all_keys(expanded)], pipeline)
        if keys:
            pairs.append((float(weights[facet.importance]), Syn(tuple(keys))))
    if not pairs:
        return None
    return WSum(tuple(w for w, _ in pairs), tuple(s for _, s in pairs))


def read_queries(path) -> "pd.DataFrame":
    """A query file (``results/{c}/queries/{planset}/{slug}.jsonl``) as ``qid, query_type, query, tree``.

    ``query`` is the MatchOp string (ready for ``pt.terrier.Retriever``), ``tree`` the
    engine-neutral tree. A malformed line is an InputError naming file and line.
    """
    import json

    import pandas as pd

    from .errors import InputError
    from .query_tree import from_dict

    rows = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            try:
                record = json.loads(line)
                rows.append((str(record["qid"]), record["query_type"], record["matchop"],
                             from_dict(record["tree"])))
            except (ValueError, KeyError, TypeError) as error:
                raise InputError(path, number, "a JSON object with qid, query_type, tree, "
                                 "matchop", f"{type(error).__name__}: {error}") from None
    return pd.DataFrame(rows, columns=["qid", "query_type", "query", "tree"])
