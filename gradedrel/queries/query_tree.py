"""Engine-neutral structured queries: the tree every query type compiles to.

The paper's structures (SUM, SSYN-C, WSYN; InQuery syntax) are trees of four operators
over *search keys*; further InQuery operators (``#and``, ``#or``, ``#not``, ``#max``) are
registered beside them (:func:`operator`), each with its belief combination and its
MatchOp (or :class:`NotExpressible`):

- :class:`Key` — one search key: a word, or an ordered phrase of adjacent words; its
  ``tokens`` as :func:`gradedrel.core.text.tokenise` makes them, stopwords removed
  (stemming is left to the back end's term pipeline).
- :class:`Syn` — InQuery ``#syn``: its keys count as occurrences of one key.
- :class:`Sum` — InQuery ``#sum``: the mean of its children's beliefs.
- :class:`WSum` — InQuery ``#wsum``: the weighted mean of its children's beliefs.

Trees serialise to plain dicts (JSON/YAML) with :func:`to_dict`/:func:`from_dict`;
query files hold one JSON object per topic:
``{"qid": …, "query_type": "WSYN/e", "tree": {…}, "matchop": "…"}``.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar, Union

from gradedrel.core import lazy

np = lazy.module("numpy")


@dataclass(frozen=True)
class Key:
    """A search key: one or more tokens (several: a phrase)."""

    tokens: tuple[str, ...]

    def __post_init__(self):
        if not self.tokens or not all(isinstance(t, str) and t for t in self.tokens):
            raise ValueError(f"a Key needs one or more non-empty tokens, not {self.tokens!r}")


@dataclass(frozen=True)
class Syn:
    """InQuery's #syn: its keys count as occurrences of one key."""

    keys: tuple[Key, ...]


class NotExpressible(ValueError):
    """An operator that a back end's query language cannot write (Terrier's MatchOp has no
    probabilistic ``#and``): the query type runs only on back ends that score the tree."""


#: The registered operators by their ``op`` (the name in query files), in registration order.
OPERATORS: dict[str, type["Operator"]] = {}


def operator(cls: type["Operator"]) -> type["Operator"]:
    """Class decorator: make ``cls`` the operator named ``cls.op`` (query files, trees)."""
    if not getattr(cls, "op", "") or cls.op in ("key", "syn"):
        raise TypeError(f"{cls.__name__}: an operator needs its own name 'op'")
    if cls.op in OPERATORS and OPERATORS[cls.op] is not cls:
        raise ValueError(f"operator {cls.op!r} is registered twice")
    OPERATORS[cls.op] = cls
    return cls


@dataclass(frozen=True)
class Operator:
    """An operator over child nodes: its InQuery belief combination (:meth:`combine`), its
    MatchOp (:meth:`matchop`), how it survives children lost to stopwords (:meth:`keep`),
    and whether it is linear in its children's beliefs (:meth:`linear`)."""

    op: ClassVar[str] = ""
    children: tuple["Node", ...]

    def keep(self, kept: list[int], children: list["Node"]) -> "Operator | None":
        """This operator over the children left (``kept``: their positions); None if none."""
        return type(self)(tuple(children)) if children else None

    def linear(self, weight: float) -> tuple[float, ...] | None:
        """Each child's coefficient in a belief linear in its children's (under a parent of
        coefficient ``weight``), or None for a non-linear operator."""
        return None

    def combine(self, beliefs: np.ndarray) -> np.ndarray:
        """The belief of every document from its children's, ``(children, documents)``."""
        raise NotImplementedError

    def matchop(self, writer) -> str | None:
        """The operator in Terrier's MatchOp (``writer``: :class:`~gradedrel.queries.matchop.
        MatchOpWriter`); :class:`NotExpressible` when MatchOp has no such operator."""
        raise NotExpressible(f"#{self.op} has no Terrier MatchOp: run it with the InQuery "
                             "back end (retrieval.models: engine inquery)")


@operator
@dataclass(frozen=True)
class Sum(Operator):
    """InQuery's #sum: the mean of its children's beliefs."""

    op: ClassVar[str] = "sum"

    def linear(self, weight):
        """Each child 1/n of the parent's coefficient."""
        return tuple(weight / len(self.children) for _ in self.children)

    def combine(self, beliefs):
        """The mean of the children's beliefs."""
        return beliefs.mean(axis=0)

    def matchop(self, writer):
        """``#combine`` of the children (a bag of keys: each distinct term once)."""
        if all(isinstance(c, Key) for c in self.children):
            children = writer.group_members(self.children)  # a bag: each distinct term once
        else:
            children = [c for c in (writer.node(c) for c in self.children) if c]
        return f"#combine({' '.join(children)})" if children else None


