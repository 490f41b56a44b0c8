"""Benchmark: `gradedrel evaluate` as a whole process (what a user waits for) against a
pytrec_eval script computing the same standard measures from the same files (nDCG@10, AP at
relevance levels 1 and 3, P@10: two evaluators, one per level), and both in process.

Data: the six runs of one plan set and model of a finished main job (default: Cranfield,
the automatic plan set, InQuery) and the workflow's graded qrels, written once as a TREC
qrels file (levels 0-3 as labels) restricted to the plan set's topics, so that both sides
read the same two kinds of file and evaluate the same topics (the runs copied without their
ir_metadata comment block, which pytrec_eval's parser does not read). Ours runs with the
workflow's evaluation settings (`--config config/config.yaml`: stratified AvP and P-R at
three levels, CG/DCG curves, effort, four standard measures, Friedman, post-hoc and paired
tests against SUM/u), as `gradedrel evaluate` does by default: without the bootstrap table
(`--bootstrap`; timed once besides); and the same with `--no-significance` (no tests, no
SciPy). The three commands alternate, `--repeats` times (paired runs); the median wall time
of each is reported, with the ratio ours / pytrec_eval, and the median CPU time (user +
system, from the kernel's accounting of the child process), the steadier figure on a shared
machine. Both run with bytecode caching on (``PYTHONDONTWRITEBYTECODE``
unset), as after an install.

The in-process figure: the same evaluation (`evaluation.files.evaluate_files`) and the
same pytrec_eval work timed inside one warm process (imports excluded), wall and CPU.
The floor: the CPU of a process that only imports the libraries ours must use
(``LIBRARIES``; without the tests ``LIBRARIES_NO_TESTS``), against which no change to our
own code can go.

Before timing, ours' tables are compared byte for byte with the main job's.

    PYTHONPATH=. .venv/bin/python benchmarks/evaluate_process.py --results results --repeats 9
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUERY_TYPES = ["SUM/u", "SUM/e", "SSYN-C/u", "SSYN-C/e", "WSYN/u", "WSYN/e"]

PEER = """\
import sys
import pytrec_eval
with open(sys.argv[1]) as handle:
    qrels = pytrec_eval.parse_qrel(handle)
# nDCG@10, AP(rel=1) and P@10 at relevance level 1; AP(rel=3) at level 3 (as ir_measures asks)
evaluators = [pytrec_eval.RelevanceEvaluator(qrels, {"map", "ndcg_cut_10", "P_10"}),
              pytrec_eval.RelevanceEvaluator(qrels, {"map"}, relevance_level=3)]
for path in sys.argv[2:]:
    with open(path) as handle:
        run = pytrec_eval.parse_run(handle)
    for evaluator in evaluators:
        evaluator.evaluate(run)
"""

#: The libraries the command must load (significance, TSVs, standard measures, the config's
#: schema): a process that only imports them is the floor of ours' whole-process CPU.
LIBRARIES_NO_TESTS = "import pandas, ir_measures, pytrec_eval, jsonschema, yaml"
LIBRARIES = LIBRARIES_NO_TESTS.replace("import ", "import scipy.stats, ")


def prepare(results: Path, collection: str, plan_set: str, model: str, folder: Path):
    """The TREC qrels of the plan set's topics, and the run files by label."""
    import pandas as pd

    topics = pd.read_csv(results / collection / "plans" / plan_set / "topics.tsv", sep="\t",
                         dtype=str, keep_default_na=False)["qid"]
    qrels = pd.read_csv(results / collection / "qrels.tsv", sep="\t", dtype=str,
                        keep_default_na=False)
    qrels = qrels[qrels["qid"].isin(set(topics))]
    path = folder / "qrels.txt"
    path.write_text("".join(f"{q} 0 {d} {g}\n" for q, d, g in
                            zip(qrels["qid"], qrels["docno"], qrels["grade"])))
    runs_dir = results / collection / "runs" / plan_set / model
    runs = {}
    for label in QUERY_TYPES:
        # runs of results written before issue 43 open with an ir_metadata block of '#'
        # lines, which pytrec_eval's parse_run does not read: both sides get the same
        # copies without it (a plain run is copied as it is)
        name = f"{label.replace('/', '-')}.run"
        with open(runs_dir / name, encoding="utf-8") as source:
            (folder / name).write_text("".join(line for line in source
                                               if not line.startswith("#")))
        runs[label] = folder / name
    return path, runs


def timed(command: list[str], env: dict) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system) of one run of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"failed: {' '.join(command)}\n{done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu


