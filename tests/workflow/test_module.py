"""The workflow used as a Snakemake module (issue 20, item 1; docs/module.md): deployed in
another directory with its own config, as snakedeploy and the workflow catalog's
standardized usage do, it plans the study and runs jobs there, finding its schema, its
default config, its scripts and its package beside its own files."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import ROOT, TINY, planned_rules, run_snakemake

pytestmark = pytest.mark.workflow

USING = '''configfile: "config/config.yaml"


module gradedrel:
    snakefile:
        "{snakefile}"
    config:
        config


use rule * from gradedrel
'''


def _deploy(where: Path) -> Path:
    """A using workflow: its own Snakefile, config/ and data, nothing of the project copied."""
    where.mkdir()
    shutil.copytree(TINY, where / "fixture")
    (where / "config").mkdir()
    shutil.copy(TINY / "config.yaml", where / "config" / "config.yaml")
    (where / "Snakefile").write_text(USING.format(snakefile=ROOT / "workflow" / "Snakefile"))
    return where


def test_the_module_plans_the_whole_study_in_another_directory(tmp_path):
    project = _deploy(tmp_path / "deployed")
    result = run_snakemake(project, "-n", snakefile=project / "Snakefile")
    planned = planned_rules(result)
    # the default target is the study's (rule all's inputs): every stage is planned
    assert {"thesaurus_read", "index_collection", "plan_requests", "retrieve", "evaluate_runs",
            "report_findings", "report_figures", "report_summary",
            "reproduce"} <= planned, sorted(planned)
    # the fixture's models only (its config over the project's defaults): their files (no
    # job has a model wildcard left in the fixture: each plan set's jobs do every model)
    assert "/InQuery/" in result.stdout and "/BM25/" in result.stdout
    assert "DirichletLM" not in result.stdout


def test_a_module_job_runs_and_writes_in_the_using_directory(tmp_path):
    project = _deploy(tmp_path / "deployed")
    done = run_snakemake(project, "results/tiny/qrels.tsv", snakefile=project / "Snakefile",
                         cores=2)
    assert done.returncode == 0, done.stderr[-3000:]
    assert (project / "results" / "tiny" / "qrels.tsv").read_text().startswith("qid\t")
    assert (project / "results" / "logs" / "tiny" / "prepare_topics_qrels.log").exists()


def test_a_wrong_value_in_the_using_config_is_the_schema_line(tmp_path):
    project = _deploy(tmp_path / "deployed")
    with open(project / "config" / "config.yaml", "a") as handle:
        handle.write("evaluation_typo: 1\n")
    result = run_snakemake(project, "-n", snakefile=project / "Snakefile")
    assert result.returncode != 0
    assert "evaluation_typo" in result.stderr
    assert not (project / "results").exists()
