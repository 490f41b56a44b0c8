"""The plain baseline: a Terrier weighting model over the raw request text.

The request is tokenised as the indexer tokenises (:mod:`gradedrel.text`), so
punctuation cannot break Terrier's query parser. A request with no terms left
after tokenisation and stopword removal cannot be run: it is excluded from the
run with that reason, and counted; a request whose terms match no document gets
an empty ranking, and is reported.
"""
from __future__ import annotations

from typing import Callable

import pandas as pd

from .text import query_text, tokenise

NO_TERMS = "no query terms after tokenisation and stopword removal"
NO_MATCH = "query matched no document"


def baseline_queries(topics: pd.DataFrame,
                     pipeline: Callable[[str], str | None]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Topics → (runnable ``qid, query``, excluded ``qid, reason``)."""
    runnable, excluded = [], []
    for qid, text in zip(topics["qid"], topics["query"]):
        tokens = tokenise(text)
        if not any(pipeline(t) for t in tokens):
            excluded.append((qid, NO_TERMS))
        else:
            runnable.append((qid, query_text(text)))
    return (pd.DataFrame(runnable, columns=["qid", "query"]),
            pd.DataFrame(excluded, columns=["qid", "reason"]))


def retrieve(index, queries: pd.DataFrame, wmodel: str, depth: int,
             controls: dict | None = None) -> pd.DataFrame:
    """Run ``queries`` through one Terrier model; returns ``qid, docno, rank, score``."""
    import pyterrier as pt

    retriever = pt.terrier.Retriever(index, wmodel=wmodel, num_results=depth,
                                     controls=controls or {})
    if len(queries) == 0:
        return pd.DataFrame(columns=["qid", "docno", "rank", "score"])
    result = retriever.transform(queries)
    result = result[["qid", "docno", "rank", "score"]].copy()
    result["rank"] = result["rank"].astype(int) + 1  # PyTerrier ranks from 0; TREC from 1
    return result


def unmatched(queries: pd.DataFrame, run: pd.DataFrame) -> pd.DataFrame:
    """Runnable topics that retrieved nothing."""
    empty = sorted(set(queries["qid"]) - set(run["qid"]), key=queries["qid"].tolist().index)
    return pd.DataFrame([(qid, NO_MATCH) for qid in empty], columns=["qid", "reason"])
