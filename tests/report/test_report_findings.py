"""The findings' statistics and verdict rules on hand-made and paper-like data."""
import pandas as pd
import pytest
from scipy import stats

from gradedrel.report import findings as fnd
from gradedrel.report.findings import Condition, Evidence, verdict
from report_helpers import QTS, paper_like_per_topic, published, report_config


def test_verdict_rule():
    yes, no = Condition("a", True, ""), Condition("b", False, "")
    assert verdict([yes, yes]) == "holds"
    assert verdict([yes, no]) == "holds partly"
    assert verdict([no, no]) == "does not hold"
    with pytest.raises(ValueError):
        verdict([])


def test_friedman_kendall_w_by_hand():
    # Three topics ranking three types identically: chi2_F = 12/(n k (k+1)) sum R^2 - 3n(k+1)
    # = 12/36 * (9 + 36 + 81) - 36 = 6, and W = 6 / (n (k - 1)) = 1.
    m = pd.DataFrame([[0.1, 0.2, 0.3]] * 3, columns=["a", "b", "c"])
    r = fnd.friedman(m)
    assert r.statistic == pytest.approx(6.0) and r.kendall_w == pytest.approx(1.0)
    assert r.p_value == pytest.approx(stats.chi2.sf(6.0, 2))
    assert fnd.friedman(pd.DataFrame([[0.2] * 3] * 4)).p_value == 1.0   # all tied


def test_topic_matrix_reports_incomplete_topics():
    pt = pd.DataFrame([("A", "1", "m", 0.1), ("B", "1", "m", 0.2), ("A", "2", "m", 0.3)],
                      columns=["run", "qid", "measure", "value"])
    matrix, incomplete = fnd.topic_matrix(pt, "m", ["A", "B"])
    assert list(matrix.index) == ["1"] and incomplete == ["2"]


def _evidence(per_topic, pub, effort=None, curves=None):
    avp = {(lv, q): float(per_topic[(per_topic.run == q) &
                                    (per_topic.measure == f"AvP(level={lv})")].value.mean())
           for lv in (1, 2, 3) for q in QTS}
    mats = {lv: fnd.topic_matrix(per_topic, f"AvP(level={lv})", QTS)[0] for lv in (1, 2, 3)}
    return Evidence(avp, mats, effort, curves)


def test_findings_1_to_3_hold_on_data_with_the_papers_means():
    pub, cfg = published(), report_config()
    ev = _evidence(paper_like_per_topic(pub), pub)
    f1 = fnd.finding1(ev, [1, 2, 3], QTS, 0.05, 2.0, 0.1, pub)
    assert f1.verdict == "holds", f1.conditions
    # spread: level 3 41.0 - 22.2 = 18.8 points, level 1 14.3 - 10.1 = 4.2
    assert "18.8 vs 4.2" in f1.conditions[2].numbers
    f2 = fnd.finding2(ev, 3, QTS, cfg["expanded_strong"], "SUM/u", 0.05, "wilcoxon", 0.5, pub)
    assert f2.verdict == "holds" and "ER = 1.00" in f2.conditions[2].numbers
    assert "+58.3 %" in f2.published
    f3 = fnd.finding3(ev, [1, 2, 3], QTS, cfg["weak"], 0.05, "wilcoxon", 0.0, pub)
    assert f3.verdict == "holds" and len(f3.conditions) == 3


def test_findings_fail_where_the_baseline_wins():
    pub, cfg = published(), report_config()
    ev = _evidence(paper_like_per_topic(pub, invert=True), pub)
    f2 = fnd.finding2(ev, 3, QTS, cfg["expanded_strong"], "SUM/u", 0.05, "wilcoxon", 0.5, pub)
    assert f2.verdict == "does not hold"
    f3 = fnd.finding3(ev, [1, 2, 3], QTS, cfg["weak"], 0.05, "wilcoxon", 0.0, pub)
    assert f3.verdict == "does not hold"


