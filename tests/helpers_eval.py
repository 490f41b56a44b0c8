"""Small builders shared by the evaluation tests (synthetic qrels and runs, seeded)."""
from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from gradedrel.evaluation.measures.judgements import Judgements, judge
from gradedrel.retrieval.runs import rank_frame


def judged(qrels_rows, run_rows, topics=None):
    """(Judgements, JudgedRun) from ``[(qid, docno, grade)]`` and ``[(qid, docno, score)]``."""
    qrels = pd.DataFrame(qrels_rows, columns=["qid", "docno", "grade"])
    run = pd.DataFrame(run_rows, columns=["qid", "docno", "score"])
    judgements = Judgements.from_qrels(qrels, topics)
    return judgements, judge(rank_frame(run), judgements)


def ranked_by_grade(grades, qid="1"):
    """A one-topic case whose ranking has exactly the given grades at ranks 1..n
    (documents judged as listed, scores decreasing)."""
    qrels = [(qid, f"d{i:03d}", int(g)) for i, g in enumerate(grades)]
    run = [(qid, f"d{i:03d}", float(len(grades) - i)) for i in range(len(grades))]
    return judged(qrels, run)


def synthetic_collection(seed=7, n_topics=60, n_docs=400, depth=150, tie_every=3):
    """Cranfield-shaped synthetic qrels and a run: graded judgements (some topics with
    empty levels), unjudged retrieved documents, tied scores, a topic the run lacks and a
    run topic the qrels lack."""
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    for t in range(1, n_topics + 1):
        qid = str(t)
        docs = rng.choice(n_docs, size=40, replace=False)
        counts = rng.integers(0, 6, size=3)  # levels 1, 2, 3 (0 = empty recall base)
        grades = [1] * counts[0] + [2] * counts[1] + [3] * counts[2]
        grades += [0] * (len(docs) - len(grades))
        judged_docs = rng.permutation(docs)
        qrels += [(qid, f"D{d}", g) for d, g in zip(judged_docs[:len(grades)], grades)
                  if g > 0 or rng.random() < 0.5]
        if t == n_topics:  # the qrels topic the run lacks
            continue
        retrieved = rng.choice(n_docs, size=depth, replace=False)
        grade_of = {f"D{d}": g for d, g in zip(judged_docs, grades)}
        for d in retrieved:
            docno = f"D{d}"
            score = grade_of.get(docno, 0) + rng.normal(0, 1.2)
            run.append((qid, docno, round(score * tie_every) / tie_every))  # many ties
    run += [("999", "D1", 1.0), ("999", "D2", 0.5)]  # a run topic without judgements
    return (pd.DataFrame(qrels, columns=["qid", "docno", "grade"]),
            pd.DataFrame(run, columns=["qid", "docno", "score"]))


def write_trec_run(frame: pd.DataFrame, path, tag="t"):
    """Write a run in file order as given, with a rank column that trec_eval ignores."""
    with open(path, "w") as handle:
        for i, row in enumerate(frame.itertuples(index=False)):
            handle.write(f"{row.qid} Q0 {row.docno} {i + 1} {row.score!r} {tag}\n")


def write_trec_qrels(frame: pd.DataFrame, path, label_column="grade"):
    with open(path, "w") as handle:
        for row in frame.itertuples(index=False):
            handle.write(f"{row.qid} 0 {row.docno} {getattr(row, label_column)}\n")


# The report's former way to the per-request gain vectors (judging the runs against the
# qrels itself), kept as the second path the evaluation's ranked_grades.tsv and
# recall_base.tsv are checked against.
def gain_vectors_of_runs(runs: Mapping, qrels: pd.DataFrame, topics: Sequence[str],
                         profiles: Mapping[str, Sequence[int]], gains: Mapping[int, float],
                         depth: int):
    """Per-request gain vectors ``(requests, depth)`` of each run and of the ideal, per gain
    profile, over ``topics`` in that order (a topic a run did not rank has zero gain).

    ``runs`` maps query type -> :class:`gradedrel.runs.RankedRun`; ``qrels`` has columns
    ``qid, docno, grade``. Returns (curves[profile][type], ideal[profile]).
    """
    from gradedrel.evaluation.measures.cumulated_gain import gain_table, gain_vectors, ideal_vectors
    from gradedrel.evaluation.measures.judgements import Judgements, judge

    judgements = Judgements.from_qrels(qrels, list(topics))
    judged = {name: judge(run, judgements) for name, run in runs.items()}
    curves, ideal = {}, {}
    for name, levels in profiles.items():
        table = gain_table(levels, {int(k): x for k, x in gains.items()})
        ideal[name] = ideal_vectors(judgements.level_counts, table, depth)
        curves[name] = {t: gain_vectors(j, table, depth) for t, j in judged.items()}
    return curves, ideal
