"""Standard measures, named as ir_measures names them.

These are today's measures, not the paper's: ``nDCG@10`` here is ir_measures'
nDCG (gain = grade, discount log2(i+1)), unrelated to Järvelin & Kekäläinen's
DCG vectors. The qrels given are the normalised ones (grades 0–3).

Every standard measure is computed by ir_measures (pytrec_eval for trec_eval's measures:
their floats, trec_eval's single-precision ties and all), through one
:class:`StandardMeasures` set up per evaluation; ir_measures is imported only when a
standard measure is configured.
"""
from __future__ import annotations

from dataclasses import dataclass

from gradedrel.core import lazy

np = lazy.module("numpy")   # on first use: the workflow's start-up check lists the measures


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


@dataclass(frozen=True, repr=False)
class StandardMeasure:
    """A standard measure of the evaluation, named as config names it (``nDCG@10``,
    ``AP(rel=3)``), its values taken from the evaluation's :class:`StandardMeasures`
    (through :meth:`~gradedrel.evaluation.measures.base.Ranking.standard_vectors`)."""

    name: str
    complete = True

    def __str__(self) -> str:
        return self.name

    __repr__ = __str__

    def label(self, long: bool = False) -> str:
        """The measure as figures and tables name it: ir_measures' name (``nDCG@10``)."""
        return self.name

    def values(self, ranking) -> np.ndarray:
        """Per-topic values of this ir_measures measure, computed once for the ranking."""
        return ranking.standard_vectors()[self.name]


class StandardMeasures:
    """The configured standard measures of one evaluation over its judgements, set up once
    (measures parsed, qrels converted, ir_measures' evaluator built) and applied to every
    run."""

    def __init__(self, judgements, measure_names: list[str]):
        import ir_measures

        self.names = list(measure_names)
        self.measures = parse_measures(self.names)
        self.topics = list(judgements.topics)
        qrels = {qid: dict(zip(rows["docno"], rows["grade"].tolist()))
                 for qid, rows in judgements.qrels.groupby("qid", sort=False)}
        self._evaluator = ir_measures.evaluator(self.measures, qrels)

    def vectors(self, run) -> dict[str, np.ndarray]:
        """Measure name → values over the evaluated topics (``Judgements.topics``, in
        order) of a :class:`~gradedrel.retrieval.runs.RankedRun`; a topic the run lacks
        scores 0."""
        # {qid: {docno: score}}, one slice per topic (rows are grouped by topic)
        bounds = np.searchsorted(run.topic, np.arange(len(run.topics) + 1))
        docno, score = run.docno.tolist(), run.score.tolist()
        scored = {str(qid): dict(zip(docno[start:stop], score[start:stop]))
                  for qid, start, stop in zip(run.topics, bounds[:-1], bounds[1:])}
        position = {qid: i for i, qid in enumerate(self.topics)}
        keys = [str(m) for m in self.measures]
        values = {key: np.zeros(len(self.topics)) for key in keys}
        for metric in self._evaluator.iter_calc(scored):
            vector = values.get(str(metric.measure))
            i = position.get(metric.query_id)
            if vector is not None and i is not None:
                vector[i] = float(metric.value)
        return {name: values[key] for name, key in zip(self.names, keys)}
