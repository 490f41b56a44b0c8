"""The retrieval rules end to end on the tiny fixture: the plan set's queries compiled, then
2 models x 6 query types, provenance, not_ranked.tsv, and byte-identical outputs when run
again."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml

from gradedrel import plans
from gradedrel.queries.query_files import SLUGS
from tiny_index import FIXTURES, index_dir

from conftest import run_snakemake
from tests.stand_in import topic_keys

pytestmark = pytest.mark.workflow
ROOT = Path(__file__).resolve().parents[2]
RULES = ["terrier_fetch", "index_collection", "index_arrays", "retrieve"]


def write_plans(topics, path, is_stopword):
    """Plans of the topics' keys (a major facet of each two consecutive keys, a concept of
    each key); a topic without keys has none."""
    written = []
    for qid, text in zip(topics["qid"], topics["query"]):
        keys = topic_keys(text, is_stopword)
        facets = [plans.Facet(f"f{i}", "major", [plans.PlanConcept(k, keys=[plans.PlanKey(k)])
                                                 for k in keys[i:i + 2]])
                  for i in range(0, len(keys), 2)]
        if facets:
            written.append(plans.Plan(str(qid), text, facets))
    plans.write_plans(written, path)


def snakemake(workdir, config, targets):
    # --allowed-rules: the plans are given here, whichever rule makes them elsewhere
    return run_snakemake(workdir, "--configfile", str(config), "--allowed-rules", *RULES,
                         "--", *targets)


def test_retrieve_rules_write_every_cell_with_provenance_and_reasons(tmp_path):
    from gradedrel.core import terrier

    fixture = tmp_path / "fixture"
    shutil.copytree(FIXTURES / "tiny", fixture)
    with open(fixture / "topics.tsv", "a") as handle:  # no search key: no query of any type
        handle.write("5\twhat are the ... of it?\n")
    with open(fixture / "qrels.txt", "a") as handle:  # judged, so the topic stays in topics.tsv
        handle.write("5 0 d01 2\n")
    config = {"active_collections": ["tiny"],
              "collections": {"tiny": {"docs": "fixture/docs.jsonl", "topics": "fixture/topics.tsv",
                                       "qrels": "fixture/qrels.txt",
                                       "grade_map": {"1": 3, "2": 3, "3": 2, "4": 1, "-1": 0}}},
              "retrieval": {"grid": ["InQuery", "BM25"]}}
    (tmp_path / "config.yaml").write_text(yaml.safe_dump(config))
    pipeline = terrier.term_pipeline(index_dir("tiny", str(tmp_path / "scratch")))
    topics = pd.read_csv(fixture / "topics.tsv", sep="\t", dtype=str)
    # the plan set's plans and candidate topics (all five here), as merge_curated_plans
    # would write them
    (tmp_path / "results/tiny/plans/auto").mkdir(parents=True)
    write_plans(topics, tmp_path / "results/tiny/plans/auto/plans.yaml",
                lambda t: pipeline(t) is None)
    topics[["qid"]].assign(candidate=1, reason="").to_csv(
        tmp_path / "results/tiny/plans/auto/candidates.tsv", sep="\t", index=False)
    runs = tmp_path / "results/tiny/runs/auto"
    targets = [f"results/tiny/runs/auto/{m}/not_ranked.tsv" for m in ("InQuery", "BM25")]

    first = snakemake(tmp_path, tmp_path / "config.yaml", targets)
    assert first.returncode == 0, first.stderr[-3000:]
    outputs = sorted(p.relative_to(runs).as_posix() for p in runs.rglob("*") if p.is_file())
    assert outputs == sorted([f"{m}/{s}{ext}" for m in ("InQuery", "BM25") for s in SLUGS
                              for ext in (".run", ".run.ir-metadata.yaml", ".provenance.json")]
                             + ["BM25/not_ranked.tsv", "InQuery/not_ranked.tsv"])
    # each run six columns and nothing else (its ir_metadata record beside it), tagged by
    # plan set, model and query type
    run = pd.read_csv(runs / "InQuery/WSYN-e.run", sep=" ", header=None, dtype=str)
    assert run.shape[1] == 6 and not run[0].str.startswith("#").any()
    assert sorted(set(run[0])) == ["1", "2", "3", "4"] and set(run[5]) == {"auto-InQuery-WSYN-e"}
    not_ranked = pd.read_csv(runs / "BM25/not_ranked.tsv", sep="\t", dtype=str)
    assert not_ranked["qid"].tolist() == ["5"] * 6
    assert set(not_ranked["reason"]) == {"no query for the topic in the query file"}
    record = json.loads((runs / "BM25/SSYN-C-e.provenance.json").read_text())
    assert record["query_type"] == "SSYN-C/e" and record["parameters"]["wmodel"] == "BM25"
    assert record["versions"]["terrier"].startswith("5.11")
    assert (record["topics"], record["ranked"], record["not_ranked"]) == (5, 4, 1)
    assert len(record["config_hash"]) == 16

    # the same job compiled the queries: a query file per type for the four topics with
    # keys, their statistics; their record covers its folder only, a run's its run and
    # record and the topics not ranked
    queries = tmp_path / "results/tiny/queries/auto"
    assert sorted(p.name for p in queries.iterdir()) == sorted(
        [f"{s}.jsonl" for s in SLUGS]
        + ["excluded.tsv", "provenance.json", "statistics.tsv", "statistics_means.tsv"])
    assert [json.loads(line)["qid"] for line in (queries / "WSYN-e.jsonl").open()] == \
        ["1", "2", "3", "4"]
    compiled = json.loads((queries / "provenance.json").read_text())
    assert compiled["step"] == "compile_queries"
    assert {Path(o["path"]).parent for o in compiled["outputs"]} == \
        {queries.relative_to(tmp_path)}
    assert [o["path"] for o in record["outputs"]] == [
        f"results/tiny/runs/auto/{m}" for m in ("BM25/SSYN-C-e.run",
                                                 "BM25/SSYN-C-e.run.ir-metadata.yaml",
                                                 "BM25/not_ranked.tsv",
                                                 "InQuery/not_ranked.tsv")]
    assert record["query_file_sha256"] == next(
        o["sha256"] for o in compiled["outputs"] if o["path"].endswith("/SSYN-C-e.jsonl"))

    made = [*runs.rglob("*"), *queries.rglob("*")]
    before = {p: p.read_bytes() for p in made if p.is_file()}
    shutil.rmtree(runs)
    again = snakemake(tmp_path, tmp_path / "config.yaml", targets)
    assert again.returncode == 0, again.stderr[-3000:]
    assert {p: p.read_bytes() for p in made if p.is_file()} == before
