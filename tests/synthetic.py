"""Simulated rankings and their evaluation files, for the report's tests.

Rankings are simulated per topic and query type (relevant documents score higher, more so
for "stronger" types) as the levels of the ranked documents; :func:`runs_and_qrels` turns
them into run and qrels frames (each ranked level takes the next unused document of that
level), and :func:`evaluate` evaluates those with the package's own evaluation
(:func:`gradedrel.evaluation.evaluate.evaluate`): nothing here computes a measure.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from gradedrel.queries import query_types

QUERY_TYPES = list(query_types.LABELS)
STRENGTH = {"SUM/u": 1.0, "SUM/e": 0.85, "SSYN-C/u": 1.0, "SSYN-C/e": 1.6, "WSYN/u": 1.05,
            "WSYN/e": 1.7}
STANDARD = ("nDCG@10", "AP(rel=1)", "AP(rel=3)", "P@10")  # config's standard measures


def simulate(n_topics=30, depth=100, seed=0, strength=STRENGTH):
    """topic -> (the levels of its documents, query type -> the levels of its ranking)."""
    rng = np.random.default_rng(seed)
    topics = {}
    for t in range(1, n_topics + 1):
        counts = {3: int(rng.integers(0, 6)), 2: int(rng.integers(1, 8)),
                  1: int(rng.integers(0, 8))}
        grades = np.array([3] * counts[3] + [2] * counts[2] + [1] * counts[1] + [0] * 300)
        lists = {}
        for qt in QUERY_TYPES:
            boost = np.where(grades > 0, 1.3 * grades * strength[qt] ** (grades / 4), 0.0)
            score = boost + rng.normal(0, 1.6, len(grades))
            lists[qt] = grades[np.argsort(-score, kind="stable")][:depth]
        topics[str(t)] = (grades, lists)
    return topics


def runs_and_qrels(topics: dict) -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:
    """The qrels (``qid, docno, label, grade``: a topic's documents at level g are
    ``{t}-g{g}-{k}``, its non-relevant ones unjudged) and per query type a run (``qid,
    docno, rank, score``) whose ranked levels are the simulated ones."""
    qrels = []
    for t, (grades, _) in topics.items():
        for g in (1, 2, 3):
            qrels += [(t, f"{t}-g{g}-{k}", g, g) for k in range(int((grades == g).sum()))]
    runs = {}
    for qt in QUERY_TYPES:
        rows = []
        for t, (_, lists) in topics.items():
            used = {0: 0, 1: 0, 2: 0, 3: 0}
            for rank, g in enumerate(lists[qt], start=1):
                docno = f"{t}-g{g}-{used[int(g)]}" if g else f"{t}-n-{used[0]}"
                used[int(g)] += 1
                rows.append((t, docno, rank, float(1000 - rank)))
        runs[qt] = pd.DataFrame(rows, columns=["qid", "docno", "rank", "score"])
    return pd.DataFrame(qrels, columns=["qid", "docno", "label", "grade"]), runs


def evaluate(topics, depth=100, seed=1) -> dict[str, pd.DataFrame]:
    """The evaluation's tables of the simulated runs (the package's evaluation, the config's
    standard measures, no bootstrap table), and simulated query statistics."""
    from gradedrel.evaluation.evaluate import evaluate as evaluate_runs
    from gradedrel.evaluation.measures.judgements import Judgements
    from gradedrel.evaluation.settings import Settings
    from gradedrel.retrieval.runs import rank_frame

    qrels, runs = runs_and_qrels(topics)
    settings = Settings(depth=depth, standard_measures=STANDARD, randomisation_trials=1000)
    tables = evaluate_runs({qt: rank_frame(run) for qt, run in runs.items()},
                           Judgements.from_qrels(qrels, list(topics)), settings,
                           bootstrap=False)
    rng = np.random.default_rng(seed)
    tables["statistics"] = pd.DataFrame(
        [(qid, qt, int(rng.integers(1, 4)), int(rng.integers(2, 6)),
          int(rng.integers(3, 8)) * (3 if qt.endswith("/e") else 1))
         for qid in topics for qt in QUERY_TYPES],
        columns=["qid", "query_type", "facets", "concepts", "keys"])
    return tables


def collection_recall_base(topics: dict, qids: list[str]) -> pd.DataFrame:
    """The collection's ``recall_base.tsv`` (``qid, n_0 … n_3``) over ``qids`` (0 for a
    topic not simulated)."""
    counts = {qid: [int((g == level).sum()) for level in range(4)]
              for qid, (g, _) in topics.items()}
    return pd.DataFrame([(qid, *counts.get(qid, [0, 0, 0, 0])) for qid in qids],
                        columns=["qid", "n_0", "n_1", "n_2", "n_3"])


def write(frames: dict, topics: dict, results: Path, collection: str, model: str,
          all_qids: list[str] | None = None, planset: str = "auto") -> None:
    """Write the evaluation TSVs, query statistics and selected topics where the report
    rules read them for one plan set."""
    from gradedrel.evaluation.files import write_tables

    evaluation = Path(results, collection, "evaluation", planset, model)
    write_tables({k: v for k, v in frames.items() if k != "statistics"}, evaluation)
    statistics = Path(results, collection, "queries", planset, "statistics.tsv")
    statistics.parent.mkdir(parents=True, exist_ok=True)
    frames["statistics"].to_csv(statistics, sep="\t", index=False, lineterminator="\n")
    qids = all_qids or sorted(topics, key=int)
    plans = Path(results, collection, "plans", planset)
    plans.mkdir(parents=True, exist_ok=True)
    pd.DataFrame({"qid": qids, "selected": [q in topics for q in qids],
                  "reason": ["" if q in topics else "synthetic: not simulated" for q in qids]}
                 ).to_csv(plans / "selected_topics.tsv", sep="\t", index=False,
                          lineterminator="\n")


def write_runs(topics: dict, results: Path, collection: str, model: str,
               planset: str = "auto") -> None:
    """Run files, qrels and the plan set's topics of the simulated rankings, where the
    findings rule reads them."""
    from gradedrel.queries.query_types import slug
    from gradedrel.retrieval.runs import write_run

    base = Path(results, collection)
    qrels, runs = runs_and_qrels(topics)
    base.mkdir(parents=True, exist_ok=True)
    qrels.to_csv(base / "qrels.tsv", sep="\t", index=False, lineterminator="\n")
    folder = Path(base, "runs", planset, model)
    folder.mkdir(parents=True, exist_ok=True)
    for qt, run in runs.items():
        write_run(run, folder / f"{slug(qt)}.run", tag="synthetic", topic_order=list(topics))
    plans = Path(base, "plans", planset)
    plans.mkdir(parents=True, exist_ok=True)
    pd.DataFrame({"qid": list(topics), "query": [f"request {t}" for t in topics]}).to_csv(
        plans / "topics.tsv", sep="\t", index=False, lineterminator="\n")
