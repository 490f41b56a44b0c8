"""The paper's graded-relevance measures, vectorised over topics.

- :mod:`.judgements` — graded qrels, recall bases, and runs joined to them;
- :mod:`.stratified` — stratified precision–recall: AvP and interpolated P–R per level;
- :mod:`.cumulated_gain` — gain vectors, ideal vectors, CG/DCG (J&K's ``i < b`` rule),
  nCG/nDCG, and today's log2(i+1) nDCG under its own name;
- :mod:`.effort` — the rank at which an averaged curve reaches the ideal's value at k;
- :mod:`.significance` — Friedman with post-hoc tests, paired tests, bootstrap CIs;
- :mod:`.names` — the measure names used in tables, figures and ir_measures;
- :mod:`.irm` — the measures as ir_measures measures (usable in ``pt.Experiment``).
"""
