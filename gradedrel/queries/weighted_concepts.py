"""WSYN-C: SSYN-C with per-facet weights — a query structure beyond the paper's three.

One synonym group per concept, as SSYN-C, each weighted by the importance of the facet
that holds the concept, as WSYN weights whole facets (config ``analysis.weights``: the
paper's major 10, minor 7)::

    #wsum(1 w(f1) #syn(keys of c1) w(f1) #syn(keys of c2) w(f2) #syn(keys of c3) …)

with c1, c2 concepts of facet f1 and c3 of facet f2 (InQuery's operators, Callan, Croft &
Harding 1992: :mod:`gradedrel.queries.query_tree`; the leading scale weight W is left out).

SSYN-C averages its concept groups equally, so minor facets count as much as major ones;
WSYN weights facets but merges a facet's concepts into one group, so a document matching
two concepts of a facet gains no more than one matching either. WSYN-C keeps each concept
its own evidence, weighted by its facet: a facet's total weight is its weight times its
number of concepts; with equal major and minor weights it ranks exactly as SSYN-C.

Both back ends run it as WSYN (``WSum`` over ``Syn``). The Terrier back end runs
``#combine:0=w1:1=w1:2=w2(#syn(…) #syn(…) #syn(…))``, the weights used as the model uses a
query-term weight (:data:`gradedrel.retrieval.backends.QUERY_WEIGHTS`: linearly for DPH,
through k_3 for BM25, not at all for DirichletLM, where WSYN-C ranks as SSYN-C), over
Terrier's ``#syn``, whose df is the sum of its members' dfs: an approximation for BM25;
DirichletLM and DPH, which use the collection frequency, are exact (docs/query-types.md).

Not in the default ``query_types.labels``: add ``WSYN-C/u`` and ``WSYN-C/e`` there to run it.
"""
from __future__ import annotations

from gradedrel.queries.query_tree import Syn
from gradedrel.queries.query_types import Structure, keys_of, register, weighted_sum


@register
class WsynC(Structure):
    """WSYN-C: ``#wsum`` over one ``#syn`` per concept, weighted by its facet's importance."""

    name = "WSYN-C"
    synonym_groups = True

    def compile(self, plan, expanded, pipeline, weights):
        """#wsum of one #syn per concept, weighted by its facet's importance; None without keys."""
        groups = [(float(weights[f.importance]), keys_of(c.all_keys(expanded), pipeline))
                  for f in plan.facets for c in f.concepts]
        # a concept with no key left goes, with its weight
        return weighted_sum([(w, Syn(tuple(keys))) for w, keys in groups if keys])
