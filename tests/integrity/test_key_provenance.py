"""The decomposition of the primary effect (A4) and the robustness rows (A5), by hand."""
import math

import numpy as np
import pandas as pd
import pytest

from gradedrel.integrity import key_provenance as kp
from gradedrel.report.design import Constants

QIDS = ["1", "2", "3", "4", "5", "6"]
# AvP(level=3) as fractions, per run of each plan set (P = "", its derived sets by suffix)
VALUES = {
    "": {"SUM/u": [.10, .20, .05, .30, .00, .40], "WSYN/u": [.15, .25, .05, .35, .10, .40],
         "WSYN/e": [.40, .30, .20, .50, .10, .45]},
    "request": {"WSYN/e": [.20, .25, .10, .35, .10, .40]},
    "thesaurus": {"WSYN/e": [.30, .35, .10, .45, .00, .40]},
    "no-own": {"WSYN/e": [.35, .30, .15, .45, .05, .45]},
}


def per_topic(runs, qids=QIDS):
    rows = [(run, q, "AvP(level=3)", v) for run, values in runs.items()
            for q, v in zip(qids, values)]
    rows += [(run, q, "AvP(level=2)", 0.5) for run in runs for q in qids]
    return pd.DataFrame(rows, columns=["run", "qid", "measure", "value"])


@pytest.fixture
def frames():
    return {suffix: per_topic(runs) for suffix, runs in VALUES.items()}


def test_the_five_terms_add_up_to_the_primary_effect_request_by_request(frames):
    values = kp.series(frames)
    per_request = kp.decompose(values)
    terms = [t for t, _, _ in kp.TERMS]
    # the terms telescope: each subtracts the series the one before it adds
    assert [b for _, _, b in kp.TERMS] == ["SUM/u(P)"] + [a for _, a, _ in kp.TERMS[:-1]]
    assert kp.TERMS[-1][1] == "WSYN/e(P)"
    primary = np.array(VALUES[""]["WSYN/e"]) - np.array(VALUES[""]["SUM/u"])
    np.testing.assert_allclose(per_request[terms].sum(axis=1).to_numpy(), 100 * primary)
    np.testing.assert_allclose(per_request[kp.PRIMARY].to_numpy(), 100 * primary)
    # request 1 by hand: structure 15-10, request words 20-15, thesaurus 30-20,
    # other concepts 35-30, own keys 40-35
    assert per_request.loc["1", terms].tolist() == pytest.approx([5, 5, 10, 5, 5])
    assert per_request.loc["5", terms].tolist() == pytest.approx([10, 0, -10, 5, 5])
    table = kp.summary(per_request, Constants(resamples=2000)).set_index("term")
    assert table.loc[terms, "mean"].sum() == pytest.approx(table.loc[kp.PRIMARY, "mean"])
    assert table.loc[kp.PRIMARY, "mean"] == pytest.approx(100 * primary.mean())
    assert table.loc["curators' own keys", "mean"] == pytest.approx(
        100 * np.mean(np.array([.40, .30, .20, .50, .10, .45]) - [.35, .30, .15, .45, .05, .45]))
    for term in terms + [kp.PRIMARY]:
        row = table.loc[term]
        assert row["low"] <= row["mean"] <= row["high"]
    statement = kp.own_keys_statement(table.reset_index())
    assert statement.startswith("+3.3 of +15.0 points come from curators' own keys")


def test_runs_over_other_requests_are_an_error(frames):
    frames["thesaurus"] = per_topic(VALUES["thesaurus"], QIDS[:5] + ["7"])
    with pytest.raises(ValueError, match="WSYN/e\\(P-thesaurus\\) is not over"):
        kp.series(frames)
    del frames["thesaurus"]
    with pytest.raises(ValueError, match="no per-topic values of the plan sets \\['thesaurus'\\]"):
        kp.series(frames)


def test_leave_one_out_range_and_most_influential_request():
    d = pd.Series([10.0, 0.0, 2.0, 40.0], index=["a", "b", "c", "d"])
    got = kp.leave_one_out(d)
    # means without a, b, c, d: 42/3, 52/3, 50/3, 12/3; removing d moves the mean most
    assert got["low"] == pytest.approx(4.0) and got["high"] == pytest.approx(52 / 3)
    assert got["most_influential"] == "d" and got["mean_without"] == pytest.approx(4.0)
    assert math.isnan(kp.leave_one_out(d.iloc[:1])["low"])


def test_robustness_rows_per_curator_and_level3_documents(frames):
    differences = {"expert": kp.primary_differences(frames[""])}
    curators = dict(zip(QIDS, "AABBBC"))
    level3 = dict(zip(QIDS, [1, 3, 5, 2, 0, 3]))
    table = kp.robustness(differences, curators, level3, Constants(resamples=2000))
    rows = table.set_index(["row", "group"])
    d = 100 * (np.array(VALUES[""]["WSYN/e"]) - VALUES[""]["SUM/u"])
    assert rows.loc[("all requests", ""), "estimate"] == pytest.approx(d.mean())
    assert rows.loc[("curator", "A"), ["requests", "estimate"]].tolist() == \
        pytest.approx([2, d[:2].mean()])
    assert rows.loc[("curator", "C"), "requests"] == 1
    assert math.isnan(rows.loc[("curator", "C"), "low"])       # one request: no interval
    assert rows.loc[("level-3 documents", "at least 3 level-3 documents"), "estimate"] == \
        pytest.approx(d[[1, 2, 5]].mean())
    assert rows.loc[("level-3 documents", "fewer than 3 level-3 documents"), "requests"] == 3
    loo = rows.loc[("leave one request out", "")]
    assert loo["low"] == pytest.approx(min((d.sum() - x) / 5 for x in d))
    assert loo["note"].startswith("most influential: 1 ")
    with pytest.raises(ValueError, match="no curator"):
        kp.robustness(differences, {}, level3)


def test_tables_render(frames):
    per_request = kp.decompose(kp.series(frames))
    table = kp.decomposition_table(kp.summary(per_request, Constants(resamples=200)), "expert")
    text = table.to_markdown()
    assert "| curators' own keys | WSYN/e(P) − WSYN/e(P-no-own) | 6 | 3.3 |" in text
    assert "add up to the primary effect request by request" in text
