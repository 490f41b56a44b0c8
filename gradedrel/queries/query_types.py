"""The six query types: a plan compiled into an engine-neutral query tree.

Järvelin & Kekäläinen (2000, sec. 3), InQuery syntax:

- SUM    — a bag of all search keys: ``#sum(k1 k2 … kn)``;
- SSYN-C — one synonym group per concept: ``#sum(#syn(keys of c1) #syn(keys of c2) …)``;
- WSYN   — one synonym group per facet, weighted by importance:
  ``#wsum(1 10 #syn(major facet keys) 7 #syn(minor facet keys) …)``;

each unexpanded (``/u``: the concepts' ``keys``) and expanded (``/e``: ``keys``
and ``expansion``). Keys become :class:`gradedrel.queries.query_tree.Key` with the
indexer's tokens, stopwords removed (a phrase operator matches nothing across a
stopword); a key with no tokens left is dropped, as is a group with no keys.
Identical keys (same tokens) appear once per group; keys that merely *stem*
alike are merged by the engine back end (:mod:`gradedrel.queries.matchop`).
"""
from __future__ import annotations

from typing import Callable

from gradedrel.plans.model import Plan, PlanKey
from gradedrel.queries.query_tree import Key, Node, Sum, Syn, WSum
from gradedrel.core.text import tokenise

#: The six query types (the one place they are defined): structure/expansion, u or e.
LABELS = ("SUM/u", "SUM/e", "SSYN-C/u", "SSYN-C/e", "WSYN/u", "WSYN/e")
STRUCTURES = ("SUM", "SSYN-C", "WSYN")
#: Facet weights of WSYN (the paper's: major 10, minor 7); config analysis.weights.
WEIGHTS = {"major": 10.0, "minor": 7.0}

Pipeline = Callable[[str], "str | None"]


def slug(label: str) -> str:
    """File slug of a query-type label: ``WSYN/e`` → ``WSYN-e``."""
    return label.replace("/", "-")


SLUGS = tuple(slug(label) for label in LABELS)


def label(structure: str, expanded: bool | None = None) -> str:
    """The query-type label from ``("WSYN", True)``, or a label/slug passed through checked."""
    if expanded is not None:
        name = f"{structure.upper()}/{'e' if expanded else 'u'}"
    else:
        name = structure if "/" in structure else \
            structure.replace("-u", "/u").replace("-e", "/e")
    if name not in LABELS:
        raise ValueError(f"unknown query type {name!r}; known: {', '.join(LABELS)}")
    return name


def structure_of(query_type: str) -> tuple[str, str]:
    """'SSYN-C/e' -> ('SSYN-C', 'e'): the structure and u (unexpanded) / e (expanded)."""
    structure, _, expansion = query_type.partition("/")
    if expansion not in ("u", "e"):
        raise ValueError(f"query type {query_type!r}: expected STRUCTURE/u or STRUCTURE/e")
    return structure, expansion


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
