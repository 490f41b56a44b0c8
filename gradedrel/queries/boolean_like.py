"""BAND: Kekäläinen & Järvelin's Boolean-like structure — an ``#and`` of one ``#syn`` per
facet — a query structure beyond the paper's three.

Kekäläinen & Järvelin (1998, *The impact of query structure and query expansion on
retrieval performance*, SIGIR): requires every facet, as a Boolean query of facets would,
but ranks by probabilistic beliefs, ``#and(#syn(keys of facet 1) #syn(keys of facet 2) …)``.
InQuery's ``#and`` is the product of its children's beliefs (Turtle & Croft 1991): a
document missing a facet keeps only the default belief 0.4 for it, where WSYN's weighted
mean lets one facet make up for another. Facets are not weighted; a facet without keys goes.

Terrier's MatchOp cannot multiply scores, so BAND runs on the InQuery back end only (query
files hold ``matchop: null``). Not in the default ``query_types.labels``: add ``BAND/u`` and
``BAND/e`` there to run it.
"""
from __future__ import annotations

from gradedrel.queries.query_tree import And, Syn
from gradedrel.queries.query_types import Structure, facet_keys, register


@register
class BooleanLike(Structure):
    """BAND: ``#and`` over one ``#syn`` per facet (its keys, expansion too if expanded)."""

    name = "BAND"
    synonym_groups = True

    def compile(self, plan, expanded, pipeline, weights):
        """#and of one #syn per facet; None without keys."""
        groups = [facet_keys(facet, expanded, pipeline) for facet in plan.facets]
        children = tuple(Syn(tuple(g)) for g in groups if g)
        return And(children) if children else None
