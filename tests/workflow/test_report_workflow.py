"""The report rules end to end on the evaluation files of simulated runs: two clean runs in two
directories give byte-identical tables, findings and figures; a re-run does nothing."""
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml
from gradedrel.study_outputs import collection_rule

import synthetic
from conftest import run_snakemake

ROOT = Path(__file__).resolve().parents[2]
# the report jobs and the numbers they read beside the evaluation (issue 44); the comparisons
# are one job per collection, a rule named for it
RULES = ["report_findings", "report_figures",
         collection_rule("evaluate_comparisons", "cranfield"), "evaluate_difference_bands"]
#: Cranfield's plan sets: its comparisons job reads the evaluation of each
PLAN_SETS = list(yaml.safe_load((ROOT / "config" / "config.yaml").read_text(encoding="utf-8"))
                 ["collections"]["cranfield"]["plan_sets"])
TABLES = ["avp", "testbed", "effort", "standard_measures", "significance_friedman",
          "significance_posthoc", "significance_vs_baseline", "reproduction"]


def _targets(base: Path) -> list[str]:
    report = base / "results" / "cranfield" / "report" / "auto" / "InQuery"
    figures = base / "figures" / "cranfield" / "auto" / "InQuery"
    return ([str(report / "findings.md")] + [str(report / "tables" / f"{t}.csv") for t in TABLES]
            + [str(figures / f"{n}.png") for n in ("pr_levels", "cg", "diff_cg")])


def _run(base: Path, dry: bool = False, extra: str = "") -> str:
    # run in `base`, never in the checkout (no .snakemake/ written there)
    args = (["-n"] if dry else []) + [
        "--config", f"results_dir={base / 'results'}",
        # one report model: the findings job of a plan set reads each report model's
        # evaluation, and the simulated evaluation is InQuery's
        f'report={{"figures_dir": "{base / "figures"}", "curves": ["JK_CG"], '
        f'"difference_curves": ["JK_CG"], "models": ["InQuery"]{extra}}}',
        "--allowed-rules", *RULES, "--"] + _targets(base)
    done = run_snakemake(base, *args, cores=2)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout + done.stderr


def _inputs(base: Path, frames, topics) -> None:
    results = base / "results" / "cranfield"
    results.mkdir(parents=True)
    qids = [str(q) for q in range(1, 41)]
    synthetic.collection_recall_base(topics, qids).to_csv(
        results / "recall_base.tsv", sep="\t", index=False, lineterminator="\n")
    for plan_set in PLAN_SETS:  # the same simulated evaluation for each
        synthetic.write(frames, topics, base / "results", "cranfield", "InQuery", qids, plan_set)
    synthetic.write_runs(topics, base / "results", "cranfield", "InQuery")


@pytest.mark.workflow
def test_two_clean_runs_are_byte_identical(tmp_path):
    topics = synthetic.simulate(n_topics=20, seed=5)
    frames = synthetic.evaluate(topics)
    runs = [tmp_path / "a", tmp_path / "b"]
    for base in runs:
        _inputs(base, frames, topics)
        _run(base)
    for target_a, target_b in zip(_targets(runs[0]), _targets(runs[1])):
        for ext in ((".csv", ".md", ".tex", ".html") if "/tables/" in target_a
                    else (".md", ".html") if target_a.endswith("findings.md")
                    else (".png", ".pdf")):
            a = Path(target_a).with_suffix(ext).read_bytes()
            b = Path(target_b).with_suffix(ext).read_bytes()
            assert a == b, Path(target_a).with_suffix(ext).name
    findings = Path(_targets(runs[0])[0]).read_text()
    assert "## Verdicts" in findings and "How our setting differs" in findings
    assert findings.count("| primary | WSYN/e - SUM/u |") == 1
    testbed = pd.read_csv(Path(_targets(runs[0])[2]).with_name("testbed.csv"))
    assert testbed.loc[0, "ours"] == 20 and testbed.loc[0, "paper"] == 30   # selected topics
    assert "Nothing to be done" in _run(runs[0], dry=True)
    # a new figure style re-runs the figure job and nothing else
    plan = _run(runs[0], dry=True, extra=', "figures": {"ideal": {"linestyle": "--"}}')
    planned = {line[len("rule "):].rstrip(":") for line in plan.splitlines()
               if line.startswith("rule ")}
    assert planned == {"report_figures"}
