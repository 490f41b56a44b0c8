"""The workflow's evaluation rule on the tiny fixture collection (same code as the CLI)."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from gradedrel.cli import main

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "tests" / "fixtures" / "tiny"
CONFIG = """\
active_collections: [tiny]
collections:
  tiny:
    docs: fixture/docs.jsonl
    topics: fixture/topics.tsv
    qrels: fixture/qrels.txt
    grade_map: {"1": 3, "2": 3, "3": 2, "4": 1, "-1": 0}
baseline:
  depth: 100
evaluation:
  depth: 10
  cutoffs: [5, 10]
  effort_ranks: [3]
"""

pytestmark = pytest.mark.workflow


def test_evaluation_rule_writes_the_tables_the_cli_writes(tmp_path):
    shutil.copytree(TINY, tmp_path / "fixture")
    (tmp_path / "config.yaml").write_text(CONFIG)
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    # The baseline's evaluation: results/tiny/evaluation/baseline/ (this branch), or
    # .../baseline/BM25/ once the lead's plan-set level is in the rule's output paths.
    layered = "{planset}" in (ROOT / "workflow" / "rules" / "evaluate.smk").read_text()
    out_rel = "results/tiny/evaluation/baseline" + ("/BM25" if layered else "")
    target = f"{out_rel}/means.tsv"
    result = subprocess.run(
        [sys.executable, "-m", "snakemake", target, "-s", str(ROOT / "Snakefile"),
         "--directory", str(tmp_path), "--cores", "1", "--nocolor", "--configfile",
         str(tmp_path / "config.yaml")],
        capture_output=True, text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    out = tmp_path / out_rel
    means = pd.read_csv(out / "means.tsv", sep="\t")
    assert set(means["run"]) == {"BM25"}
    # tiny: topic 3 has no highly relevant document, so AvP(level=3) covers 3 of 4 topics
    assert means.set_index("measure").loc["AvP(level=3)", "topics"] == 3
    gain = pd.read_csv(out / "gain_curves.tsv", sep="\t")
    assert gain["rank"].max() == 10
    # the CLI on the same files gives the same bytes
    qrels = tmp_path / "results" / "tiny" / "qrels.tsv"
    run = tmp_path / "results" / "tiny" / "baseline" / "BM25.run"
    assert main(["evaluate", "--qrels", str(qrels), "--config", str(tmp_path / "config.yaml"),
                 "--standard-measures", "nDCG@10;AP(rel=1);AP(rel=3);P@10",
                 "--out", str(tmp_path / "cli"), f"BM25={run}"]) == 0
    for name in ("per_topic", "means", "pr_curves", "gain_curves", "effort", "coverage"):
        assert (out / f"{name}.tsv").read_bytes() == (tmp_path / "cli" / f"{name}.tsv") \
            .read_bytes(), name
