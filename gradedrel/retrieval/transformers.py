"""Query types and the InQuery back end as PyTerrier transformers.

Outside the workflow a user composes them like any PyTerrier pipeline::

    import pyterrier as pt
    from gradedrel.core import terrier
    from gradedrel.retrieval.transformers import InQuery, structure
    terrier.start("5.11", "0.0.8")
    wsyn_e = structure("WSYN", expanded=True, queries="results/cranfield/queries")
    pt.Experiment([wsyn_e >> InQuery("results/cranfield/index"),
                   wsyn_e >> pt.terrier.Retriever(index, wmodel="BM25")],
                  topics, qrels, eval_metrics=[...])

:func:`structure` turns topics (``qid``) into the query type's structured query:
``query`` is the MatchOp string (so any Terrier retriever can run it) and
``tree`` the engine-neutral tree that :class:`InQuery` scores.
"""
from __future__ import annotations

import functools
import json
import logging
from pathlib import Path

import numpy as np
import pandas as pd
import pyterrier as pt

from gradedrel.collection import postings
from gradedrel.queries import query_files
from gradedrel.retrieval import inquery
from gradedrel.queries.query_tree import from_dict

log = logging.getLogger("gradedrel")


class QueryType(pt.Transformer):
    """Topics → one query type's structured queries, read from its query file."""

    def __init__(self, label: str, path: str | Path):
        self.label = label
        self.path = Path(path)
        self.queries = query_files.read_query_file(self.path).set_index("qid")
        self.missing: list[str] = []

    def transform(self, topics: pd.DataFrame) -> pd.DataFrame:
        """``topics`` with this query type's query and tree; topics without one are left out
        and logged."""
        qids = topics["qid"].astype(str)
        present = qids.isin(self.queries.index)
        self.missing = qids[~present].tolist()
        if self.missing:  # counted and said, not silently dropped
            log.warning("%s: %d topic(s) have no %s query: %s", self.path, len(self.missing),
                        self.label, ", ".join(self.missing[:10]))
        out = topics.loc[present.values].copy()
        out["qid"] = out["qid"].astype(str)
        found = self.queries.loc[out["qid"]]
        out["query"] = found["matchop"].values
        out["tree"] = found["tree"].values
        out["query_type"] = self.label
        return out.reset_index(drop=True)

    def __repr__(self):
        return f"structure({self.label!r}, queries={str(self.path)!r})"


def structure(query_type: str, expanded: bool | None = None, *,
              queries: str | Path) -> QueryType:
    """The query type (``"WSYN", expanded=True`` or ``"WSYN/e"``) from its query file;
    ``queries``: the query-file folder or one ``.jsonl`` file."""
    label = query_files.label(query_type, expanded)
    path = Path(queries)
    if path.is_dir():
        path = path / f"{query_files.slug(label)}.jsonl"
    return QueryType(label, path)


def _index_dir(index) -> Path:
    if isinstance(index, (str, Path)):
        path = Path(index)
        return path.parent if path.name == "data.properties" else path
    if hasattr(index, "getPath"):  # a Terrier IndexOnDisk
        return Path(str(index.getPath()))
    raise TypeError(f"InQuery needs an index directory or a Terrier index, not {type(index)}")


class InQuery(pt.Transformer):
    """InQuery's inference network (:mod:`gradedrel.retrieval.inquery`) as a PyTerrier
    retriever: rows with ``qid`` and ``tree`` (a dict, its JSON, or a node) in; ``qid,
    docid, docno, score, rank`` (rank from 0) and the input's other columns out."""

    def __init__(self, index, default_belief: float = inquery.DEFAULT_BELIEF,
                 num_results: int = 1000, cache_dir: str | Path | None = None):
        from gradedrel.core import terrier

        index_dir = _index_dir(index)
        self.num_results = int(num_results)
        # the term pipeline crosses into Java per token: each token's term remembered
        pipeline = functools.lru_cache(maxsize=None)(terrier.term_pipeline(index_dir))
        self.scorer = inquery.Scorer(postings.cached(index_dir, cache_dir), pipeline,
                                     default_belief)

    def transform(self, queries: pd.DataFrame) -> pd.DataFrame:
        """The ranking of each query tree in ``queries`` (qid, docid, docno, score, rank)."""
        if "tree" not in queries.columns:
            raise ValueError("InQuery scores query trees: its input needs a 'tree' column "
                             "(put a query type first, e.g. structure('WSYN/e', queries=…) >> InQuery(…))")
        columns = ["qid", "docid", "docno", "score", "rank"]
        frames = []
        docnos = self.scorer.arrays.docnos
        for qid, tree in zip(queries["qid"].astype(str), queries["tree"]):
            tree = json.loads(tree) if isinstance(tree, str) else tree
            tree = from_dict(tree) if isinstance(tree, dict) else tree
            docids, scores = self.scorer.rank(tree, self.num_results)
            frames.append(pd.DataFrame({"qid": qid, "docid": docids.astype(np.int64),
                                        "docno": docnos[docids], "score": scores,
                                        "rank": np.arange(len(docids), dtype=np.int64)}))
        result = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=columns)
        # keep the input's columns (query, tree, …) beside each ranking, as Terrier retrievers do
        other = queries.drop(columns=[c for c in columns if c != "qid" and c in queries.columns])
        other = other.assign(qid=other["qid"].astype(str)).drop_duplicates("qid")
        return result.merge(other, on="qid", how="left")

    def __repr__(self):
        return f"InQuery(default_belief={self.scorer.default_belief}, num_results={self.num_results})"

