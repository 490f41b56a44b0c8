"""The paper's graded-relevance measures, vectorised over topics.

Measures as objects (one module per family, registered once):

- :mod:`.base` — ``Measure`` (a family, its parameters, its name) and ``Ranking`` (the judged
  run every measure computes from);
- :mod:`.avp` (``AvP``), :mod:`.jk` (``JK_CG``, ``JK_nCG``, ``JK_DCG``, ``JK_nDCG``),
  :mod:`.ndcg_log2` (``nDCG_log2``), :mod:`.q` (``Q``), :mod:`.nerr` (``nERR``) — the
  families;
- :mod:`.registry` — the families registered, names parsed, config's family entries expanded;
- :mod:`.irm` — the families as ir_measures measures (usable in ``pt.Experiment``).

A measure names itself (``str``) and labels itself (``label()``): code that holds parameters
builds the measure and asks it.

The arithmetic they share:

- :mod:`.judgements` — graded qrels, recall bases, and runs joined to them;
- :mod:`.stratified` — stratified precision–recall: AvP and interpolated P–R per level;
- :mod:`.cumulated_gain` — gain vectors, ideal vectors, CG/DCG (J&K's ``i < b`` rule),
  nCG/nDCG, and today's log2(i+1) nDCG under its own name;
- :mod:`.effort` — the rank at which an averaged curve reaches a target (the ideal's value
  at k; a share of its end: proportional effort and the ratio of two runs', with its
  bootstrap over requests: the findings ask it, they do not compute effort);
- :mod:`.significance` — Friedman with post-hoc tests, paired tests, bootstrap CIs;
- :mod:`.ranked_grades` — the judged rankings as a file, and the gain and ideal vectors
  rebuilt from it and the collection's recall base.
"""
