"""The paper's graded-relevance measures, vectorised over topics.

Measures as objects: :mod:`.base` (``Measure``, ``Ranking``), one module per family
(:mod:`.avp`, :mod:`.jk`, :mod:`.ndcg_log2`, :mod:`.q`, :mod:`.nerr`), registered in
:mod:`.registry` and handed to ir_measures by :mod:`.irm`. A measure names itself (``str``)
and labels itself (``label()``): code that holds parameters builds the measure and asks it.

The arithmetic they share: :mod:`.judgements` (graded qrels, recall bases, judged runs),
:mod:`.stratified` (stratified precision–recall), :mod:`.cumulated_gain` (CG/DCG with J&K's
``i < b`` rule, nCG/nDCG, today's log2(i+1) nDCG under its own name), :mod:`.effort` (the
rank at which an averaged curve reaches a target; asked by the findings, which do not compute
it), :mod:`.significance` (Friedman, post-hoc and paired tests, bootstrap CIs) and
:mod:`.ranked_grades` (the judged rankings as a file; gain and ideal vectors rebuilt from it).
"""
