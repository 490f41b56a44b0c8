"""Standard measures through ``ir_measures`` (named as ir_measures names them).

These are today's measures, not the paper's: ``nDCG@10`` here is ir_measures'
nDCG (gain = grade, discount log2(i+1)), unrelated to Järvelin & Kekäläinen's
DCG vectors. The qrels given are the normalised ones (grades 0–3).
"""
from __future__ import annotations

import ir_measures
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


def per_topic(qrels: pd.DataFrame, run: pd.DataFrame, topics: list[str],
              measure_names: list[str]) -> pd.DataFrame:
    """One row per (topic, measure); a topic the run lacks scores 0 on every measure."""
    measures = parse_measures(measure_names)
    q = pd.DataFrame({"query_id": qrels["qid"].astype(str), "doc_id": qrels["docno"].astype(str),
                      "relevance": qrels["grade"].astype(int)})
    r = pd.DataFrame({"query_id": run["qid"].astype(str), "doc_id": run["docno"].astype(str),
                      "score": run["score"].astype(float)})
    values = {(m.query_id, str(m.measure)): float(m.value)
              for m in ir_measures.iter_calc(measures, q, r)}
    rows = []
    for qid in topics:
        for name, measure in zip(measure_names, measures):
            rows.append((qid, name, values.get((qid, str(measure)), 0.0)))
    return pd.DataFrame(rows, columns=["qid", "measure", "value"])


def means(per_topic_values: pd.DataFrame, measure_names: list[str]) -> pd.DataFrame:
    grouped = per_topic_values.groupby("measure", sort=False)["value"]
    table = pd.DataFrame({"measure": measure_names})
    table["mean"] = [float(grouped.get_group(n).mean()) for n in measure_names]
    table["topics"] = [int(grouped.get_group(n).size) for n in measure_names]
    return table
