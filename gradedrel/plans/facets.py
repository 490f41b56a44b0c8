"""Facets: the aspects of a request, and which of them are major.

Grouping (documented in docs/plans.md), two rules chosen in config
(``analysis.facet_grouping``), both transitive (union–find):

- ``thesaurus``: concepts that the thesaurus links directly (one is a broader,
  narrower or related concept of the other) are alternatives for one aspect;
- ``phrase``: concepts named by adjacent words of the request, with no
  stopword or boilerplate word between them, lie in one noun phrase and
  describe one aspect ("chemically reacting gas mixtures").

Every other concept is a facet of its own. The same thesaurus concept named
twice in a request (``flow`` … ``flows``) is one concept.

Major or minor: the paper weights major facets 10 and minor 7 in WSYN
(Järvelin & Kekäläinen 2000, sec. 3) but chose them by judgement. Here a
facet's *specificity* is the idf, log(N/df), of its most specific unexpanded
key in the collection; facets are ranked by specificity (ties: request order)
and the most specific ``ceil(major_share × n)`` are major, the rest minor.
A specific aspect ("aeroelastic") is what the request is about; a general one
("high speed", "problems of") qualifies it.
"""
from __future__ import annotations

import math
from typing import Sequence

from gradedrel.thesaurus import Thesaurus


def linked(a: str, b: str, thesaurus: Thesaurus) -> bool:
    """True when concepts ``a`` and ``b`` are directly linked (BT, NT or RT, either way)."""
    ca, cb = thesaurus.concepts.get(a), thesaurus.concepts.get(b)
    if ca is None or cb is None:
        return False
    return b in ca.broader + ca.narrower + ca.related or a in cb.broader + cb.narrower + cb.related


def adjacent(spans_a: Sequence[tuple[int, int]], spans_b: Sequence[tuple[int, int]]) -> bool:
    """True when one of a's token spans ends where one of b's begins, or vice versa."""
    return any(ea == sb or eb == sa for sa, ea in spans_a for sb, eb in spans_b)


def group(uris: Sequence[str | None], thesaurus: Thesaurus,
          spans: Sequence[Sequence[tuple[int, int]]] | None = None,
          rules: Sequence[str] = ("thesaurus",)) -> list[list[int]]:
    """Facets as lists of positions into ``uris`` (None: a word the thesaurus does
    not know), in order of their first concept. ``spans``: each concept's token
    spans in the request (needed for the ``phrase`` rule)."""
    parent = list(range(len(uris)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(uris):
        for j, b in enumerate(uris[:i]):  # linked() is False for a word the thesaurus lacks
            if ("thesaurus" in rules and linked(a, b, thesaurus)) or \
                    ("phrase" in rules and spans is not None and adjacent(spans[i], spans[j])):
                parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(len(uris)):
        groups.setdefault(find(i), []).append(i)
    return sorted(groups.values(), key=lambda g: g[0])


def importance(specificities: Sequence[float], major_share: float) -> list[str]:
    """``major``/``minor`` per facet: the most specific ceil(share × n) are major."""
    n = len(specificities)
    majors = math.ceil(major_share * n) if n else 0
    order = sorted(range(n), key=lambda i: (-specificities[i], i))
    chosen = set(order[:majors])
    return ["major" if i in chosen else "minor" for i in range(n)]