def _effort(ranks):
    rows = []
    for spec_id, (profile, kind, base) in {"a": ("3", "CG", 0), "b": ("2+3", "CG", 0),
                                           "c": ("2+3", "DCG", 2)}.items():
        for qt in QTS:
            r = ranks[spec_id][qt]
            rows.append((qt, profile, kind, base, 10, 5.0, r, r is not None))
    frame = pd.DataFrame(rows, columns=["run", "profile", "kind", "base", "k", "ideal_at_k",
                                        "rank_reached", "reached"])
    frame["rank_reached"] = frame["rank_reached"].astype(float)
    return frame


def _curves(strong_minus_weak):
    rows = []
    for qt in QTS:
        for b, adv in strong_minus_weak.items():
            value = 10.0 + (adv if qt in ("SSYN-C/e", "WSYN/e") else 0.0)
            rows.append((qt, "2+3", "DCG", b, 50, value, 20.0))
    return pd.DataFrame(rows, columns=["run", "profile", "kind", "base", "rank", "value",
                                       "ideal"])


def test_finding4_effort_groups_and_dcg_advantage():
    pub, cfg = published(), report_config()
    good = {qt: 30 if qt in ("SSYN-C/e", "WSYN/e") else 60 for qt in QTS}
    bad = dict(good, **{"WSYN/e": None})        # WSYN/e never reaches: the group cannot win
    ev = Evidence({}, {}, _effort({"a": good, "b": good, "c": bad}), _curves({2: 1.0, 10: 3.0}))
    f4 = fnd.finding4(ev, QTS, cfg["expanded_strong"], cfg["weak"], pub)
    assert [c.holds for c in f4.conditions] == [True, True, False, True]
    assert f4.verdict == "holds partly"
    assert "30.0 vs 60.0 (paper 34 vs 62)" in f4.conditions[0].numbers
    assert "not reached" in f4.conditions[2].numbers
    ev = Evidence({}, {}, ev.effort, _curves({2: 3.0, 10: 1.0}))   # advantage shrinks
    assert not fnd.finding4(ev, QTS, cfg["expanded_strong"], cfg["weak"], pub).conditions[3].holds


def test_p_values_can_come_from_the_evaluations_significance_files():
    import synthetic
    cfg = report_config()
    frames = synthetic.evaluate(synthetic.simulate(n_topics=15, seed=2))
    tests = fnd.EvaluationTests(frames["significance_friedman"], frames["significance_posthoc"],
                                frames["significance_vs_baseline"], cfg["significance_columns"])
    ev, left_out = fnd.build_evidence(frames["per_topic"], frames["means"], frames["effort"],
                                      frames["gain_curves"], cfg, tests)
    here, _ = fnd.build_evidence(frames["per_topic"], frames["means"], frames["effort"],
                                 frames["gain_curves"], cfg)
    assert left_out == {1: [], 2: [], 3: []}
    # Friedman: the file's statistic (scipy in the fixture) gives the same W as computed here
    assert ev.friedman(3).kendall_w == pytest.approx(here.friedman(3).kendall_w, rel=1e-5)
    vb = frames["significance_vs_baseline"]
    want = vb[(vb.measure == "AvP(level=3)") & (vb.run == "WSYN/e")]["randomisation_p_adjusted"]
    assert ev.paired_p(3, "WSYN/e", "SUM/u", "evaluation") == float(want.iloc[0])
    ph = frames["significance_posthoc"]
    want = ph[(ph.measure == "AvP(level=2)") & (ph.run_a == "WSYN/u") & (ph.run_b == "WSYN/e")]
    assert ev.paired_p(2, "WSYN/e", "WSYN/u", "evaluation") == float(want["p_adjusted"].iloc[0])
    with pytest.raises(ValueError, match="one test of WSYN/e against NONE"):
        ev.paired_p(2, "WSYN/e", "NONE", "evaluation")


def test_a_level_without_a_friedman_row_cannot_hold():
    import math

    from gradedrel.report.findings import EvaluationTests

    empty = pd.DataFrame(columns=["measure", "statistic", "topics", "p_value"])
    tests = EvaluationTests(empty, empty, empty, {"friedman": "p_value"})
    result = tests.friedman("AvP(level=1)", 6)
    assert math.isnan(result.p_value) and result.topics == 0
    assert not (result.p_value < 0.05)
