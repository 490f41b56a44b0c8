"""Check: `evaluate_files` with this code rewrites every evaluation directory of a finished
main job byte-identical (into a temporary directory; the job's results are only read).

For each ``results/{collection}/evaluation/{planset}/{model}/``: the runs its provenance.json
names (in its coverage.tsv's order), the job's graded qrels (``results/{collection}/qrels.tsv``), the plan set's topics
(every judged topic for the baseline) and the config's evaluation settings, as the
workflow's rule ``evaluate_runs`` passes them; every file the job wrote (tables and
provenance.json) but ``bootstrap_ci.tsv`` (not recomputed unless ``--bootstrap``) is compared
byte for byte, and the files this code writes that the job did not are named.

    PYTHONPATH=. .venv/bin/python benchmarks/rewrite_evaluations.py --results results
"""
from __future__ import annotations

import argparse
import filecmp
import json
import os
import sys
import tempfile
from pathlib import Path

import yaml

from gradedrel.collection.readers import read_qrels_tsv
from gradedrel.core.io import read_tsv
from gradedrel.evaluation.files import evaluate_files
from gradedrel.evaluation.settings import Settings

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", default="results", type=Path)
    parser.add_argument("--config", default=ROOT / "config" / "config.yaml", type=Path)
    parser.add_argument("--bootstrap", action="store_true")
    args = parser.parse_args()
    config = yaml.safe_load(args.config.read_text(encoding="utf-8"))
    settings = Settings.from_config(config["evaluation"], config["standard_measures"])
    args.results = args.results.resolve()
    os.chdir(args.results.parent)  # run paths in provenance are relative to it
    dirs = sorted(p.parent for p in args.results.glob("*/evaluation/*/*/provenance.json"))
    different = []
    for folder in dirs:
        collection, planset = folder.parts[-4], folder.parts[-2]
        record = json.loads((folder / "provenance.json").read_text(encoding="utf-8"))
        # the runs in the job's order (coverage.tsv's; provenance.json sorts its keys)
        order = read_tsv(folder / "coverage.tsv")["run"].tolist()
        runs = {label: record["runs"][label]["path"] for label in order}
        topics = None
        if planset != "baseline":
            topics = read_tsv(args.results / collection / "plans" / planset / "topics.tsv")[
                "qid"].tolist()
        qrels_path = args.results / collection / "qrels.tsv"
        with tempfile.TemporaryDirectory() as out:
            evaluate_files(runs, read_qrels_tsv(qrels_path), settings, out, topics,
                           qrels_source=str(qrels_path.relative_to(args.results.parent)),
                           bootstrap=args.bootstrap)
            written = {p.name for p in Path(out).iterdir()}
            names = sorted(n for n in written if (folder / n).exists()
                           and (args.bootstrap or n != "bootstrap_ci.tsv"))
            bad = [n for n in names if not filecmp.cmp(Path(out) / n, folder / n, shallow=False)]
            new = sorted(n for n in written if not (folder / n).exists())
        print(f"{folder.relative_to(args.results)}: {len(names)} files, "
              f"{'identical' if not bad else 'DIFFERENT: ' + ', '.join(bad)}"
              + (f"; new: {', '.join(new)}" if new else ""), flush=True)
        if bad:
            different.append(folder)
    print(f"{len(dirs) - len(different)} of {len(dirs)} directories identical")
    return 1 if different else 0


if __name__ == "__main__":
    sys.exit(main())
