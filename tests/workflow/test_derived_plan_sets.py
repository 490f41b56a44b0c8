"""Derived plan sets on the fixture workflow (docs/preregistration.md, Amendment 1, A2): a
plan set defined as another with only some source classes of keys runs through queries,
retrieval, evaluation, findings and the summary like any plan set, and costs no index,
thesaurus read, plan analysis or key classification job of its own."""
import json
from pathlib import Path

import pandas as pd
import pytest
import yaml

from conftest import copy_project, planned_rules, run_snakemake

pytestmark = pytest.mark.workflow

DERIVED = {"collections": {"tiny": {"plan_sets": {
    "auto": {},
    "auto-request": {"derived_from": "auto", "keep": ["request"],
                     "description": "the automatic plans with the request's own words only"}}}}}


def _keys(path: Path) -> dict[str, set[tuple[str, ...]]]:
    """Each topic's search keys (token tuples) in a query file's trees."""
    def walk(node):
        if node.get("op") == "key":
            yield tuple(node["tokens"])
        for child in node.get("children", []):
            yield from walk(child)
    out = {}
    for line in path.read_text().splitlines():
        record = json.loads(line)
        out[record["qid"]] = set(walk(record["tree"])) if record.get("tree") else set()
    return out


def _configs(project: Path) -> list[Path]:
    (project / "derived.yaml").write_text(yaml.safe_dump(DERIVED))
    return [project / "fixture" / "config.yaml", project / "derived.yaml"]


def test_a_derived_plan_set_adds_no_index_thesaurus_or_analysis_job(finished_project, tmp_path):
    project = copy_project(finished_project, tmp_path / "p")
    planned = planned_rules(run_snakemake(project, "-n", snakefile=project / "Snakefile",
                                          configfile=_configs(project)))
    assert "derive_plan_set" in planned and "retrieve" in planned
    assert not planned & {"index_collection", "index_arrays", "thesaurus_read",
                          "plan_requests", "merge_curated_plans",
                          "syn_statistics", "report_figures"}


def test_a_derived_plan_set_runs_the_whole_chain_on_fewer_keys(finished_project, tmp_path):
    project = copy_project(finished_project, tmp_path / "p")
    done = run_snakemake(project, snakefile=project / "Snakefile", cores=2,
                         configfile=_configs(project))
    assert done.returncode == 0, done.stderr[-3000:]
    results = project / "results" / "tiny"
    parent = pd.read_csv(results / "plans" / "auto" / "key_sources.tsv", sep="\t", dtype=str,
                         keep_default_na=False)
    derived = pd.read_csv(results / "plans" / "auto-request" / "key_sources.tsv", sep="\t",
                          dtype=str, keep_default_na=False)
    assert set(derived["source_class"]) == {"request"}
    assert len(derived) == (parent["source_class"] == "request").sum() < len(parent)
    # the same requests: the parent's candidates, and the same selected topics
    assert (results / "plans" / "auto-request" / "candidates.tsv").read_bytes() == \
        (results / "plans" / "auto" / "candidates.tsv").read_bytes()
    assert (results / "plans" / "auto-request" / "topics.tsv").read_bytes() == \
        (results / "plans" / "auto" / "topics.tsv").read_bytes()
    # its unexpanded queries are the parent's; its expanded ones hold a subset of the
    # parent's keys, fewer in all (an expansion key whose words are all the request's, e.g.
    # 'aeroelasticity' for 'aeroelastic' under stemming, is of class request and stays)
    queries, parents = results / "queries" / "auto-request", results / "queries" / "auto"
    assert (queries / "SUM-u.jsonl").read_bytes() == (parents / "SUM-u.jsonl").read_bytes()
    kept, before = _keys(queries / "SUM-e.jsonl"), _keys(parents / "SUM-e.jsonl")
    assert kept.keys() == before.keys()
    assert all(kept[q] <= before[q] for q in kept)
    assert sum(map(len, kept.values())) < sum(map(len, before.values()))
    for model in ("InQuery", "BM25"):
        means = pd.read_csv(results / "evaluation" / "auto-request" / model / "means.tsv",
                            sep="\t")
        assert len(set(means["run"])) == 6
        assert (results / "report" / "auto-request" / model / "findings.md").exists()
        assert not (project / "figures" / "tiny" / "auto-request").exists()  # no figures
    summary = pd.read_csv(results / "report" / "summary.tsv", sep="\t", dtype=str)
    assert {"auto", "auto-request"} == set(summary["plan_set"])
