"""The workflow's evaluation rule on the tiny fixture collection (same code as the CLI), read
from the finished fixture project (conftest.finished_project: the workflow run once)."""
from pathlib import Path

import pandas as pd
import pytest

from gradedrel.cli import main

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "fixtures" / "tiny"
CONFIG = (TINY / "config.yaml").read_text()  # includes a small evaluation section

pytestmark = pytest.mark.workflow


def test_evaluation_rule_writes_the_tables_the_cli_writes(finished_project, tmp_path):
    """The baseline's evaluation as the workflow wrote it (the finished fixture project) and
    the CLI's on the same files: the same bytes."""
    from gradedrel.collection.readers import read_qrels_tsv

    config = finished_project / "fixture" / "config.yaml"
    assert config.read_text() == CONFIG
    out = finished_project / "results" / "tiny" / "evaluation" / "baseline" / "BM25"
    means = pd.read_csv(out / "means.tsv", sep="\t")
    assert set(means["run"]) == {"BM25"}
    # AvP(level=3) covers only the topics with a highly relevant document (tiny: topic 3 has
    # none)
    qrels = finished_project / "results" / "tiny" / "qrels.tsv"
    judged = read_qrels_tsv(qrels)
    with_level_3 = judged.loc[judged["grade"] == 3, "qid"].nunique()
    assert with_level_3 < judged["qid"].nunique()
    assert means.set_index("measure").loc["AvP(level=3)", "topics"] == with_level_3
    gain = pd.read_csv(out / "gain_curves.tsv", sep="\t")
    assert gain["rank"].max() == 100
    # the CLI on the same files gives the same bytes
    run = finished_project / "results" / "tiny" / "baseline" / "BM25.run"
    assert main(["evaluate", "--qrels", str(qrels), "--config", str(config),
                 "--standard-measures", "nDCG@10;AP(rel=1);AP(rel=3);P@10",
                 "--out", str(tmp_path / "cli"), f"BM25={run}"]) == 0
    for name in ("per_topic", "means", "pr_curves", "gain_curves", "effort", "coverage",
                 "ranked_grades"):
        assert (out / f"{name}.tsv").read_bytes() == (tmp_path / "cli" / f"{name}.tsv") \
            .read_bytes(), name


def test_the_fixture_evaluations_gain_vectors_from_their_files_equal_those_from_the_runs(
        finished_project):
    """ranked_grades.tsv of every fixture evaluation, with the collection's recall_base.tsv,
    rebuilds the gain and ideal vectors of the run files and the qrels."""
    import numpy as np
    import yaml

    from gradedrel.collection.readers import read_qrels_tsv
    from gradedrel.core.io import read_tsv
    from gradedrel.evaluation.measures import ranked_grades
    from gradedrel.queries.query_types import slug
    from helpers_eval import gain_vectors_of_runs
    from gradedrel.retrieval.runs import read_run

    results = finished_project / "results" / "tiny"
    config = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())["evaluation"]
    profiles, depth = config["profiles"], config["depth"]
    gains = {int(k): v for k, v in config["gains"].items()}
    qrels = read_qrels_tsv(results / "qrels.tsv")
    folders = sorted(results.glob("evaluation/*/*/ranked_grades.tsv"))
    assert len(folders) == 3  # the baseline's and the auto plan set's two models
    for path in folders:
        folder = path.parent
        planset = folder.parent.name
        ranked = ranked_grades.read(path, "ranked_grades")
        base = ranked_grades.read(results / "recall_base.tsv", "recall_base")
        topics = ranked["qid"].unique().tolist()
        if planset != "baseline":
            assert topics == read_tsv(results / "plans" / planset / "topics.tsv")["qid"].tolist()
        runs_dir = results / ("baseline" if planset == "baseline" else
                              f"runs/{planset}/{folder.name}")
        labels = ranked["run"].unique().tolist()
        files = {label: runs_dir / f"{label if planset == 'baseline' else slug(label)}.run"
                 for label in labels}
        runs = {label: read_run(file) for label, file in files.items()}
        curves, ideal = ranked_grades.vectors_by_profile(ranked, base, profiles, gains, depth)
        want_curves, want_ideal = gain_vectors_of_runs(runs, qrels, topics, profiles, gains,
                                                       depth)
        for profile in profiles:
            assert np.array_equal(ideal[profile], want_ideal[profile])
            for label in labels:
                assert np.array_equal(curves[profile][label], want_curves[profile][label]), \
                    (folder, profile, label)
