"""Standard measures, named as ir_measures names them.

These are today's measures, not the paper's: ``nDCG@10`` here is ir_measures'
nDCG (gain = grade, discount log2(i+1)), unrelated to Järvelin & Kekäläinen's
DCG vectors. The qrels given are the normalised ones (grades 0–3).

Every standard measure is computed by ir_measures (pytrec_eval for trec_eval's measures:
their floats, trec_eval's single-precision ties and all), through one :class:`Evaluator` set
up per evaluation; ir_measures is imported only when a standard measure is configured.
"""
from __future__ import annotations

import numpy as np
import pandas as pd


def parse_measures(names: list[str]) -> list:
    """ir_measures measures from their names; ValueError naming one ir_measures cannot parse."""
    import ir_measures

    measures = []
    for name in names:
        try:
            measures.append(ir_measures.parse_measure(name))
        except Exception as error:  # ir_measures raises several types here
            raise ValueError(f"config: measures: not an ir_measures measure: {name!r} ({error})") \
                from None
    return measures


def qrels_dict(qrels: pd.DataFrame) -> dict[str, dict[str, int]]:
    """Graded qrels (``qid, docno, grade``) as ``{qid: {docno: grade}}``."""
    q: dict[str, dict[str, int]] = {}
    for qid, docno, grade in zip(qrels["qid"].astype(str), qrels["docno"].astype(str),
                                 qrels["grade"].astype(int)):
        q.setdefault(qid, {})[docno] = int(grade)
    return q


class Evaluator:
    """The standard measures over one set of qrels, set up once (measures parsed, qrels
    converted, ir_measures' evaluator built) and applied to every run of an evaluation."""

    def __init__(self, qrels: pd.DataFrame, measure_names: list[str]):
        import ir_measures

        self.names = list(measure_names)
        self.measures = parse_measures(self.names)
        self._evaluator = ir_measures.evaluator(self.measures, qrels_dict(qrels))

    def vectors(self, run, topics: list[str]) -> dict[str, np.ndarray]:
        """Measure name → values over ``topics`` (in that order); a topic the run lacks
        scores 0. ``run`` is a dict ``{qid: {docno: score}}`` (:func:`run_dict`)."""
        position = {qid: i for i, qid in enumerate(topics)}
        keys = [str(m) for m in self.measures]
        values = {key: np.zeros(len(topics)) for key in keys}
        names: dict = {}  # measure object → its name, printed once (not once per topic)
        for metric in self._evaluator.iter_calc(run):
            key = names.get(metric.measure)
            if key is None:
                key = names[metric.measure] = str(metric.measure)
            vector = values.get(key)
            i = position.get(metric.query_id)
            if vector is not None and i is not None:
                vector[i] = float(metric.value)
        return {name: values[key] for name, key in zip(self.names, keys)}


def run_dict(run) -> dict[str, dict[str, float]]:
    """A :class:`~gradedrel.retrieval.runs.RankedRun` as ``{qid: {docno: score}}``, one
    slice per topic (rows are grouped by topic)."""
    bounds = np.searchsorted(run.topic, np.arange(len(run.topics) + 1))
    docno, score = run.docno.tolist(), run.score.tolist()
    return {str(qid): dict(zip(docno[start:stop], score[start:stop]))
            for qid, start, stop in zip(run.topics, bounds[:-1], bounds[1:])}


def is_standard(name: str) -> bool:
    """Whether ``name`` is a standard measure: one that ir_measures parses."""
    try:
        parse_measures([name])
    except ValueError:
        return False
    return True


class StandardMeasure:
    """A standard measure of the evaluation, named as config names it (``nDCG@10``,
    ``AP(rel=3)``), its values taken from the evaluation's :class:`StandardMeasures`
    (through :meth:`~gradedrel.evaluation.measures.base.Ranking.standard_vectors`)."""

    complete = True

    def __init__(self, name: str):
        self.name = name

    def __str__(self) -> str:
        return self.name

    __repr__ = __str__

    def label(self, long: bool = False) -> str:
        """The measure as figures and tables name it: ir_measures' name (``nDCG@10``)."""
        return self.name

    def __eq__(self, other) -> bool:
        return isinstance(other, StandardMeasure) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)

    def values(self, ranking) -> np.ndarray:
        """Per-topic values of this ir_measures measure, computed once for the ranking."""
        return ranking.standard_vectors()[self.name]


class StandardMeasures:
    """The configured standard measures of one evaluation, through one ir_measures
    :class:`Evaluator` (built, and ir_measures imported, once)."""

    def __init__(self, judgements, measure_names: list[str]):
        self.names = list(measure_names)
        self.judgements = judgements
        self._evaluator = Evaluator(judgements.qrels, self.names)

    def vectors(self, judged, run) -> dict[str, np.ndarray]:
        """Measure name → values over the evaluated topics (``Judgements.topics``, in
        order); a topic the run lacks scores 0."""
        return self._evaluator.vectors(run_dict(run), list(self.judgements.topics))
