"""The workflow's evaluation rule on the tiny fixture collection (same code as the CLI)."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from conftest import run_snakemake
from gradedrel.cli import main

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "fixtures" / "tiny"
CONFIG = (TINY / "config.yaml").read_text()  # includes a small evaluation section

pytestmark = pytest.mark.workflow


def test_evaluation_rule_writes_the_tables_the_cli_writes(tmp_path):
    shutil.copytree(TINY, tmp_path / "fixture")
    (tmp_path / "config.yaml").write_text(CONFIG)
    target = "results/tiny/evaluation/baseline/BM25/means.tsv"
    result = run_snakemake(tmp_path, target, configfile=tmp_path / "config.yaml")
    assert result.returncode == 0, result.stderr[-3000:]
    out = tmp_path / "results" / "tiny" / "evaluation" / "baseline" / "BM25"
    means = pd.read_csv(out / "means.tsv", sep="\t")
    assert set(means["run"]) == {"BM25"}
    # tiny: topic 3 has no highly relevant document, so AvP(level=3) covers 3 of 4 topics
    assert means.set_index("measure").loc["AvP(level=3)", "topics"] == 3
    gain = pd.read_csv(out / "gain_curves.tsv", sep="\t")
    assert gain["rank"].max() == 100
    # the CLI on the same files gives the same bytes
    qrels = tmp_path / "results" / "tiny" / "qrels.tsv"
    run = tmp_path / "results" / "tiny" / "baseline" / "BM25.run"
    assert main(["evaluate", "--qrels", str(qrels), "--config", str(tmp_path / "config.yaml"),
                 "--standard-measures", "nDCG@10;AP(rel=1);AP(rel=3);P@10",
                 "--out", str(tmp_path / "cli"), f"BM25={run}"]) == 0
    for name in ("per_topic", "means", "pr_curves", "gain_curves", "effort", "coverage"):
        assert (out / f"{name}.tsv").read_bytes() == (tmp_path / "cli" / f"{name}.tsv") \
            .read_bytes(), name
