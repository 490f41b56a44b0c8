"""Whole-pipeline benchmark: wall time of the workflow's cold main job and of a no-op
re-run, against one plain PyTerrier script (benchmarks/plain_pyterrier.py) doing index +
18 runs + pt.Experiment in one process. Goal: cold pipeline within 2x of the script.

Run on demand, on an otherwise idle machine (after installation: Terrier jars cached):
    IR_DATASETS_HOME=/tmp/idh .venv/bin/python benchmarks/pipeline.py --repeat 3
Each repetition copies the committed tree (git archive HEAD) to a fresh directory, so the
cold run starts with no results/, figures/ or .snakemake/. Results: median seconds and
ratios, printed as a Markdown table for benchmarks/README.md.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(cmd, cwd, env) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"failed ({done.returncode}): {' '.join(map(str, cmd))}\n"
                         f"{done.stderr[-3000:]}")
    return seconds


def fresh_tree(tmp: Path) -> Path:
    tree = tmp / "tree"
    tree.mkdir()
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    if (ROOT / ".data").is_dir():  # local copies of downloads (the thesaurus), as CI seeds them
        subprocess.run(["cp", "-r", str(ROOT / ".data"), str(tree / ".data")], check=True)
    return tree


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--config", nargs="*", default=[],
                        help="extra snakemake --config items (e.g. to restrict the grid)")
    parser.add_argument("--configfile", default=None,
                        help="an extra config file (e.g. benchmarks/one_plan_set.yaml: the "
                             "automatic plan set only, the peer's 18 runs)")
    args = parser.parse_args()
    python = sys.executable
    snakemake = str(Path(python).with_name("snakemake"))
    times = {"cold pipeline": [], "no-op re-run": [], "plain PyTerrier script": []}
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as tmp:
            tree = fresh_tree(Path(tmp))
            env = dict(os.environ, PYTHONPATH=str(tree))
            cmd = [snakemake, "--cores", str(args.cores)]
            if args.config:
                cmd += ["--config", *args.config]
            if args.configfile:
                cmd += ["--configfile", str(Path(args.configfile).resolve())]
            times["cold pipeline"].append(timed(cmd, tree, env))
            times["no-op re-run"].append(timed(cmd, tree, env))
            times["plain PyTerrier script"].append(
                timed([python, str(tree / "benchmarks" / "plain_pyterrier.py")], tree, env))
    median = {k: statistics.median(v) for k, v in times.items()}
    peer = median["plain PyTerrier script"]
    print("| job | median s | runs | ratio to plain script |")
    print("|---|---:|---:|---:|")
    for name, value in median.items():
        print(f"| {name} | {value:.1f} | {len(times[name])} | {value / peer:.2f} |")
    print(json.dumps({k: [round(x, 2) for x in v] for k, v in times.items()}), file=sys.stderr)


if __name__ == "__main__":
    main()
