"""Benchmark: the paper's stratified evaluation from TREC files vs pytrec_eval, side by side.

Shape (issue 3): 6 runs x 225 topics x 1000 documents, Cranfield-like graded qrels.
Ours: read the qrels (with a grade map) and the six run files strictly, rank them as
trec_eval does, and compute AvP and interpolated P-R at levels 1-3 (both readings),
CG and DCG (b = 2, 10) to rank 100 for three gain profiles with ideals, nCG/nDCG,
effort, today's nDCG@10, and the tidy tables (no significance tests or bootstrap).
Peers, in the same process and run:
  A. pytrec_eval from files: parse qrels + runs, map + ndcg + P_10  (the goal: ratio <= 1);
  B. pytrec_eval in memory: AP at relevance levels 1, 2, 3 + ndcg_cut at 1..100.
The full `evaluate` (with Friedman, post-hoc, paired tests, bootstrap) is timed too.

    PYTHONPATH=. python benchmarks/evaluation.py [--repeats 5]
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytrec_eval

from gradedrel.evaluation.evaluate import evaluate, evaluate_runs
from gradedrel.evaluation.files import read_runs
from gradedrel.evaluation.settings import Settings
from gradedrel.evaluation.tables import tidy_tables
from gradedrel.collection.grades import GradeMap
from gradedrel.evaluation.measures.judgements import Judgements
from gradedrel.collection.readers import read_qrels

RUNS, TOPICS, DEPTH, DOCS = 6, 225, 1000, 1400
GRADE_MAP = {"1": 3, "2": 3, "3": 2, "4": 1, "-1": 0}
RAW = {3: "1", 2: "3", 1: "4", 0: "-1"}


def make_data(folder: Path, seed: int = 0) -> tuple[Path, list[Path]]:
    """Synthetic graded qrels (~8 judged per topic, as Cranfield) and six runs."""
    rng = np.random.default_rng(seed)
    grade_of = []
    with open(folder / "qrels.txt", "w") as handle:
        for t in range(1, TOPICS + 1):
            docs = rng.choice(DOCS, size=int(rng.integers(3, 15)), replace=False) + 1
            grades = rng.choice([0, 1, 2, 3], size=len(docs), p=[0.15, 0.2, 0.4, 0.25])
            grade_of.append(dict(zip(docs.tolist(), grades.tolist())))
            handle.writelines(f"{t} 0 {d} {RAW[g]}\n" for d, g in zip(docs, grades))
    runs = []
    for r in range(RUNS):
        path = folder / f"run{r}.run"
        lines = []
        for t in range(1, TOPICS + 1):
            docs = rng.choice(DOCS, size=DEPTH, replace=False) + 1
            boost = np.array([grade_of[t - 1].get(d, 0) for d in docs.tolist()], float)
            scores = np.round(boost * (0.5 + 0.1 * r) + rng.normal(0, 1, DEPTH), 4)
            order = np.argsort(-scores, kind="stable")
            lines += [f"{t} Q0 {docs[i]} {k + 1} {scores[i]} run{r}\n"
                      for k, i in enumerate(order)]
        path.write_text("".join(lines))
        runs.append(path)
    return folder / "qrels.txt", runs


def ours(qrels_path, run_paths, settings):
    qrels = read_qrels(qrels_path, GradeMap.from_config(GRADE_MAP))
    judgements = Judgements.from_qrels(qrels)
    runs = read_runs({p.stem: p for p in run_paths})
    results = evaluate_runs(runs, judgements, settings)
    return tidy_tables(results, judgements)


def ours_full(qrels_path, run_paths, settings):
    qrels = read_qrels(qrels_path, GradeMap.from_config(GRADE_MAP))
    return evaluate(read_runs({p.stem: p for p in run_paths}), Judgements.from_qrels(qrels),
                    settings)


def peer_files(qrels_path, run_paths):
    with open(qrels_path) as handle:
        qrels = pytrec_eval.parse_qrel(handle)
    qrels = {q: {d: int(GRADE_MAP[str(int(v))]) for d, v in docs.items()}
             for q, docs in qrels.items()}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"map", "ndcg", "P_10"})
    out = []
    for path in run_paths:
        with open(path) as handle:
            out.append(evaluator.evaluate(pytrec_eval.parse_run(handle)))
    return out


def peer_memory(qrels, runs):
    cuts = "ndcg_cut." + ",".join(str(k) for k in range(1, 101))
    evaluators = [pytrec_eval.RelevanceEvaluator(qrels, {"map"}, relevance_level=level)
                  for level in (1, 2, 3)]
    evaluators.append(pytrec_eval.RelevanceEvaluator(qrels, {cuts}))
    return [e.evaluate(run) for run in runs for e in evaluators]


def timed(function, *args, repeats=5):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function(*args)
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    settings = Settings(baseline_run="run0")
    with tempfile.TemporaryDirectory() as tmp:
        qrels_path, run_paths = make_data(Path(tmp))
        with open(qrels_path) as handle:
            raw = pytrec_eval.parse_qrel(handle)
        mem_qrels = {q: {d: int(GRADE_MAP[str(int(v))]) for d, v in docs.items()}
                     for q, docs in raw.items()}
        mem_runs = []
        for path in run_paths:
            with open(path) as handle:
                mem_runs.append(pytrec_eval.parse_run(handle))
        ours(qrels_path, run_paths, settings)  # warm-up (imports, caches)
        peer_files(qrels_path, run_paths)
        rows = []
        # interleaved, so that load on the shared machine hits all sides alike
        results = {"ours": [], "A": [], "B": [], "full": []}
        for _ in range(args.repeats):
            results["ours"].append(timed(ours, qrels_path, run_paths, settings, repeats=1)[0])
            results["A"].append(timed(peer_files, qrels_path, run_paths, repeats=1)[0])
            results["B"].append(timed(peer_memory, mem_qrels, mem_runs, repeats=1)[0])
        results["full"].append(timed(ours_full, qrels_path, run_paths, settings, repeats=1)[0])
        median = {k: statistics.median(v) for k, v in results.items()}
        rows = [
            ("ours: stratified evaluation from files (no significance)", median["ours"]),
            ("A. pytrec_eval from files: map + ndcg + P@10", median["A"]),
            ("B. pytrec_eval in memory: AP at 3 levels + nDCG@1..100", median["B"]),
            ("ours, full evaluate (+ significance, bootstrap), once", median["full"]),
        ]
    print(f"{RUNS} runs x {TOPICS} topics x {DEPTH} documents; median of {args.repeats}\n")
    print("| what | seconds |\n|---|---:|")
    for name, seconds in rows:
        print(f"| {name} | {seconds:.3f} |")
    print(f"\nratio ours / A = {median['ours'] / median['A']:.2f}; "
          f"ours / B = {median['ours'] / median['B']:.2f}")


if __name__ == "__main__":
    main()
