"""The plain baseline: a Terrier weighting model over the raw request text.

The request is tokenised as the indexer tokenises (:mod:`gradedrel.core.text`), so
punctuation cannot break Terrier's query parser. A request with no terms left is excluded
with that reason, and counted; one whose terms match no document is reported.
"""
from __future__ import annotations

from typing import Callable

import pandas as pd

from gradedrel.core.text import query_text, tokenise

NO_TERMS = "no query terms after tokenisation and stopword removal"


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


def retrieve(index_dir, queries: pd.DataFrame, wmodel: str, depth: int,
             index=None) -> pd.DataFrame:
    """Run ``queries`` through one Terrier model as the grid does; ``qid, docno, rank,
    score`` in trec_eval's order."""
    from gradedrel.retrieval.grid import Model
    from gradedrel.retrieval.runs import trec_eval_ranking

    if len(queries) == 0:
        return trec_eval_ranking(pd.DataFrame(columns=["qid", "docno", "score"]))
    model = Model.from_config(wmodel, {"backend": "terrier", "wmodel": wmodel})
    result = model.engine().retriever(index_dir, depth, index=index).transform(queries)
    return trec_eval_ranking(result[["qid", "docno", "score"]].assign(qid=result["qid"].astype(str)))


def unmatched(queries: pd.DataFrame, run: pd.DataFrame) -> pd.DataFrame:
    """Runnable topics that retrieved nothing (in the order of ``queries``, one per topic)."""
    from gradedrel.retrieval.grid import NO_MATCH

    ranked = set(run["qid"].tolist())
    return pd.DataFrame([(qid, NO_MATCH) for qid in queries["qid"].tolist() if qid not in ranked],
                        columns=["qid", "reason"])
