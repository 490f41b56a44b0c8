"""The registries' two additions in the fixture workflow: the WSYN-C query types (a
structure added through the registry) and PL2 (a Terrier weighting model added through the
registry) run from config alone — query files, #syn statistics, runs of every model and the
evaluation with eight query types.

The targets stop at the evaluation: the report stage (gradedrel/report/) still assumes the
paper's six labels (published numbers, findings, figure styles) until its own change lands.

The fixture's 12 documents get 100 unjudged filler documents here: Terrier 5.11 estimates
every phrase's df as N/100 and its frequency as 2N/100, 0 under 100 documents, where PL2
scores a phrase infinite and the grid withholds such rankings
(test_grid.py::test_infinite_scores_are_withheld_with_their_reason); with 112 documents the
estimate is 1 and PL2 ranks every topic.
"""
import json
import shutil

import pandas as pd
import pytest
import yaml

from conftest import TINY, run_snakemake
from gradedrel.queries import query_types

pytestmark = pytest.mark.workflow

LABELS = list(query_types.LABELS) + ["WSYN-C/u", "WSYN-C/e"]
MODELS = ["InQuery", "BM25", "PL2"]


def test_a_new_structure_and_a_new_weighting_model_run_from_config(tmp_path):
    import pyterrier as pt

    from gradedrel.core import terrier

    shutil.copytree(TINY, tmp_path / "fixture")
    with open(tmp_path / "fixture" / "docs.jsonl", "a", encoding="utf-8") as handle:
        for i in range(100):  # words in no request
            handle.write(json.dumps({"docno": f"x{i:03d}",
                                     "text": f"Filler record {i}: ornithopter kite notes."}) + "\n")
    config = yaml.safe_load((TINY / "config.yaml").read_text())
    config["query_types"] = {"labels": LABELS}
    config["retrieval"]["grid"] = MODELS  # PL2 as config/config.yaml declares it
    (tmp_path / "config.yaml").write_text(yaml.safe_dump(config))
    results = tmp_path / "results" / "tiny"
    targets = [f"results/tiny/evaluation/auto/{m}/means.tsv" for m in MODELS]
    targets += ["results/tiny/queries/auto/syn_df_summary.tsv"]
    done = run_snakemake(tmp_path, *targets, configfile=tmp_path / "config.yaml", cores=2)
    assert done.returncode == 0, done.stderr[-3000:]

    queries = results / "queries" / "auto"
    statistics = pd.read_csv(queries / "statistics.tsv", sep="\t", dtype={"qid": str})
    assert list(dict.fromkeys(statistics["query_type"])) == LABELS
    record = json.loads((queries / "WSYN-C-e.jsonl").read_text().splitlines()[0])
    assert record["query_type"] == "WSYN-C/e" and record["tree"]["op"] == "wsum"
    assert record["matchop"].startswith("#combine:0=")
    # syn_statistics read the query types with #syn groups, WSYN-C's among them
    syn = pd.read_csv(queries / "syn_df.tsv", sep="\t", dtype={"qid": str})
    assert set(syn["query_type"]) <= set(query_types.with_synonym_groups(LABELS))

    for model in MODELS:
        runs = results / "runs" / "auto" / model
        not_ranked = pd.read_csv(runs / "not_ranked.tsv", sep="\t", dtype=str)
        assert not_ranked.empty, not_ranked  # every selected topic ranked by every model
        assert sorted(p.name for p in runs.glob("*.run")) == sorted(
            f"{query_types.slug(q)}.run" for q in LABELS)
        means = pd.read_csv(results / "evaluation" / "auto" / model / "means.tsv", sep="\t")
        assert list(dict.fromkeys(means["run"])) == LABELS
        friedman = pd.read_csv(results / "evaluation" / "auto" / model /
                               "significance_friedman.tsv", sep="\t")
        assert set(friedman["runs"]) == {len(LABELS)}  # runs compared: all eight
        vs = pd.read_csv(results / "evaluation" / "auto" / model /
                         "significance_vs_baseline.tsv", sep="\t")
        assert {"WSYN-C/u", "WSYN-C/e"} <= set(vs["run"])
    provenance = json.loads((results / "runs" / "auto" / "PL2" /
                             "WSYN-C-e.provenance.json").read_text())
    assert provenance["parameters"] == {"wmodel": "PL2", "controls": {"c": 1.0},
                                        "properties": {}}
    assert provenance["query_type"] == "WSYN-C/e"

    # the PL2 run is Terrier's PL2 on the query file's MatchOp strings
    terrier.start(**config.get("terrier", {"version": "5.11", "helper_version": "0.0.8"}))
    retriever = pt.terrier.Retriever(terrier.open_index(results / "index"), wmodel="PL2",
                                     controls={"c": "1.0"}, num_results=100)
    run = pd.read_csv(results / "runs" / "auto" / "PL2" / "WSYN-C-e.run", sep=" ",
                      header=None, names=["qid", "q0", "docno", "rank", "score", "tag"],
                      dtype={"qid": str}, comment="#")  # its ir_metadata header
    for line in (queries / "WSYN-C-e.jsonl").read_text().splitlines():
        query = json.loads(line)
        found = retriever.search(query["matchop"]).set_index("docno")["score"]
        ranked = run[run["qid"] == query["qid"]].set_index("docno")["score"]
        assert sorted(ranked.index) == sorted(found.index)
        for docno, score in ranked.items():
            assert score == pytest.approx(found[docno], rel=1e-9)
