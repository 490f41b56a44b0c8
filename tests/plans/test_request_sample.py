"""The 30 expert requests are what the selection rule, fixed in advance, gives."""
import pandas as pd
import pytest

from study.procedures.request_sample import candidates, seeded_sample

from conftest import ROOT

EXPERT = ROOT / "config" / "expert"


def test_frozen_requests_follow_the_rule():
    frozen = pd.read_csv(EXPERT / "requests.tsv", sep="\t", dtype=str)
    pool = (EXPERT / "candidates.txt").read_text().split()
    assert len(pool) == 142
    assert frozen["qid"].tolist() == seeded_sample(pool, 30, seed=2000)
    second = frozen.loc[frozen["second_curation"] == "1", "qid"].tolist()
    assert second == seeded_sample(frozen["qid"].tolist(), 10, seed=20001)


def test_sample_is_stable_when_candidates_are_added():
    pool = [str(q) for q in range(1, 101)]
    base = seeded_sample(pool, 10, seed=7)
    grown = seeded_sample(pool + ["x1", "x2"], 10, seed=7)
    # a new candidate can only displace others by outranking them, never reshuffle:
    # every original candidate in the new sample was in the old one
    assert set(grown) & set(pool) <= set(base)
    assert len(set(grown) - set(base)) == len(set(base) - set(grown)) <= 2
    with pytest.raises(ValueError, match="cannot sample 11 requests from 10"):
        seeded_sample(pool[:10], 11, seed=1)


def test_candidates_need_expandable_and_judged_at_levels_2_and_3():
    selection = pd.DataFrame({"qid": ["1", "2", "3", "4"], "selected": [1, 1, 0, 1]})
    recall_base = pd.DataFrame({"qid": ["1", "2", "3", "4"], "n_2": [1, 0, 5, 2],
                                "n_3": [1, 4, 5, 0]})
    assert candidates(selection, recall_base) == ["1"]


def _snapshot():
    return pd.read_csv(EXPERT / "selection_snapshot.tsv", sep="\t", comment="#", dtype={"qid": str})


def test_candidates_follow_from_the_frozen_snapshot():
    """The rule, applied to the analysis output it was drawn from, gives the frozen list."""
    snapshot = _snapshot()
    assert len(snapshot) == 225 and int(snapshot["selected"].sum()) == 173
    pool = candidates(snapshot[["qid", "selected"]], snapshot[["qid", "n_2", "n_3"]])
    assert pool == (EXPERT / "candidates.txt").read_text().split()


def test_development_split_is_the_judged_non_candidates():
    snapshot = _snapshot()
    pool = set((EXPERT / "candidates.txt").read_text().split())
    dev = [q for q, n3 in zip(snapshot["qid"], snapshot["n_3"]) if q not in pool and n3 >= 1]
    assert (EXPERT / "dev_requests.txt").read_text().split() == dev
    assert len(dev) == 41 and not pool & set(dev)


def test_curation_batches_follow_the_preregistered_deal():
    from study.procedures.request_sample import deal
    batches = pd.read_csv(EXPERT / "curation_batches.tsv", sep="\t", dtype=str,
                          keep_default_na=False)
    pool = (EXPERT / "candidates.txt").read_text().split()
    assert batches["qid"].tolist() == pool
    frozen = pd.read_csv(EXPERT / "requests.tsv", sep="\t", dtype=str)
    first_a = set(batches.loc[batches["first_curator"] == "A", "qid"])
    assert first_a == set(frozen["qid"])
    new = [q for q in pool if q not in first_a]
    dealt = deal(new, ["C", "D", "E", "F"], seed=2011)
    assert {q: c for q, c in zip(batches["qid"], batches["first_curator"]) if q in dealt} == dealt
    assert sorted(batches.loc[batches["second_curator"] == "G", "qid"], key=int) == \
        seeded_sample(new, 30, seed=2012)
    second_b = frozen.loc[frozen["second_curation"] == "1", "qid"].tolist()
    assert sorted(batches.loc[batches["second_curator"] == "B", "qid"], key=int) == second_b
    # no curator curates a request twice
    assert not (batches["first_curator"] == batches["second_curator"]).any()


def test_every_candidate_has_exactly_one_first_curation():
    from gradedrel.plans import read_plans
    batches = pd.read_csv(EXPERT / "curation_batches.tsv", sep="\t", dtype=str,
                          keep_default_na=False)
    for curator, column in [(c, "first_curator") for c in "ACDEF"] + [("B", "second_curator"),
                                                                     ("G", "second_curator")]:
        plans = read_plans(EXPERT / f"plans_{curator}.yaml")
        assert [p.qid for p in plans] == sorted(batches.loc[batches[column] == curator, "qid"],
                                                key=int), curator


def test_deal_is_balanced_and_seeded():
    from study.procedures.request_sample import deal
    qids = [str(q) for q in range(1, 114)]
    dealt = deal(qids, ["C", "D", "E", "F"], seed=5)
    counts = pd.Series(dealt).value_counts()
    assert counts.max() - counts.min() <= 1 and counts.sum() == 113
    assert deal(qids, ["C", "D", "E", "F"], seed=5) == dealt
    assert deal(qids, ["C", "D", "E", "F"], seed=6) != dealt
