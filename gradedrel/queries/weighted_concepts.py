"""WSYN-C: SSYN-C with per-facet weights — a query structure beyond the paper's three.

One synonym group per concept, as SSYN-C, each weighted by the importance of the facet
that holds the concept, as WSYN weights whole facets (config ``analysis.weights``: the
paper's major 10, minor 7)::

    #wsum(1 w(f1) #syn(keys of c1) w(f1) #syn(keys of c2) w(f2) #syn(keys of c3) …)

with c1, c2 concepts of facet f1 and c3 of facet f2. The operators are InQuery's
(Callan, Croft & Harding 1992, *The INQUERY retrieval system*, DEXA; as the paper used
them, Järvelin & Kekäläinen 2000, sec. 3):
``#syn(k_1 … k_m)`` makes its keys occurrences of one key (tf summed in a document, df
the documents holding any of them), ``#wsum(W w_1 c_1 … w_n c_n)`` is the weighted mean
W·Σ w_i b_i / Σ w_i of its children's beliefs (W only scales a score, so it is left out).

What it changes: SSYN-C averages its concept groups equally, so a request's minor facets
count as much as its major ones; WSYN keeps the weights but merges a facet's concepts into
one group, so a document matching two concepts of a facet is credited no more than one
matching either. WSYN-C keeps each concept its own evidence and weights it by its facet. A
facet's total weight is its weight times its number of concepts (as SSYN-C counts each
concept once); with equal major and minor weights WSYN-C ranks exactly as SSYN-C.

Both back ends run it as they run WSYN, with the same two nodes (``WSum`` over ``Syn``),
so no other file changes. The InQuery back end scores exactly the weighted mean of beliefs
above. The Terrier back end runs the MatchOp ``#combine:0=w1:1=w1:2=w2(#syn(…) #syn(…)
#syn(…))``: the groups' scores weighted as the model uses a query-term weight
(:data:`gradedrel.retrieval.backends.QUERY_WEIGHTS`) — linearly for DPH (a
weighted mean up to the constant Σ w_i), through k_3 for BM25, not at all for DirichletLM,
where WSYN-C ranks as SSYN-C — over Terrier's ``#syn``, whose df is the sum of its
members' dfs rather than their union (docs/query-types.md: an approximation for BM25;
models that use the collection frequency instead, DirichletLM and DPH, are exact).

Registered on import by the package (:mod:`gradedrel.queries`); not in the default
``query_types.labels`` (the paper's six): add ``WSYN-C/u`` and ``WSYN-C/e`` there to run it.
"""
from __future__ import annotations

from gradedrel.queries.query_tree import Syn, WSum
from gradedrel.queries.query_types import Structure, keys_of, register


@register
class WsynC(Structure):
    """WSYN-C: ``#wsum`` over one ``#syn`` per concept, weighted by its facet's importance."""

    name = "WSYN-C"
    synonym_groups = True

    def compile(self, plan, expanded, pipeline, weights):
        """#wsum of one #syn per concept, weighted by its facet's importance; None without keys."""
        pairs = []
        for facet in plan.facets:
            weight = float(weights[facet.importance])
            for concept in facet.concepts:
                keys = keys_of(concept.all_keys(expanded), pipeline)
                if keys:  # a concept with no key left goes, with its weight
                    pairs.append((weight, Syn(tuple(keys))))
        if not pairs:
            return None
        return WSum(tuple(w for w, _ in pairs), tuple(s for _, s in pairs))
