"""The experiment grid: collection × retrieval model × query type, one TREC run per cell.

Models are declared once, by name, in config (``retrieval.models``), each naming a
registered back end (:mod:`gradedrel.retrieval.backends`) with its parameters;
``retrieval.grid`` names the models run on every active collection.

Every topic gets a ranking or a reason, counted in ``not_ranked.tsv``: no query of this
type, no search key left after the index's term pipeline, a query that matched no
document, or NaN or infinite scores (such a ranking has no order: it is withheld).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Mapping

from gradedrel.core import lazy

pd = lazy.module("pandas")

from gradedrel.core.progress import progress
from gradedrel.retrieval import backends
from gradedrel.retrieval.runs import trec_eval_ranking

log = logging.getLogger("gradedrel")

NO_QUERY = "no query for the topic in the query file"
NO_KEYS = "no search key left after the index's term pipeline"
NO_MATCH = "query matched no document"
NAN_SCORES = ("the model gave NaN scores (Terrier's #syn sums its members' dfs; above N, "
              "BM25's idf is the log of a negative number)")
INF_SCORES = ("the model gave infinite scores (Terrier 5.11 gives every phrase df = N/100 and "
              "frequency 2N/100: zero under 100 documents, and models that divide by the "
              "frequency, DirichletLM, DPH, PL2, score such a phrase infinite)")
NOT_RANKED_COLUMNS = ["qid", "query_type", "reason"]


@dataclass(frozen=True)
class Model:
    """One retrieval model of the grid: a config name, its back end and parameters."""

    name: str
    backend: str
    parameters: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_config(cls, name: str, spec: Mapping[str, Any]) -> "Model":
        """The model ``name`` of ``retrieval.models``, its parameters checked by its back end."""
        where = f"retrieval.models.{name}"
        backend = backends.get(spec.get("backend"), f"{where}.backend")
        return cls(name, backend.name, backend.validate(where, spec))

    def engine(self) -> backends.Backend:
        """Its registered back end, with its parameters."""
        return backends.get(self.backend, f"model {self.name}")(self.parameters)


#: Topics per call of the retriever (progress is logged between calls).
PART = 25


def _in_parts(batch: pd.DataFrame, desc: str):
    """``batch`` in parts of :data:`PART` topics, with progress (topics, topics/s)."""
    with progress(desc=desc, unit="topics", total=len(batch)) as bar:
        for start in range(0, len(batch), PART):
            part = batch.iloc[start:start + PART].reset_index(drop=True)
            yield part
            bar.update(len(part))


def run_query_type(model: Model, transformer, topics: pd.DataFrame, queries: pd.DataFrame,
                   label: str, pipeline) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Run one query type through ``model`` (its ``transformer``, built once for every query
    type by ``model.engine().retriever(index_dir, depth, index=index)``):
    ``(run qid, docno, rank, score; not_ranked qid, query_type, reason)``."""
    engine = model.engine()
    by_qid = queries.set_index("qid")
    prepared, not_ranked = {}, []
    for qid in topics["qid"].astype(str):
        if qid not in by_qid.index:
            not_ranked.append((qid, label, NO_QUERY))
            continue
        columns = engine.prepare({"tree": by_qid.at[qid, "tree"], "query_type": label,
                                  "matchop": by_qid.at[qid, "matchop"]}, pipeline)
        if columns is None:
            not_ranked.append((qid, label, NO_KEYS))
        else:
            prepared[qid] = columns
    if prepared:
        batch = pd.DataFrame([{"qid": qid, **columns} for qid, columns in prepared.items()])
        run = pd.concat([transformer.transform(part)[["qid", "docno", "score"]]
                         for part in _in_parts(batch, f"{model.name} retrieving {label}")],
                        ignore_index=True)
    else:
        run = pd.DataFrame(columns=["qid", "docno", "score"])
    run = run.assign(qid=run["qid"].astype(str))
    score = pd.to_numeric(run["score"])
    nan = set(run.loc[score.isna(), "qid"])
    infinite = set(run.loc[score.isin([float("inf"), float("-inf")]), "qid"]) - nan
    run = trec_eval_ranking(run[~run["qid"].isin(nan | infinite)])
    ranked = set(run["qid"].tolist())  # a list first: iterating pandas' strings is slow
    not_ranked += [(q, label, NAN_SCORES if q in nan else INF_SCORES if q in infinite
                    else NO_MATCH) for q in prepared if q not in ranked]
    order = {q: i for i, q in enumerate(topics["qid"].astype(str))}
    not_ranked.sort(key=lambda row: order[row[0]])
    return (run[["qid", "docno", "rank", "score"]].reset_index(drop=True),
            pd.DataFrame(not_ranked, columns=NOT_RANKED_COLUMNS))
