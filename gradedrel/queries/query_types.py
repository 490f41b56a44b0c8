"""Query types: a plan compiled into an engine-neutral query tree, by a registered structure.

A query type is a *structure* and an expansion, labelled ``STRUCTURE/u`` (unexpanded:
the concepts' ``keys``) or ``STRUCTURE/e`` (expanded: ``keys`` and ``expansion``). The
paper's three structures (Järvelin & Kekäläinen 2000, sec. 3), InQuery syntax:

- SUM    — a bag of all search keys: ``#sum(k1 k2 … kn)``;
- SSYN-C — one synonym group per concept: ``#sum(#syn(keys of c1) #syn(keys of c2) …)``;
- WSYN   — one synonym group per facet, weighted by importance:
  ``#wsum(1 10 #syn(major facet keys) 7 #syn(minor facet keys) …)``.

A structure is one :class:`Structure` subclass registered with :func:`register` under
its ``name``; :meth:`Structure.compile` turns a plan into its tree for u or e. A run's
query types are config ``query_types.labels`` (default the paper's six, :data:`LABELS`).
Adding a structure: docs/query-types.md, "Adding a structure".

Keys become :class:`gradedrel.queries.query_tree.Key` with the indexer's tokens, stopwords
removed (a phrase matches nothing across a stopword); a key with no tokens left is dropped,
as is a group with no keys. Identical keys appear once per group; keys that merely *stem*
alike are merged by the back end (:mod:`gradedrel.queries.matchop`).
"""
from __future__ import annotations

import difflib
from typing import ClassVar, Iterable

from gradedrel.plans.key_stats import Pipeline
from gradedrel.plans.model import Facet, Plan, PlanKey
from gradedrel.queries.query_tree import Key, Node, Sum, Syn, WSum
from gradedrel.core.text import tokenise

#: Facet weights of WSYN (the paper's: major 10, minor 7); config analysis.weights.
WEIGHTS = {"major": 10.0, "minor": 7.0}
#: The expansions of every structure: u (unexpanded), e (expanded).
EXPANSIONS = ("u", "e")


# --- the registry ------------------------------------------------------------------------

#: The registered structures by name, in registration order.
STRUCTURES: dict[str, type["Structure"]] = {}


def register(cls: type["Structure"]) -> type["Structure"]:
    """Class decorator: make ``cls`` the structure named ``cls.name``."""
    name = getattr(cls, "name", "")
    if not name or "/" in name or name != name.upper():
        raise TypeError(f"{cls.__name__}: a structure needs an upper-case name without '/', "
                        f"not {name!r}")
    if name in STRUCTURES and STRUCTURES[name] is not cls:
        raise ValueError(f"structure {name!r} is registered twice "
                         f"({STRUCTURES[name].__name__}, {cls.__name__})")
    STRUCTURES[name] = cls
    return cls


class Structure:
    """One query structure: how a plan compiles to a query tree, unexpanded or expanded."""

    #: Its name, the part of a label before ``/`` (upper case).
    name: ClassVar[str] = ""
    #: Whether its trees hold ``#syn`` groups (``syn_statistics`` measures them).
    synonym_groups: ClassVar[bool] = False

    def compile(self, plan: Plan, expanded: bool, pipeline: Pipeline,
                weights: dict[str, float]) -> Node | None:
        """The tree of ``plan`` (None if no key is left); ``weights`` by facet importance."""
        raise NotImplementedError


def labels() -> tuple[str, ...]:
    """Every registered query type: each structure unexpanded and expanded."""
    return tuple(f"{name}/{e}" for name in STRUCTURES for e in EXPANSIONS)


