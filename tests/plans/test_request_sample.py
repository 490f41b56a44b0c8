"""The 30 expert requests are what the selection rule, fixed in advance, gives."""
import pandas as pd
import pytest

from gradedrel.plans.request_sample import candidates, seeded_sample

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
