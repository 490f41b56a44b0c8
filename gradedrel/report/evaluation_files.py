"""Reading the evaluation's TSV files for the report, with their columns checked.

The shapes are the evaluation contract (common brief): ``means.tsv`` (run, measure,
mean, topics), ``pr_curves.tsv``, ``gain_curves.tsv``, ``effort.tsv``, ``per_topic.tsv``.
A missing column is one clear error naming the file and line 1 (the header).
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from gradedrel.core.errors import InputError
from gradedrel.evaluation import contract

COLUMNS = {
    **contract.COLUMNS,  # the evaluation's files and the recall base: their one statement
    "statistics": ["qid", "query_type"],
}

def check_columns(frame: pd.DataFrame, required: list[str], path: str | Path) -> None:
    """InputError naming the columns of ``required`` that ``frame`` lacks, if any."""
    missing = [c for c in required if c not in frame.columns]
    if missing:
        raise InputError(path, 1, f"a header with columns {required}",
                         f"{list(frame.columns)} (missing {missing})")


def read(path: str | Path, kind: str | None = None) -> pd.DataFrame:
    """Read one TSV with a header; check its columns if ``kind`` names a known shape."""
    # text columns stay text ("2+3", "3" and qids are names, not numbers)
    text = ("run", "qid", "measure", "profile", "kind", "reading", "query_type")
    frame = pd.read_csv(path, sep="\t", dtype=dict.fromkeys(text, str), keep_default_na=False,
                        na_values={"rank_reached": [""], "p_value": [""]})
    if kind is not None:
        check_columns(frame, COLUMNS[kind], path)
    return frame
