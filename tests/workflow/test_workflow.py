"""The whole workflow on the tiny fixture collection, and its failures on bad input."""
import re

import pandas as pd
import pytest

from conftest import ROOT, run_snakemake

pytestmark = pytest.mark.workflow


def test_fixture_workflow_runs_end_to_end_and_reruns_as_a_no_op(finished_project):
    # finished_project: the whole workflow run once, with a fifth topic whose text is all
    # stopwords and punctuation (counted, reported, not run)
    results = finished_project / "results" / "tiny"
    topics = pd.read_csv(results / "topics.tsv", sep="\t", dtype=str)
    assert topics["qid"].tolist() == ["1", "2", "3", "4", "5"]
    qrels = pd.read_csv(results / "qrels.tsv", sep="\t", dtype={"qid": str})
    assert sorted(qrels["grade"].unique()) == [0, 1, 2, 3]
    run = pd.read_csv(results / "baseline" / "BM25.run", sep=" ", header=None, dtype={0: str},
                      comment="#")  # its ir_metadata header
    assert set(run[0]) == {"1", "2", "3", "4"}
    excluded = pd.read_csv(results / "baseline" / "BM25.excluded.tsv", sep="\t", dtype=str)
    assert excluded.values.tolist() == [
        ["5", "no query terms after tokenisation and stopword removal"]]
    means = pd.read_csv(results / "evaluation" / "baseline" / "BM25" / "means.tsv", sep="\t")
    standard = means[means["measure"].isin(["nDCG@10", "AP(rel=1)", "AP(rel=3)", "P@10"])]
    assert len(standard) == 4
    assert standard["topics"].tolist() == [5] * 4  # the unrunnable topic counts as 0
    assert "documents: 12 (0 empty" in (results / "testbed.md").read_text()
    # the experiment: plans -> the candidate topics -> six query types -> runs -> the
    # selected topics (candidates with a highly relevant document) -> evaluation
    candidates = pd.read_csv(results / "plans" / "auto" / "candidates.tsv", sep="\t",
                             dtype=str, keep_default_na=False)
    runnable = candidates.loc[candidates["candidate"] == "1", "qid"].tolist()
    selected = pd.read_csv(results / "plans" / "auto" / "selected_topics.tsv", sep="\t",
                           dtype=str)
    assert selected.set_index("qid").loc["3", "reason"] == "0 highly relevant document(s) < 1"
    chosen = selected.loc[selected["selected"] == "1", "qid"].tolist()
    assert chosen and "3" not in chosen and "5" not in chosen
    assert set(chosen) < set(runnable) and "3" in runnable  # a judgement edit re-runs no query
    for model in ("InQuery", "BM25"):
        for slug in ("SUM-u", "SUM-e", "SSYN-C-u", "SSYN-C-e", "WSYN-u", "WSYN-e"):
            run = results / "runs" / "auto" / model / f"{slug}.run"
            ranked = set(pd.read_csv(run, sep=" ", header=None, dtype={0: str}, comment="#")[0])
            assert set(chosen) <= ranked <= set(runnable)
        means = pd.read_csv(results / "evaluation" / "auto" / model / "means.tsv", sep="\t")
        assert set(means["run"]) == {"SUM/u", "SUM/e", "SSYN-C/u", "SSYN-C/e", "WSYN/u",
                                     "WSYN/e"}
        assert means["topics"].max() == len(chosen)

    again = run_snakemake(finished_project, "-n", snakefile=finished_project / "Snakefile",
                          configfile=finished_project / "fixture" / "config.yaml")
    assert again.returncode == 0
    assert "Nothing to be done" in again.stdout + again.stderr


def test_bad_qrels_fail_with_file_and_line_and_leave_no_output(tiny_workdir):
    with open(tiny_workdir / "fixture" / "qrels.txt", "a") as handle:
        handle.write("4 0 d09 7\n")
    result = run_snakemake(tiny_workdir, configfile=tiny_workdir / "fixture" / "config.yaml")
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "fixture/qrels.txt:16: expected a relevance label in the grade map" in output
    assert "found '7'" in output
    assert "Traceback" not in output
    results = tiny_workdir / "results" / "tiny"
    assert not (results / "qrels.tsv").exists() and not (results / "topics.tsv").exists()
    assert not list(results.glob("**/*.part"))


def test_duplicate_document_ids_fail_before_any_index_is_left(tiny_workdir):
    with open(tiny_workdir / "fixture" / "docs.jsonl", "a") as handle:
        handle.write('{"docno": "d03", "text": "again"}\n')
    result = run_snakemake(tiny_workdir, configfile=tiny_workdir / "fixture" / "config.yaml")
    assert result.returncode != 0
    assert "docs.jsonl:13: expected a unique document id; first at line 3; found 'd03'" in \
        result.stdout + result.stderr
    assert not (tiny_workdir / "results" / "tiny" / "index").exists()
    assert not list((tiny_workdir / "results" / "tiny").glob(".index.*.part"))


@pytest.mark.parametrize("bad, named", [
    ("baseline:\n  depht: 10\n", "depht"),
    ("index:\n  stemmer: snowball-klingon\n", "snowball-klingon"),
    ("active_collections: [nowhere]\n", "nowhere"),
])
def test_wrong_config_fails_at_start_naming_the_key(tiny_workdir, bad, named):
    import yaml

    from gradedrel.core.config import merge

    config = tiny_workdir / "bad.yaml"
    # laid over the fixture's config (a section given twice in one file is refused as such)
    layered = yaml.safe_load((tiny_workdir / "fixture" / "config.yaml").read_text())
    merge(layered, yaml.safe_load(bad))
    config.write_text(yaml.safe_dump(layered))
    result = run_snakemake(tiny_workdir, "--dry-run", configfile=config)
    assert result.returncode != 0
    assert named in result.stdout + result.stderr
    assert not (tiny_workdir / "results").exists()


def test_snakemake_lint_is_clean(tmp_path):
    """No lint at all (every rule names the project's conda environment; issue 20, item 2)."""
    result = run_snakemake(tmp_path, "--lint")
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "Congratulations, your workflow is in a good condition!" in output, output
    assert not re.findall(r"^\s*\* (.+)$", output, re.M)


def test_every_rule_that_runs_a_script_names_the_one_conda_environment():
    text = {p.name: p.read_text() for p in (ROOT / "workflow" / "rules").glob("*.smk")}
    scripts = sum(t.count("\n    script:\n") for t in text.values())
    condas = sum(t.count("\n    conda:\n        CONDA_ENV\n") for t in text.values())
    assert scripts == condas > 20
    # the environment it names is the generated one (tests/test_setup_environment.py)
    assert (ROOT / "environment.yml").read_text().startswith("# The conda route")
