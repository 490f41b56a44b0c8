"""nERR@k: a worked example, and topic by topic against pyNTCIREVAL's nERR to 1e-9
(synthetic runs; the fixture workflow's runs)."""
import numpy as np
import pytest

import ntcireval
from gradedrel.evaluation.measures import registry
from gradedrel.evaluation.measures.base import Ranking
from gradedrel.evaluation.measures.nerr import nERR
from gradedrel.evaluation.settings import Settings

from helpers_eval import judged

from test_ntcireval import _check, _fixture_comparison, synthetic_runs


def test_nerr_on_a_worked_example():
    # ranks 1..3: levels 2, unjudged, 3; judged: one 3, one 2, one 1. R = g / (3 + 1)
    qrels = [("1", "a", 2), ("1", "b", 3), ("1", "c", 1)]
    run = [("1", "a", 3.0), ("1", "x", 2.0), ("1", "b", 1.0)]
    judgements, ranked = judged(qrels, run)
    ranking = Ranking(ranked, judgements)
    err = 0.5 + (1 / 3) * 0.75 * (1 - 0.5)           # R: 1/2, 0, 3/4
    ideal = 0.75 + 0.5 * 0.5 * 0.25 + (1 / 3) * 0.25 * 0.25 * 0.5   # ideal R: 3/4, 1/2, 1/4
    assert (nERR @ 3).values(ranking)[0] == pytest.approx(err / ideal, abs=1e-15)
    assert (nERR @ 1).values(ranking)[0] == pytest.approx(0.5 / 0.75, abs=1e-15)
    # Chapelle's own stop probabilities (2^g - 1) / 2^3 through exponential gains
    chapelle = nERR(gains={1: 1, 2: 3, 3: 7}) @ 3
    err = 3 / 8 + (1 / 3) * (7 / 8) * (5 / 8)
    ideal = 7 / 8 + 0.5 * (3 / 8) * (1 / 8) + (1 / 3) * (1 / 8) * (1 / 8) * (5 / 8)
    assert chapelle.values(ranking)[0] == pytest.approx(err / ideal, abs=1e-15)


def test_nerr_names_expansion_and_undefined_requests():
    assert str(nERR @ 20) == "nERR@20"
    assert str(registry.parse("nERR(gains={1:1,2:3,3:7})@5")) == "nERR(gains={1:1,2:3,3:7})@5"
    assert [str(m) for m in registry.expand(["nERR"], Settings(cutoffs=(5, 20)))] == \
        ["nERR@5", "nERR@20"]
    judgements, ranked = judged([("1", "a", 0), ("2", "b", 1)], [("1", "a", 1.0), ("2", "b", 1.0)])
    values = (nERR @ 5).values(Ranking(ranked, judgements))
    assert np.isnan(values[0]) and values[1] == 1.0
    with pytest.raises(ValueError, match="non-decreasing"):
        nERR(gains={1: 3, 2: 2, 3: 1})


def nerr_grid():
    return [nERR(gains=gains) @ k for gains in ({1: 1, 2: 2, 3: 3}, {1: 1, 2: 3, 3: 7},
                                                 {1: 0, 2: 0, 3: 1})
            for k in (1, 3, 10, 20, 100, 150)]


def test_nerr_agrees_with_ntcireval_on_synthetic_runs():
    qrels, runs = synthetic_runs()
    _check(ntcireval.compare(nerr_grid(), runs, qrels, sorted(set(qrels["qid"]), key=int)))


@pytest.mark.workflow
def test_nerr_agrees_with_ntcireval_on_the_fixture_runs(finished_project):
    _check(_fixture_comparison(finished_project, nerr_grid()), undefined_somewhere=False)