def in_process(qrels_path: Path, runs: dict, config: Path, out: Path, repeats: int):
    """Median wall and CPU seconds of ours (evaluate_files, no bootstrap) and of the
    pytrec_eval work, both in this process after a warm-up."""
    import pytrec_eval
    import yaml

    from gradedrel.cli import parse_grade_map
    from gradedrel.collection.readers import read_qrels
    from gradedrel.evaluation.files import evaluate_files
    from gradedrel.evaluation.settings import Settings

    with open(config, encoding="utf-8") as handle:
        cfg = yaml.safe_load(handle)
    settings = Settings.from_config(cfg["evaluation"], cfg.get("standard_measures") or [])

    def ours():
        evaluate_files(runs, read_qrels(str(qrels_path), parse_grade_map(None)), settings, out,
                       bootstrap=False)

    def peer():
        with open(qrels_path) as handle:
            qrels = pytrec_eval.parse_qrel(handle)
        evaluators = [pytrec_eval.RelevanceEvaluator(qrels, {"map", "ndcg_cut_10", "P_10"}),
                      pytrec_eval.RelevanceEvaluator(qrels, {"map"}, relevance_level=3)]
        for path in runs.values():
            with open(path) as handle:
                run = pytrec_eval.parse_run(handle)
            for evaluator in evaluators:
                evaluator.evaluate(run)

    ours(), peer()
    times = {"ours": [], "peer": [], "ours CPU": [], "peer CPU": []}
    for _ in range(repeats):
        for name, function in (("ours", ours), ("peer", peer)):
            start, cpu = time.perf_counter(), time.process_time()
            function()
            times[name].append(time.perf_counter() - start)
            times[f"{name} CPU"].append(time.process_time() - cpu)
    return {k: statistics.median(v) for k, v in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", default="results", type=Path)
    parser.add_argument("--collection", default="cranfield")
    parser.add_argument("--plan-set", default="auto")
    parser.add_argument("--model", default="InQuery")
    parser.add_argument("--config", default=ROOT / "config" / "config.yaml", type=Path)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    # bytecode cached, as after an install (pip compiles; site-packages, where pytrec_eval
    # lives, has it): with PYTHONDONTWRITEBYTECODE set, our modules alone would be
    # compiled from source on every run (~0.05 s)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    python = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        qrels, runs = prepare(args.results, args.collection, args.plan_set, args.model, tmp)
        (tmp / "peer.py").write_text(PEER)
        labelled = [f"{label}={path}" for label, path in runs.items()]
        ours = [python, "-m", "gradedrel", "evaluate", "--qrels", str(qrels), "--config",
                str(args.config), "--out", str(tmp / "out")] + labelled
        peer = [python, str(tmp / "peer.py"), str(qrels)] + [str(p) for p in runs.values()]
        # the same tables as the main job's, byte for byte (bootstrap_ci included)
        timed(ours + ["--bootstrap"], env)
        expected = args.results / args.collection / "evaluation" / args.plan_set / args.model
        differ = [p.name for p in sorted((tmp / "out").glob("*.tsv"))
                  if p.read_bytes() != (expected / p.name).read_bytes()]
        print(f"tables byte-identical to {expected}: "
              f"{'yes' if not differ else 'NO: ' + ', '.join(differ)}")
        with_bootstrap = timed(ours + ["--bootstrap"], env)[0]
        commands = {"ours": ours, "ours, no tests": ours + ["--no-significance"], "peer": peer}
        times = {name: [] for name in commands}
        cpu = {name: [] for name in commands}
        load_before = os.getloadavg()[0]
        for _ in range(args.repeats):
            for name, command in commands.items():
                wall, used = timed(command, env)
                times[name].append(wall)
                cpu[name].append(used)
        median = {k: statistics.median(v) for k, v in times.items()}
        median_cpu = {k: statistics.median(v) for k, v in cpu.items()}
        floor, floor_no_tests = (statistics.median(timed([python, "-c", libraries], env)[1]
                                                   for _ in range(args.repeats))
                                 for libraries in (LIBRARIES, LIBRARIES_NO_TESTS))
        inside = in_process(qrels, runs, args.config, tmp / "inside", args.repeats)
    print(f"{args.collection}, plan set {args.plan_set}, {args.model}: 6 runs; "
          f"median of {args.repeats}; load average {load_before:.1f} before the paired runs, "
          f"{os.getloadavg()[0]:.1f} at the end\n")
    print("| what | seconds |\n|---|---:|")
    print(f"| ours, whole process: `gradedrel evaluate` (with significance tests) | "
          f"{median['ours']:.2f} |")
    print(f"| ours, whole process: `gradedrel evaluate --no-significance` | "
          f"{median['ours, no tests']:.2f} |")
    print(f"| pytrec_eval, whole process: nDCG@10, AP at rel 1 and 3, P@10 | "
          f"{median['peer']:.2f} |")
    print(f"| ours, whole process, CPU (user + system) | {median_cpu['ours']:.2f} |")
    print(f"| ours, whole process, no tests, CPU | {median_cpu['ours, no tests']:.2f} |")
    print(f"| pytrec_eval, whole process, CPU (user + system) | {median_cpu['peer']:.2f} |")
    print(f"| ours, whole process with `--bootstrap` (once) | {with_bootstrap:.2f} |")
    print(f"| importing the libraries ours needs, CPU (`{LIBRARIES}`) | {floor:.2f} |")
    print(f"| … without the tests' (`{LIBRARIES_NO_TESTS}`) | {floor_no_tests:.2f} |")
    print(f"| ours, in process (`evaluate_files`, imports excluded) | {inside['ours']:.2f} |")
    print(f"| pytrec_eval, in process | {inside['peer']:.2f} |")
    print(f"| ours, in process, CPU | {inside['ours CPU']:.2f} |")
    print(f"| pytrec_eval, in process, CPU | {inside['peer CPU']:.2f} |")
    print(f"\nwhole process: ratio ours / pytrec_eval = {median['ours'] / median['peer']:.2f} "
          f"(each run: ours {', '.join(f'{t:.2f}' for t in times['ours'])}; "
          f"pytrec_eval {', '.join(f'{t:.2f}' for t in times['peer'])})")
    print(f"whole process, CPU time: ratio = {median_cpu['ours'] / median_cpu['peer']:.2f}")
    print(f"whole process without tests: ratio = "
          f"{median['ours, no tests'] / median['peer']:.2f} wall, "
          f"{median_cpu['ours, no tests'] / median_cpu['peer']:.2f} CPU")
    print(f"in process: ratio = {inside['ours'] / inside['peer']:.2f}, CPU "
          f"{inside['ours CPU'] / inside['peer CPU']:.2f}")
    print(f"library imports alone / pytrec_eval's whole process, CPU = "
          f"{floor / median_cpu['peer']:.2f} ({floor_no_tests / median_cpu['peer']:.2f} "
          f"without the tests')")


if __name__ == "__main__":
    main()
