"""ranked_grades.tsv: written by every evaluation, read back, and the gain and ideal vectors
rebuilt from it and the collection's recall_base.tsv equal to those built from the run files
and the qrels (helpers_eval.gain_vectors_of_runs)."""
import numpy as np
import pandas as pd
import pytest

from gradedrel.collection.testbed import recall_base
from gradedrel.core.errors import InputError
from gradedrel.evaluation.files import evaluate_files
from gradedrel.evaluation.measures import ranked_grades
from gradedrel.evaluation.settings import Settings
from helpers_eval import gain_vectors_of_runs
from gradedrel.retrieval.runs import rank_frame, read_run

from helpers_eval import synthetic_collection, write_trec_run

QUICK = dict(randomisation_trials=100, bootstrap_resamples=100)


def _write_qrels_tsv(qrels: pd.DataFrame, path):
    qrels.assign(label=qrels["grade"])[["qid", "docno", "label", "grade"]].to_csv(
        path, sep="\t", index=False)


def test_hand_worked_rows(tmp_path):
    qrels = pd.DataFrame({"qid": ["1", "1", "1", "1", "2", "3"],
                          "docno": ["a", "b", "c", "d", "a", "z"],
                          "grade": [3, 0, 2, 3, 1, 2]})
    run = pd.DataFrame({"qid": ["1"] * 4 + ["2"] * 2,
                        "docno": ["c", "x", "a", "b", "q", "a"],
                        "score": [4.0, 3.0, 2.0, 1.0, 2.0, 1.0]})
    write_trec_run(run, tmp_path / "r.run")
    evaluate_files({"R": tmp_path / "r.run"}, qrels, Settings(depth=3, cutoffs=(1,), effort_ranks=(1,), **QUICK),
                   tmp_path / "out", bootstrap=False)
    text = (tmp_path / "out" / "ranked_grades.tsv").read_text()
    # topic 1: c (2), x (unjudged: 0), a (3), then b cut at depth 3; topic 2: q, a (1);
    # topic 3: not in the run
    assert text == "run\tqid\tgrades\nR\t1\t203\nR\t2\t01\nR\t3\t\n"
    assert not (tmp_path / "out" / "recall_base.tsv").exists()   # the collection's, once
    ranked = ranked_grades.read(tmp_path / "out" / "ranked_grades.tsv", "ranked_grades")
    assert ranked["grades"].tolist() == ["203", "01", ""]
    linear = np.array([0.0, 1.0, 2.0, 3.0])
    assert ranked_grades.gain_vectors(ranked["grades"], linear, 4).tolist() == \
        [[2, 0, 3, 0], [0, 1, 0, 0], [0, 0, 0, 0]]


def _random_runs(tmp_path, seed):
    """Runs over one synthetic collection: ties, unjudged documents, a topic a run lacks,
    a run topic without judgements, rankings cut short for some topics."""
    qrels, run = synthetic_collection(seed=seed, n_topics=40, depth=120, tie_every=2)
    rng = np.random.default_rng(seed)
    paths = {}
    for i in range(3):
        noisy = run.assign(score=(run["score"] + rng.normal(0, 0.4 * i, len(run))).round(1))
        keep = np.ones(len(noisy), dtype=bool)
        for qid in rng.choice(noisy["qid"].unique(), size=8, replace=False):
            rows = np.flatnonzero(noisy["qid"].to_numpy() == qid)
            keep[rows[int(rng.integers(0, 15)):]] = False  # a short (or empty) ranking
        noisy = noisy[keep]
        if i == 2:
            noisy = noisy[noisy["qid"] != "7"]  # a topic the run lacks
        paths[f"run{i}"] = tmp_path / f"run{i}.run"
        write_trec_run(noisy, paths[f"run{i}"])
    return qrels, paths


@pytest.mark.parametrize("seed, depth, gains", [(3, 100, {1: 1, 2: 2, 3: 3}),
                                                (8, 37, {1: 1, 2: 5, 3: 10})])
