"""Facets: the aspects of a request, and which of them are major.

Grouping (documented in docs/plans.md): concepts that the thesaurus links
directly (one is a broader, narrower or related concept of the other) are
alternatives for one aspect and form one facet — linking is transitive
(union–find). Every other concept is a facet of its own. The same thesaurus
concept named twice in a request (``flow`` … ``flows``) is one concept.

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

from .thesaurus import Thesaurus


def linked(a: str, b: str, thesaurus: Thesaurus) -> bool:
    """True when concepts ``a`` and ``b`` are directly linked (BT, NT or RT, either way)."""
    ca, cb = thesaurus.concepts.get(a), thesaurus.concepts.get(b)
    if ca is None or cb is None:
        return False
    return b in ca.broader + ca.narrower + ca.related or a in cb.broader + cb.narrower + cb.related


def group(uris: Sequence[str | None], thesaurus: Thesaurus) -> list[list[int]]:
    """Facets as lists of positions into ``uris`` (None: unknown word, a facet alone),
    in order of their first concept."""
    parent = list(range(len(uris)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(uris):
        for j in range(i):
            b = uris[j]
            if a is not None and b is not None and linked(a, b, thesaurus):
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