@operator
@dataclass(frozen=True)
class WSum(Operator):
    """InQuery's #wsum: the weighted mean of its children's beliefs, one weight per child."""

    op: ClassVar[str] = "wsum"
    weights: tuple[float, ...] = ()

    def __init__(self, weights: tuple[float, ...], children: tuple["Node", ...]):
        object.__setattr__(self, "weights", tuple(float(w) for w in weights))
        object.__setattr__(self, "children", tuple(children))
        if len(self.weights) != len(self.children):
            raise ValueError("WSum needs one weight per child")

    def keep(self, kept, children):
        """The children left with their weights; None when no positive weight is left."""
        pairs = [(self.weights[i], c) for i, c in zip(kept, children)]
        if any(w < 0 for w, _ in pairs):
            raise ValueError(f"#wsum weights must not be negative: {self.weights}")
        if not pairs or sum(w for w, _ in pairs) <= 0:
            return None
        return WSum(tuple(w for w, _ in pairs), tuple(c for _, c in pairs))

    def linear(self, weight):
        """Each child its weight's share of the parent's coefficient."""
        total = sum(self.weights)
        return tuple(weight * w / total for w in self.weights)

    def combine(self, beliefs):
        """The weighted mean of the children's beliefs."""
        w = np.asarray(self.weights, dtype=np.float64)
        return (w[:, None] * beliefs).sum(axis=0) / w.sum()

    def matchop(self, writer):
        """``#combine:i=w`` of the children with their weights."""
        pairs = [(w, writer.node(c)) for w, c in zip(self.weights, self.children)]
        pairs = [(w, c) for w, c in pairs if c]
        if not pairs:
            return None
        spec = "".join(f":{i}={weight_text(w)}" for i, (w, _) in enumerate(pairs))
        return f"#combine{spec}({' '.join(c for _, c in pairs)})"


# InQuery's non-linear operators (Callan, Croft & Harding 1992; Turtle & Croft 1991), over
# child beliefs b_1..b_n: scored by the InQuery back end, not expressible in MatchOp.

@operator
@dataclass(frozen=True)
class And(Operator):
    """InQuery's #and: the product of its children's beliefs."""

    op: ClassVar[str] = "and"

    def combine(self, beliefs):
        """The product of the children's beliefs."""
        return beliefs.prod(axis=0)


@operator
@dataclass(frozen=True)
class Or(Operator):
    """InQuery's #or: 1 − Π (1 − b_i)."""

    op: ClassVar[str] = "or"

    def combine(self, beliefs):
        """One minus the product of the children's disbeliefs."""
        return 1.0 - (1.0 - beliefs).prod(axis=0)


@operator
@dataclass(frozen=True)
class Not(Operator):
    """InQuery's #not: 1 − b of its one child."""

    op: ClassVar[str] = "not"

    def __post_init__(self):
        if len(self.children) != 1:
            raise ValueError("#not takes one child")

    def combine(self, beliefs):
        """One minus the child's belief."""
        return 1.0 - beliefs[0]


@operator
@dataclass(frozen=True)
class Max(Operator):
    """InQuery's #max: the largest of its children's beliefs."""

    op: ClassVar[str] = "max"

    def combine(self, beliefs):
        """The largest of the children's beliefs."""
        return beliefs.max(axis=0)


Node = Union[Key, Syn, Operator]


def weight_text(value: float) -> str:
    """A weight as MatchOp writes it (a positive plain number)."""
    text = f"{float(value):.6g}"
    if "e" in text or float(value) <= 0:
        raise ValueError(f"a weight must be a positive plain number, not {value!r}")
    return text


def to_dict(node: Node) -> dict:
    """A query tree as nested dicts ({'op': 'key'|'syn'|a registered operator, ...}), as the query
    files hold it."""
    if isinstance(node, Key):
        return {"op": "key", "tokens": list(node.tokens)}
    if isinstance(node, Syn):
        return {"op": "syn", "keys": [to_dict(k) for k in node.keys]}
    if isinstance(node, Operator):  # its own fields (a tuple each), before its children
        own = {f.name: list(getattr(node, f.name)) for f in fields(node) if f.name != "children"}
        return {"op": node.op, **own, "children": [to_dict(c) for c in node.children]}
    raise TypeError(f"not a query tree node: {node!r}")


def from_dict(data: dict) -> Node:
    """The query tree of a dict written by to_dict."""
    op = data.get("op")
    if op == "key":
        return Key(tuple(data["tokens"]))
    if op == "syn":
        return Syn(tuple(from_dict(k) for k in data["keys"]))  # type: ignore[misc]
    if op in OPERATORS:
        own = {f.name: data[f.name] for f in fields(OPERATORS[op]) if f.name != "children"}
        return OPERATORS[op](**own, children=tuple(from_dict(c) for c in data["children"]))
    raise ValueError(f"unknown query tree operator {op!r}")


def nodes(node: Node) -> list[Node]:
    """Every node of the tree, ``node`` first, each before its children, in order."""
    below = node.keys if isinstance(node, Syn) else getattr(node, "children", ())
    return [node, *(n for child in below for n in nodes(child))]


def keys(node: Node) -> list[Key]:
    """All search keys in the tree, in order (with repeats)."""
    return [n for n in nodes(node) if isinstance(n, Key)]


def syn_groups(node: Node) -> list[Syn]:
    """Every #syn group of a query tree, in order."""
    return [n for n in nodes(node) if isinstance(n, Syn)]
