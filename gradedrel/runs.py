"""TREC run files: ``qid Q0 docno rank score tag``."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from .io import atomic_open

RUN_COLUMNS = ["qid", "docno", "rank", "score"]


def write_run(run: pd.DataFrame, path: str | Path, tag: str, topic_order: list[str]) -> None:
    """Write ``qid, docno, rank, score`` as a TREC run, topics in ``topic_order``, ranks 1..n.

    Scores are written with 10 significant digits, so equal inputs give equal bytes.
    """
    order = {qid: i for i, qid in enumerate(topic_order)}
    unknown = sorted(set(run["qid"]) - set(order))
    if unknown:
        raise ValueError(f"run has topics not in the topic order: {unknown[:5]}")
    run = run.assign(_order=run["qid"].map(order)).sort_values(["_order", "rank"], kind="stable")
    with atomic_open(path) as handle:
        for row in run.itertuples(index=False):
            handle.write(f"{row.qid} Q0 {row.docno} {int(row.rank)} {row.score:.10g} {tag}\n")
