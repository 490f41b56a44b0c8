"""Standard measures through ``ir_measures`` (named as ir_measures names them).

These are today's measures, not the paper's: ``nDCG@10`` here is ir_measures'
nDCG (gain = grade, discount log2(i+1)), unrelated to Järvelin & Kekäläinen's
DCG vectors. The qrels given are the normalised ones (grades 0–3).
"""
from __future__ import annotations

import ir_measures
import numpy as np
import pandas as pd


def parse_measures(names: list[str]) -> list:
    measures = []
    for name in names:
        try:
            measures.append(ir_measures.parse_measure(name))
        except Exception as error:  # ir_measures raises several types here
            raise ValueError(f"config: measures: not an ir_measures measure: {name!r} ({error})") \
                from None
    return measures


def per_topic(qrels: pd.DataFrame, run, topics: list[str],
              measure_names: list[str]) -> pd.DataFrame:
    """One row per (topic, measure); a topic the run lacks scores 0 on every measure.

    ``run`` is a frame (``qid, docno, score``) or a dict ``{qid: {docno: score}}`` (what
    pytrec_eval reads; :func:`run_dict` builds it from a ranked run without a row loop).
    """
    measures = parse_measures(measure_names)
    q = {}
    for qid, docno, grade in zip(qrels["qid"].astype(str), qrels["docno"].astype(str),
                                 qrels["grade"].astype(int)):
        q.setdefault(qid, {})[docno] = int(grade)
    if isinstance(run, pd.DataFrame):
        r = {}
        for qid, docno, score in zip(run["qid"].astype(str), run["docno"].astype(str),
                                     run["score"].astype(float)):
            r.setdefault(qid, {})[docno] = float(score)
        run = r
    values = {(m.query_id, str(m.measure)): float(m.value)
              for m in ir_measures.iter_calc(measures, q, run)}
    rows = []
    for qid in topics:
        for name, measure in zip(measure_names, measures):
            rows.append((qid, name, values.get((qid, str(measure)), 0.0)))
    return pd.DataFrame(rows, columns=["qid", "measure", "value"])


def run_dict(run) -> dict[str, dict[str, float]]:
    """A :class:`~gradedrel.retrieval.runs.RankedRun` as ``{qid: {docno: score}}``, one
    slice per topic (rows are grouped by topic)."""
    bounds = np.searchsorted(run.topic, np.arange(len(run.topics) + 1))
    docno, score = run.docno.tolist(), run.score.tolist()
    return {str(qid): dict(zip(docno[start:stop], score[start:stop]))
            for qid, start, stop in zip(run.topics, bounds[:-1], bounds[1:])}


def means(per_topic_values: pd.DataFrame, measure_names: list[str]) -> pd.DataFrame:
    grouped = per_topic_values.groupby("measure", sort=False)["value"]
    table = pd.DataFrame({"measure": measure_names})
    table["mean"] = [float(grouped.get_group(n).mean()) for n in measure_names]
    table["topics"] = [int(grouped.get_group(n).size) for n in measure_names]
    return table