def check_labels(chosen: Iterable[str], where: str = "query_types.labels") -> list[str]:
    """``chosen`` as a list if every label is a registered query type; else one error naming
    the unknown ones (with the closest registered label) and the registered ones."""
    chosen = list(chosen)
    known = labels()
    unknown = [q for q in chosen if q not in known]
    if unknown:
        hints = []
        for q in unknown:
            close = difflib.get_close_matches(str(q), known, n=1, cutoff=0.6)
            hints.append(f"{q!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
        raise ValueError(f"{where}: unknown query type {', '.join(hints)}; registered: "
                         f"{', '.join(known)}")
    return chosen


def slug(label: str) -> str:
    """File slug of a query-type label: ``WSYN/e`` → ``WSYN-e``."""
    return label.replace("/", "-")


def label(structure: str, expanded: bool | None = None) -> str:
    """The query-type label from ``("WSYN", True)``, or a label/slug passed through checked."""
    if expanded is not None:
        name = f"{structure.upper()}/{'e' if expanded else 'u'}"
    elif "/" in structure:
        name = structure
    else:  # a slug: the expansion follows the last '-'
        base, _, expansion = structure.rpartition("-")
        name = f"{base}/{expansion}"
    parse_label(name)
    return name


def structure_of(query_type: str) -> tuple[str, str]:
    """'SSYN-C/e' -> ('SSYN-C', 'e'): the structure and u (unexpanded) / e (expanded)."""
    structure, _, expansion = query_type.partition("/")
    if expansion not in EXPANSIONS:
        raise ValueError(f"query type {query_type!r}: expected STRUCTURE/u or STRUCTURE/e")
    return structure, expansion


def parse_label(label: str) -> tuple[str, bool]:
    """``WSYN/e`` → (``WSYN``, expanded=True), for a registered structure (the workflow's
    labels are registered ones: :func:`check_labels` when the study is read)."""
    structure, _, variant = label.partition("/")
    if structure not in STRUCTURES or variant not in EXPANSIONS:
        raise ValueError(f"unknown query type {label!r}; known: {', '.join(labels())}")
    return structure, variant == "e"


def with_synonym_groups(chosen: Iterable[str]) -> list[str]:
    """The labels among ``chosen`` whose structure builds ``#syn`` groups."""
    return [q for q in chosen if STRUCTURES[parse_label(q)[0]].synonym_groups]


# --- building blocks ---------------------------------------------------------------------

def to_key(text: str, pipeline: Pipeline) -> Key | None:
    """A search key as indexed tokens, stopwords removed; None if nothing is left."""
    tokens = tuple(t for t in tokenise(text) if pipeline(t) is not None)
    return Key(tokens) if tokens else None


def keys_of(plan_keys: Iterable[PlanKey], pipeline: Pipeline) -> list[Key]:
    """The distinct search keys of ``plan_keys`` (first-seen order), empty ones dropped."""
    out: list[Key] = []
    for plan_key in plan_keys:
        key = to_key(plan_key.key, pipeline)
        if key is not None and key not in out:
            out.append(key)
    return out


def facet_keys(facet: Facet, expanded: bool, pipeline: Pipeline) -> list[Key]:
    """The distinct search keys of every concept of ``facet`` (expansion keys if ``expanded``)."""
    return keys_of([k for c in facet.concepts for k in c.all_keys(expanded)], pipeline)


def weighted_sum(pairs: list[tuple[float, Node]]) -> WSum | None:
    """``#wsum`` of ``(weight, child)`` pairs; None without any."""
    return WSum(*zip(*pairs)) if pairs else None


def compile_plan(plan: Plan, label: str, pipeline: Pipeline,
                 weights: dict[str, float] | None = None) -> Node | None:
    """The query tree of one query type for one plan (None if the plan has no keys)."""
    structure, expanded = parse_label(label)
    return STRUCTURES[structure]().compile(plan, expanded, pipeline, weights or WEIGHTS)


# --- the paper's three structures (Järvelin & Kekäläinen 2000, sec. 3) -------------------

@register
class SumStructure(Structure):
    """SUM, weak: a bag of all search keys, ``#sum(k1 … kn)`` (InQuery ``#sum``: the mean
    of its children's beliefs; Callan, Croft & Harding 1992)."""

    name = "SUM"

    def compile(self, plan, expanded, pipeline, weights):
        """#sum of every key of every concept (expansion keys too if ``expanded``); None
        without keys."""
        keys = keys_of([k for c in plan.concepts() for k in c.all_keys(expanded)], pipeline)
        return Sum(tuple(keys)) if keys else None


@register
class SsynC(Structure):
    """SSYN-C, strong and concept-based: ``#sum(#syn(keys of c1) #syn(keys of c2) …)``
    (``#syn``: its keys are occurrences of one key)."""

    name = "SSYN-C"
    synonym_groups = True

    def compile(self, plan, expanded, pipeline, weights):
        """#sum of one #syn per concept (its keys, expansion too if ``expanded``); None
        without keys."""
        groups = [keys_of(c.all_keys(expanded), pipeline) for c in plan.concepts()]
        children = tuple(Syn(tuple(g)) for g in groups if g)
        return Sum(children) if children else None


@register
class Wsyn(Structure):
    """WSYN, strong, facet-based and weighted: one synonym group per facet,
    ``#wsum(1 10 #syn(major facet keys) 7 #syn(minor facet keys) …)`` (``#wsum``: the
    weighted mean of its children's beliefs)."""

    name = "WSYN"
    synonym_groups = True

    def compile(self, plan, expanded, pipeline, weights):
        """#wsum of one #syn per facet, weighted by the facet's importance; None without keys."""
        groups = [(float(weights[f.importance]), facet_keys(f, expanded, pipeline))
                  for f in plan.facets]
        return weighted_sum([(w, Syn(tuple(keys))) for w, keys in groups if keys])


#: The paper's structures and six query types, in its table order: the default of config
#: ``query_types.labels`` and the query types its published numbers cover.
PAPER = ("SUM", "SSYN-C", "WSYN")
LABELS = tuple(f"{name}/{e}" for name in PAPER for e in EXPANSIONS)
SLUGS = tuple(slug(label) for label in LABELS)
