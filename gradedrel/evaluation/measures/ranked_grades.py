"""The judged rankings as an evaluation file, and the gain vectors rebuilt from them and the
collection's recall base: what a reader of the evaluation (the findings' effort,
:mod:`.effort`) needs instead of the run files and the qrels.

- ``ranked_grades.tsv`` (``run, qid, grades``), written by the evaluation: per run and
  evaluated request, in the evaluation's order, the levels (0–3; an unjudged document is 0)
  of the documents at ranks 1..depth as one string of digits (``3002100…``): shorter when
  the run retrieved fewer, empty when it lacks the request;
- the collection's ``recall_base.tsv`` (``qid, n_0 … n_3``, written once per collection by
  :func:`gradedrel.collection.testbed.recall_base`): per request how many documents are
  judged exactly each level (the size of the paper's recall base R_r).

From these two, :func:`gain_vectors` and :func:`vectors_by_profile` give the ``(requests,
depth)`` gain and ideal vectors of a gain table exactly as the evaluation builds them from the
run and the qrels (:mod:`.cumulated_gain`); :func:`read` reads both files back, checked.
"""
from __future__ import annotations

from pathlib import Path
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from gradedrel.core.errors import InputError
from gradedrel.evaluation.contract import COLUMNS
from gradedrel.evaluation.measures import cumulated_gain as cg
from gradedrel.evaluation.measures.judgements import JudgedRun, Judgements

_DIGIT = ord("0")


def grade_strings(judged: JudgedRun, depth: int) -> list[str]:
    """The levels at ranks 1..min(retrieved, depth) of each evaluated request, as digits."""
    matrix = judged.topk_grades(depth).astype(np.uint8) + _DIGIT
    text = matrix.tobytes().decode("ascii")
    lengths = np.minimum(np.bincount(judged.topic, minlength=judged.n_topics), depth)
    return [text[t * depth:t * depth + int(n)] for t, n in enumerate(lengths.tolist())]


def gain_vectors(grades: Sequence[str], gain_by_grade: np.ndarray, depth: int) -> np.ndarray:
    """Gain vectors ``(requests, depth)`` of one run's requests (``grades`` in their order):
    the gain of the level at each rank, 0 beyond the ranking (as
    :func:`~gradedrel.evaluation.measures.cumulated_gain.gain_vectors`)."""
    text = "".join(g[:depth].ljust(depth, "0") for g in grades).encode("ascii")
    matrix = (np.frombuffer(text, dtype=np.uint8) - _DIGIT).reshape(len(grades), depth)
    return np.asarray(gain_by_grade, dtype=np.float64)[matrix]


def level_counts(recall_base: pd.DataFrame, topics: Sequence[str]) -> np.ndarray:
    """``(requests, 4)`` counts per level 0–3 of ``topics`` from the collection's recall base
    (as :attr:`Judgements.level_counts`); a request it lacks is a ValueError."""
    wide = recall_base.set_index("qid")
    missing = [t for t in topics if t not in wide.index]
    if missing:
        raise ValueError(f"recall base: no rows for requests {missing[:5]}")
    return wide.loc[list(topics), COLUMNS["recall_base"][1:]].to_numpy(dtype=np.int64)


def vectors_by_profile(ranked: pd.DataFrame, recall_base: pd.DataFrame,
                       profiles: Mapping[str, Sequence[int]], gains: Mapping[int, float],
                       depth: int, runs: Sequence[str] | None = None):
    """Per gain profile, each run's gain vectors and the ideal vectors ``(requests, depth)``
    over the evaluated requests in the evaluation's order (``ranked``'s), their ideal from the
    collection's ``recall_base``: ``(curves[profile][run], ideal[profile])``,
    the shape :class:`~gradedrel.evaluation.measures.effort.RequestCurves` reads."""
    topics = list(pd.unique(ranked["qid"]))
    counts = level_counts(recall_base, topics)
    runs = list(pd.unique(ranked["run"])) if runs is None else list(runs)
    by_run = {}
    for run in runs:
        rows = ranked[ranked["run"] == run].set_index("qid")["grades"]
        missing = [t for t in topics if t not in rows.index]
        if missing:
            raise ValueError(f"ranked grades: run {run!r} has no rows for requests {missing[:5]}")
        by_run[run] = rows.loc[topics].tolist()
    curves, ideal = {}, {}
    for name, levels in profiles.items():
        table = cg.gain_table(levels, {int(k): v for k, v in gains.items()})
        ideal[name] = cg.ideal_vectors(counts, table, depth)
        curves[name] = {run: gain_vectors(by_run[run], table, depth) for run in runs}
    return curves, ideal


def read(path: str | Path, kind: str) -> pd.DataFrame:
    """The evaluation's ``ranked_grades.tsv`` or the collection's ``recall_base.tsv``
    (``kind``), ids and grades as the text written; a wrong header or a value that is no
    level (no count) is one error naming file and line."""
    columns = COLUMNS[kind]
    frame = pd.read_csv(path, sep="\t", dtype={"run": str, "qid": str, "grades": str},
                        keep_default_na=False)
    if frame.columns.tolist() != columns:
        raise InputError(path, 1, f"the columns {columns}", list(frame.columns))
    if kind == "ranked_grades":
        bad = ~frame["grades"].str.fullmatch(r"[0-3]*")
    else:
        counts = frame[columns[1:]].apply(pd.to_numeric, errors="coerce")
        bad = (counts.isna() | (counts < 0)).any(axis=1)
        frame[columns[1:]] = counts
    if bad.any():
        row = int(np.flatnonzero(bad.to_numpy())[0])
        column = "grades" if kind == "ranked_grades" else "counts"
        raise InputError(path, row + 2, f"{column} as the workflow writes them",
                         "\t".join(map(str, frame.iloc[row].tolist())))
    if kind == "recall_base":
        frame[columns[1:]] = frame[columns[1:]].astype(np.int64)
    return frame