def test_vectors_from_the_files_equal_those_from_runs_and_qrels(tmp_path, seed, depth, gains):
    qrels, paths = _random_runs(tmp_path, seed)
    topics = sorted(set(qrels["qid"]) - {"3"}, key=int)[::-1]  # an order of the caller's
    profiles = {"all": (1, 2, 3), "2+3": (2, 3), "3": (3,), "1": (1,)}
    settings = Settings(depth=depth, cutoffs=(10,), gains=gains, profiles=profiles, **QUICK)
    evaluate_files(paths, qrels, settings, tmp_path / "out", topics, bootstrap=False)
    ranked = ranked_grades.read(tmp_path / "out" / "ranked_grades.tsv", "ranked_grades")
    assert ranked["qid"].unique().tolist() == topics
    path = tmp_path / "recall_base.tsv"      # the collection's, over every judged request
    recall_base(qrels, pd.DataFrame({"qid": sorted(set(qrels["qid"]))})).to_csv(
        path, sep="\t", index=False)
    base = ranked_grades.read(path, "recall_base")
    curves, ideal = ranked_grades.vectors_by_profile(ranked, base, profiles, gains, depth)
    runs = {label: read_run(path) for label, path in paths.items()}
    want_curves, want_ideal = gain_vectors_of_runs(runs, qrels, topics, profiles, gains, depth)
    assert set(curves) == set(want_curves) == set(profiles)
    for profile in profiles:
        assert np.array_equal(ideal[profile], want_ideal[profile]), profile
        assert set(curves[profile]) == set(paths)
        for label in paths:
            assert np.array_equal(curves[profile][label], want_curves[profile][label]), \
                (profile, label)
    # the cases the runs were built to hold are there
    lengths = ranked["grades"].str.len()
    assert (lengths == 0).any() and ((lengths > 0) & (lengths < depth)).any()
    assert (lengths == depth).any()


@pytest.mark.parametrize("kind, text, line", [
    ("ranked_grades", "run\tqid\tgrades\nR\t1\t301\nR\t2\t3x1\n", 3),
    ("ranked_grades", "run\tqid\tlevels\nR\t1\t301\n", 1),
    ("recall_base", "qid\tn_0\tn_1\tn_2\tn_3\n1\t0\t1\t2\t2\n2\t0\tx\t2\t2\n", 3),
    ("recall_base", "qid\tn_0\tn_1\tn_2\tn_3\n1\t0\t1\t-1\t2\n", 2),
    ("recall_base", "qid\tlevel\tdocuments\n1\t1\t2\n", 1),
])
def test_a_file_that_is_not_as_written_is_one_error_naming_the_line(tmp_path, kind, text, line):
    path = tmp_path / f"{kind}.tsv"
    path.write_text(text)
    with pytest.raises(InputError) as raised:
        ranked_grades.read(path, kind)
    assert str(raised.value).startswith(f"{path}:{line}: expected")


def test_a_request_missing_from_the_files_is_an_error_not_a_zero():
    ranked = pd.DataFrame({"run": ["R", "R", "S"], "qid": ["1", "2", "1"],
                           "grades": ["3", "", "3"]})
    base = pd.DataFrame({"qid": ["1", "2"], "n_0": 0, "n_1": [0, 1], "n_2": 0, "n_3": [1, 0]})
    with pytest.raises(ValueError, match=r"run 'S' has no rows for requests \['2'\]"):
        ranked_grades.vectors_by_profile(ranked, base, {"all": (1, 2, 3)}, {1: 1, 2: 2, 3: 3}, 5)
    with pytest.raises(ValueError, match=r"recall base: no rows for requests \['2'\]"):
        ranked_grades.vectors_by_profile(ranked, base[:1], {"all": (1, 2, 3)},
                                         {1: 1, 2: 2, 3: 3}, 5)


def test_rank_frame_and_the_file_agree_on_ties(tmp_path):
    """Tied scores: the digits follow trec_eval's order (score, then document id
    descending), as the evaluation's measures do."""
    qrels = pd.DataFrame({"qid": ["1", "1"], "docno": ["a", "b"], "grade": [3, 1]})
    run = pd.DataFrame({"qid": ["1"] * 3, "docno": ["a", "b", "c"], "score": [1.0] * 3})
    write_trec_run(run, tmp_path / "r.run")
    evaluate_files({"R": tmp_path / "r.run"}, qrels, Settings(depth=5, cutoffs=(1,), effort_ranks=(1,), **QUICK),
                   tmp_path / "out", bootstrap=False)
    ranked = ranked_grades.read(tmp_path / "out" / "ranked_grades.tsv", "ranked_grades")
    assert ranked["grades"].tolist() == ["013"]  # c, b, a
    assert rank_frame(run).docno.tolist() == ["c", "b", "a"]
