"""The experiment grid: collection × retrieval model × query type, one TREC run per cell.

Models are declared once, by name, in config (``retrieval.models``); each has a
back end — ``inquery`` (:mod:`gradedrel.retrieval.inquery`, scoring the query tree) or
``terrier`` (a Terrier weighting model through PyTerrier, running the MatchOp
string). ``retrieval.grid`` names the models run on every active collection.

Every topic of the collection gets a ranking or a reason, counted in
``not_ranked.tsv``: no query of this type for the topic, no search key left
after the index's term pipeline, a query that matched no document, or a ranking
the model could not score (NaN scores: a ranking of NaNs has no order, so the
topic's ranking is withheld rather than written in an arbitrary order).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import numpy as np
import pandas as pd

from gradedrel.core.progress import progress
from gradedrel.queries import query_files
from gradedrel.retrieval import inquery
from gradedrel.queries.query_tree import from_dict
from gradedrel.retrieval.runs import trec_eval_ranking

log = logging.getLogger("gradedrel")

NO_QUERY = "no query for the topic in the query file"
NO_KEYS = "no search key left after the index's term pipeline"
NO_MATCH = "query matched no document"
NAN_SCORES = ("the model gave NaN scores (Terrier's #syn sums its members' dfs; above N, "
              "BM25's idf is the log of a negative number)")
BACKENDS = ("inquery", "terrier")
# the parameters each back end takes (config validation fills defaults in for all of them)
PARAMETERS = {"inquery": ("default_belief",), "terrier": ("wmodel", "controls", "properties")}
NOT_RANKED_COLUMNS = ["qid", "query_type", "reason"]


@dataclass(frozen=True)
class Model:
    """One retrieval model of the grid: a config name, its back end and parameters."""

    name: str
    backend: str
    parameters: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_config(cls, name: str, spec: Mapping[str, Any]) -> "Model":
        backend = spec.get("backend")
        if backend not in BACKENDS:
            raise ValueError(f"retrieval.models.{name}.backend: expected one of {BACKENDS}, "
                             f"found {backend!r}")
        if backend == "terrier" and not spec.get("wmodel"):
            raise ValueError(f"retrieval.models.{name}: a terrier model needs 'wmodel'")
        return cls(name, backend, {k: v for k, v in spec.items() if k in PARAMETERS[backend]})


def cells(config: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """``(collection, model, slug)`` of every run the configured grid holds."""
    models = config["retrieval"]["grid"]
    unknown = [m for m in models if m not in config["retrieval"]["models"]]
    if unknown:
        raise ValueError(f"retrieval.grid names {unknown}, which are not under retrieval.models")
    return [(c, m, s) for c in config["active_collections"] for m in models
            for s in query_files.SLUGS]


def retriever(model: Model, index_dir: str | Path, depth: int, index=None):
    """The model as a PyTerrier transformer over ``index_dir`` (index and postings loaded once)."""
    if model.backend == "inquery":
        from gradedrel.retrieval.transformers import InQuery

        return InQuery(index_dir, num_results=depth,
                       default_belief=model.parameters.get("default_belief",
                                                           inquery.DEFAULT_BELIEF))
    import pyterrier as pt

    from gradedrel.core.terrier import open_index

    def as_text(key):  # Terrier takes controls and properties as strings
        return {k: str(v) for k, v in model.parameters.get(key, {}).items()}

    return pt.terrier.Retriever(index if index is not None else open_index(index_dir),
                                wmodel=model.parameters["wmodel"], num_results=depth,
                                controls=as_text("controls"), properties=as_text("properties"))


#: Topics per call of the retriever: progress is logged between calls (each topic is
#: ranked on its own, so the parts give the ranking one call would).
PART = 25


def _in_parts(batch: pd.DataFrame, desc: str):
    """``batch`` in parts of :data:`PART` topics, with progress (topics, topics/s)."""
    with progress(desc=desc, unit="topics", total=len(batch)) as bar:
        for start in range(0, len(batch), PART):
            part = batch.iloc[start:start + PART].reset_index(drop=True)
            yield part
            bar.update(len(part))


def run_query_type(transformer, topics: pd.DataFrame, queries: pd.DataFrame, label: str,
                   pipeline) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Run one query type: ``(run qid, docno, rank, score; not_ranked qid, query_type, reason)``."""
    by_qid = queries.set_index("qid")
    runnable, not_ranked = [], []
    for qid in topics["qid"].astype(str):
        if qid not in by_qid.index:
            not_ranked.append((qid, label, NO_QUERY))
        elif inquery.prepare(from_dict(by_qid.at[qid, "tree"]), pipeline) is None:
            not_ranked.append((qid, label, NO_KEYS))
        else:
            runnable.append(qid)
    batch = pd.DataFrame({"qid": runnable,
                          "query": [by_qid.at[q, "matchop"] for q in runnable],
                          "tree": [by_qid.at[q, "tree"] for q in runnable]})
    if runnable:
        run = pd.concat([transformer.transform(part)[["qid", "docno", "score"]]
                         for part in _in_parts(batch, f"retrieving {label}")],
                        ignore_index=True)
    else:
        run = pd.DataFrame(columns=["qid", "docno", "score"])
    run = run.assign(qid=run["qid"].astype(str))
    unscored = set(run.loc[run["score"].isna(), "qid"])
    run = trec_eval_ranking(run[~run["qid"].isin(unscored)])
    ranked = set(run["qid"])
    not_ranked += [(q, label, NAN_SCORES if q in unscored else NO_MATCH)
                   for q in runnable if q not in ranked]
    order = {q: i for i, q in enumerate(topics["qid"].astype(str))}
    not_ranked.sort(key=lambda row: order[row[0]])
    return (run[["qid", "docno", "rank", "score"]].reset_index(drop=True),
            pd.DataFrame(not_ranked, columns=NOT_RANKED_COLUMNS))


