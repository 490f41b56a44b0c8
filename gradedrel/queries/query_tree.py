"""Engine-neutral structured queries: the tree every query type compiles to.

The paper's structures (SUM, SSYN-C, WSYN; InQuery syntax) are trees of four
operators over *search keys*:

- :class:`Key` — one search key: a single word, or a multi-word key matched as
  an ordered phrase (adjacent words). Its ``tokens`` are lower-cased tokens as
  Terrier's English tokeniser produces them (:func:`gradedrel.core.text.tokenise`),
  stopwords already removed; stemming is left to the back end, which applies its
  index's own term pipeline.
- :class:`Syn` — InQuery ``#syn``: its keys count as occurrences of one key.
- :class:`Sum` — InQuery ``#sum``: the mean of its children's beliefs.
- :class:`WSum` — InQuery ``#wsum``: the weighted mean of its children's beliefs.

Trees serialise to plain dicts (JSON/YAML) with :func:`to_dict`/:func:`from_dict`;
query files hold one JSON object per topic:
``{"qid": …, "query_type": "WSYN/e", "tree": {…}, "matchop": "…"}``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Union


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


@dataclass(frozen=True)
class Sum:
    """InQuery's #sum: the mean of its children's beliefs."""

    children: tuple["Node", ...]


@dataclass(frozen=True)
class WSum:
    """InQuery's #wsum: the weighted mean of its children's beliefs, one weight per child."""

    weights: tuple[float, ...]
    children: tuple["Node", ...]

    def __post_init__(self):
        if len(self.weights) != len(self.children):
            raise ValueError("WSum needs one weight per child")


Node = Union[Key, Syn, Sum, WSum]


def to_dict(node: Node) -> dict:
    """A query tree as nested dicts ({'op': 'key'|'syn'|'sum'|'wsum', ...}), as the query files
    hold it.
    """
    if isinstance(node, Key):
        return {"op": "key", "tokens": list(node.tokens)}
    if isinstance(node, Syn):
        return {"op": "syn", "keys": [to_dict(k) for k in node.keys]}
    if isinstance(node, Sum):
        return {"op": "sum", "children": [to_dict(c) for c in node.children]}
    if isinstance(node, WSum):
        return {"op": "wsum", "weights": list(node.weights),
                "children": [to_dict(c) for c in node.children]}
    raise TypeError(f"not a query tree node: {node!r}")


def from_dict(data: dict) -> Node:
    """The query tree of a dict written by to_dict."""
    op = data.get("op")
    if op == "key":
        return Key(tuple(data["tokens"]))
    if op == "syn":
        return Syn(tuple(from_dict(k) for k in data["keys"]))  # type: ignore[misc]
    if op == "sum":
        return Sum(tuple(from_dict(c) for c in data["children"]))
    if op == "wsum":
        return WSum(tuple(float(w) for w in data["weights"]),
                    tuple(from_dict(c) for c in data["children"]))
    raise ValueError(f"unknown query tree operator {op!r}")


def keys(node: Node) -> list[Key]:
    """All search keys in the tree, in order (with repeats)."""
    if isinstance(node, Key):
        return [node]
    if isinstance(node, Syn):
        return list(node.keys)
    return [k for child in node.children for k in keys(child)]
