"""The findings assessed under the pre-registered rules, on constructed data whose verdicts
are known in advance."""
import math
import numpy as np
import pandas as pd
import pytest

from dataclasses import replace

from gradedrel.evaluation import comparisons as ev
from gradedrel.evaluation.measures.effort import RequestCurves, rank_reached
from gradedrel.report import assessment as a
from gradedrel.report import design
from gradedrel.report import verdicts as v
from conftest import ROOT
from helpers_eval import gain_vectors_of_runs

DESIGN = design.load(ROOT / "config" / "design" / "jk2000.yaml")
TYPES = DESIGN.query_types
PAPER = a.Published(
    avp={1: {"SUM/u": 12.8, "SUM/e": 10.1, "SSYN-C/u": 12.4, "SSYN-C/e": 13.3, "WSYN/u": 13.8,
             "WSYN/e": 14.3},
         2: {"SUM/u": 22.4, "SUM/e": 21.1, "SSYN-C/u": 21.5, "SSYN-C/e": 27.4, "WSYN/u": 22.9,
             "WSYN/e": 29.3},
         3: {"SUM/u": 25.9, "SUM/e": 22.2, "SSYN-C/u": 23.5, "SSYN-C/e": 39.1, "WSYN/u": 25.7,
             "WSYN/e": 41.0}},
    effort_ratio={"3": 34 / 62, "2+3": 20 / 26})
FAST = replace(DESIGN, constants=replace(DESIGN.constants, resamples=2000, trials=2000))


def numbers(study, values, effort, findings=None):
    """The evaluation's comparisons.tsv of ``study`` (gradedrel.evaluation.comparisons)."""
    rows = [r for f in (findings or study.findings)
            for r in ev.finding_rows(f, values, effort, study)]
    return pd.DataFrame(rows).reindex(columns=ev.COLUMNS["comparisons"])


def reading_of(curves, k=10):
    """The paper's effort reading as the report reads it from the evaluation's effort.tsv and
    gain_curves.tsv, those tables built here from the curves' means."""
    if curves is None:
        return None
    effort, gain = [], []
    for profile, ideal in curves.ideal.items():
        mean_ideal = ideal.mean(axis=0)
        for run, c in curves.curves[profile].items():
            mean = c.mean(axis=0)
            reached = rank_reached(mean, mean_ideal[k - 1])
            effort.append({"run": run, "profile": profile, "kind": "CG", "base": 0, "k": k,
                           "rank_reached": reached, "reached": reached is not None})
            gain += [{"run": run, "profile": profile, "kind": "CG", "rank": r + 1,
                      "ideal": mean_ideal[r]} for r in range(len(mean))]
    return a.effort_reading(pd.DataFrame(effort), pd.DataFrame(gain))


def assess_finding(f, values, effort, paper, study):
    return a.assess_finding(f, a.numbers_of(numbers(study, values, effort, [f]), f.number),
                            reading_of(effort), paper, study)


def assess(values, effort, paper, study):
    return a.assess(numbers(study, values, effort), reading_of(effort), paper, study)


def finding(number, values=None, effort=None, paper=PAPER, study=FAST):
    return assess_finding(study.finding(number), values or {}, effort, paper, study)


def per_topic(shifts: dict, n=150, seed=0, noise=0.02):
    """Long per-topic AvP table: a common per-request base plus a shift per (level, type)."""
    rng = np.random.default_rng(seed)
    rows = []
    for level in (1, 2, 3):
        base = rng.uniform(0.1, 0.5, size=n)
        for t in TYPES:
            values = np.clip(base + shifts.get((level, t), 0.0) + rng.normal(0, noise, n), 0, 1)
            rows += [{"run": t, "qid": str(q), "measure": f"AvP(level={level})", "value": x}
                     for q, x in enumerate(values)]
    return pd.DataFrame(rows)


def matrices(frame):
    return {f"AvP(level={level})": a.avp_matrix(frame, level, TYPES) for level in (1, 2, 3)}


def test_paper_like_data_give_holds_for_findings_1_to_3():
    shifts = {(3, "SSYN-C/e"): 0.15, (3, "WSYN/e"): 0.15, (2, "SSYN-C/e"): 0.06,
              (2, "WSYN/e"): 0.06, (3, "SUM/e"): -0.04, (2, "SUM/e"): -0.03, (1, "SUM/e"): -0.03}
    avp = matrices(per_topic(shifts))
    rows, verdict, _ = finding(1, avp)
    assert verdict.verdict == v.HOLDS
    rows, verdict, reason = finding(2, avp)
    assert verdict.verdict == v.HOLDS and rows[0]["estimate"] == pytest.approx(15, abs=0.6)
    assert "+15.1" in reason
    rows, verdict, _ = finding(3, avp)
    assert verdict.verdict == v.HOLDS
    assert [r["deciding"] for r in rows] == [True, False, False] + [True] * 6


def test_no_effect_with_many_requests_does_not_hold():
    avp = matrices(per_topic({}, n=300))
    rows, verdict, _ = finding(2, avp)
    assert verdict.verdict == v.DOES_NOT_HOLD
    assert rows[0]["low"] <= 0 <= rows[0]["high"]
    _, verdict, reason = finding(1, avp)
    assert verdict.verdict == v.DOES_NOT_HOLD and "level 1: holds" in reason


def test_noisy_small_sample_is_inconclusive():
    shifts = {(3, "WSYN/e"): 0.07}
    avp = matrices(per_topic(shifts, n=12, noise=0.25, seed=3))
    rows, verdict, _ = finding(2, avp)
    assert verdict.verdict == v.INCONCLUSIVE
    assert rows[0]["mde"] > 15


def test_level1_difference_beyond_the_margin_fails_negligibility():
    avp = matrices(per_topic({(1, "WSYN/u"): 0.12}))
    _, verdict, reason = finding(1, avp)
    assert verdict.verdict == v.DOES_NOT_HOLD and "level 1: does not hold" in reason


def test_holm_is_reported_beside_raw():
    avp = matrices(per_topic({(3, "WSYN/e"): 0.01}, noise=0.1))
    rows, _, _ = finding(2, avp)
    for row in rows:
        assert row["p_holm"] >= row["p_value"]


def gains(n, depth, hits, seed):
    """Gain vectors with a 3 at the given ranks (1-based) for every request."""
    g = np.zeros((n, depth))
    for r in hits:
        g[:, r - 1] = 3
    return g


def test_effort_finding_and_saturation_note():
    n, depth = 20, 100
    ideal = gains(n, depth, [1, 2, 3, 4], 0)              # 4 highly relevant: saturated by 10
    fast = gains(n, depth, [1, 5, 20, 40], 0)               # reaches 50 % (6 of 12) at rank 5
    slow = gains(n, depth, [10, 30, 60, 90], 0)             # reaches 6 at rank 30
    curves = {"3": {"WSYN/e": fast, "SUM/u": slow}, "2+3": {"WSYN/e": fast, "SUM/u": slow}}
    ideals = {"3": ideal, "2+3": ideal}
    # J&K DCG at rank 50, b = 2: hits at 1, 5, 20, 40 vs 10, 30 (60, 90 beyond 50), as the
    # evaluation's per_topic.tsv would hold them
    d = np.log(np.arange(1, 101)) / np.log(2)
    d[0] = 1
    fast_dcg = sum(3 / d[r - 1] for r in (1, 5, 20, 40))
    slow_dcg = sum(3 / d[r - 1] for r in (10, 30))
    dcg = pd.DataFrame({"WSYN/e": np.full(n, fast_dcg), "SUM/u": np.full(n, slow_dcg)})
    values = {m: dcg for m in FAST.measures() if m.startswith("JK_DCG")}
    rows, verdict, reason = finding(4, values, RequestCurves.from_gains(curves, ideals))
    effort = rows[0]
    assert effort["estimate"] == pytest.approx(5 / 30)
    assert effort["ranks"] == "5 vs 30"
    assert verdict.verdict == v.HOLDS           # identical requests: a degenerate interval
    assert "not measurable" in reason
    dcg_row = [r for r in rows if r["measure"].startswith("JK_DCG(b=2")][0]
    assert dcg_row["estimate"] == pytest.approx(fast_dcg - slow_dcg)
    assert dcg_row["part"] == "DCG advantage at rank 50 (reported)"
    assert dcg_row["size"] == f"{(fast_dcg - slow_dcg) / slow_dcg:+.1%} relative"


def test_assess_tables():
    avp = matrices(per_topic({}, n=40))
    g = gains(40, 100, [3, 8], 0)
    curves = {p: {"WSYN/e": g, "SUM/u": g} for p in ("3", "2+3")}
    dcg = pd.DataFrame({"WSYN/e": np.ones(len(g)), "SUM/u": np.ones(len(g))})
    avp.update({m: dcg for m in FAST.measures() if m.startswith("JK_DCG")})
    effort = RequestCurves.from_gains(curves, {"3": g, "2+3": g})
    comparisons, findings = assess(avp, effort, PAPER, FAST)
    assert list(findings["finding"]) == [1, 2, 3, 4]
    verdicts = {v.HOLDS, v.DOES_NOT_HOLD, v.INCONCLUSIVE}
    assert set(findings["verdict"].str.split(" \\(").str[0]) <= verdicts
    assert list(comparisons.columns[:len(a.COMPARISON_COLUMNS)]) == a.COMPARISON_COLUMNS


def test_gain_vectors_of_runs_by_hand():
    from gradedrel.retrieval.runs import rank_frame
    run = rank_frame(pd.DataFrame({"qid": ["1", "1", "1", "2"], "docno": ["a", "b", "c", "x"],
                                   "score": [3.0, 2.0, 1.0, 1.0]}))
    qrels = pd.DataFrame({"qid": ["1", "1", "1", "2", "3"], "docno": ["a", "c", "d", "y", "z"],
                          "grade": [3, 1, 2, 3, 2]})
    curves, ideal = gain_vectors_of_runs({"WSYN/e": run}, qrels, ["1", "2", "3"],
                                           {"3": [3], "2+3": [2, 3]}, {1: 1, 2: 2, 3: 3}, 4)
    assert curves["3"]["WSYN/e"].tolist() == [[3, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    assert curves["2+3"]["WSYN/e"].tolist() == [[3, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    assert ideal["2+3"].tolist() == [[3, 2, 0, 0], [3, 0, 0, 0], [2, 0, 0, 0]]
    assert ideal["3"].tolist() == [[3, 0, 0, 0], [3, 0, 0, 0], [0, 0, 0, 0]]


def test_published_from_the_reference_file():
    from conftest import ROOT
    from gradedrel.report.published import load
    paper = a.published_from(load(ROOT / "config" / "published" / "jk2000.yaml"))
    assert paper.difference("WSYN/e", "SUM/u", 3) == pytest.approx(15.1)
    assert paper.spread(3) == pytest.approx(18.8)
    assert paper.effort_ratio == pytest.approx({"3": 34 / 62, "2+3": 20 / 26})


def test_markdown_and_summary():
    avp = matrices(per_topic({(3, "WSYN/e"): 0.15}, n=60))
    g = gains(60, 100, [3, 8], 0)
    curves = {p: {"WSYN/e": g, "SUM/u": g} for p in ("3", "2+3")}
    dcg = pd.DataFrame({"WSYN/e": np.ones(len(g)), "SUM/u": np.ones(len(g))})
    avp.update({m: dcg for m in FAST.measures() if m.startswith("JK_DCG")})
    effort = RequestCurves.from_gains(curves, {"3": g, "2+3": g})
    comparisons, findings = assess(avp, effort, PAPER, FAST)
    text = a.comparisons_markdown(comparisons)
    assert text.count("\n") == len(comparisons) + 2
    assert "| 2 | primary | WSYN/e - SUM/u |" in text
    rows = a.summary_rows("cranfield", "expert", "InQuery", comparisons, findings, FAST)
    assert [r["finding"] for r in rows] == [1, 2, 3, 4]
    assert float(rows[1]["effect"]) == pytest.approx(15, abs=1) and rows[1]["verdict"].startswith("holds")
    assert rows[2]["effect"].endswith("hold")


def test_a_query_type_the_paper_did_not_run_is_compared_without_a_verdict():
    seventh = replace(FAST, query_types=TYPES + ("BOOL/e",),
                      findings=(replace(FAST.finding(2), comparisons=(
                          replace(FAST.finding(2).headline, first="BOOL/e"),)),))
    shifts = {(3, "BOOL/e"): 0.2}
    frame = per_topic(shifts)
    rows = [{"run": "BOOL/e", "qid": r["qid"], "measure": r["measure"], "value": r["value"] + 0.2}
            for r in frame[frame["run"] == "WSYN/e"].to_dict("records")]
    frame = pd.concat([frame, pd.DataFrame(rows)], ignore_index=True)
    avp = {f"AvP(level={level})": a.avp_matrix(frame, level, seventh.query_types)
           for level in (1, 2, 3)}
    found, verdict, _ = assess_finding(seventh.finding(2), avp, None, PAPER, seventh)
    assert found[0]["comparison"] == "BOOL/e - SUM/u" and found[0]["estimate"] > 15
    assert np.isnan(found[0]["published"]) and found[0]["verdict"] == ""
    assert verdict.verdict == ""   # nothing published to compare with


def test_the_design_file_decides_the_constants_and_the_rows():
    wide = replace(FAST, constants=replace(FAST.constants, margin=50.0))
    avp = matrices(per_topic({(1, "WSYN/u"): 0.12}))
    assert finding(1, avp)[1].verdict == v.DOES_NOT_HOLD      # 12 points beyond ±5
    _, verdict, reason = finding(1, avp, study=wide)
    assert "level 1: holds" in reason                          # within ±50


def test_what_the_primary_rests_on_with_and_without_the_decomposition():
    """The summary's paragraph: with the own-keys statement where the effect is decomposed
    (Amendment 1), else the pointer to Amendment 2's primary in the headline (fresh testbed)."""
    summary = pd.DataFrame(
        [[2, "c", "P", "InQuery", 7.6, 3.4, 12.1, 151, "holds", 15.1, 0.001, ""],
         [2, "c", "P-thesaurus", "InQuery", 2.3, -1.3, 5.9, 151, "does not hold", 15.1, 0.2,
          ""]], columns=a.SUMMARY_COLUMNS)
    decomposed = a.rests_on(summary, "P", "P-thesaurus", "InQuery", "+1.0 of +7.6 points")
    assert "Amendment 1)" in decomposed and "+1.0 of +7.6 points (`key_sources.md`)" in decomposed
    fresh = a.rests_on(summary, "P", "P-thesaurus", "InQuery")
    assert "Amendments 1 and 2" in fresh and "key_sources.md" not in fresh
    assert "with every key of the P plans it holds, +7.6 points, 95 % CI [+3.4, +12.1]" in fresh
    assert "(P-thesaurus) it does not hold, +2.3 points" in fresh
    assert "results/report/headline/" in fresh
    assert a.rests_on(summary, "P", "missing", "InQuery") == ""


def test_one_comparison_has_one_p_in_the_evaluation_and_the_findings():
    """The evaluation's test against the baseline (significance_vs_baseline.tsv) and the
    findings' row of the same pair take the topics in the same order, so the randomisation
    test draws the same sign flips for them: one p (issue 31, item 3). The topics here are
    in an order that is not the text order the findings use (qrels order: 10, 2, 1, ...)."""
    from gradedrel.evaluation.measures.judgements import Judgements
    from gradedrel.evaluation.settings import Settings
    from gradedrel.evaluation.tables import RunResult, significance_tables
    from gradedrel.report.assessment import avp_matrix
    from gradedrel.report.design import Constants

    rng = np.random.default_rng(7)
    topics = ["10", "2", "1", "33", "4", "25", "7", "100", "8", "19", "3", "50"]
    qrels = pd.DataFrame({"qid": topics, "docno": "d", "grade": 3})
    judgements = Judgements.from_qrels(qrels, topics)
    values = {run: rng.random(len(topics)) for run in ("SUM/u", "WSYN/e")}
    values["WSYN/e"] += 0.08
    measure = "AvP(level=3)"
    results = [RunResult(run, {measure: v}, [], {}, {}, [], {}, [], {}, [])
               for run, v in values.items()]
    settings = Settings(levels=(3,), randomisation_trials=2000, seed=5)
    vs = significance_tables(results, judgements, settings)["significance_vs_baseline"]
    per_topic = pd.DataFrame([(run, q, v[i], measure) for run, v in values.items()
                              for i, q in enumerate(topics)],
                             columns=["run", "qid", "value", "measure"])
    matrix = avp_matrix(per_topic, 3, ["SUM/u", "WSYN/e"])
    row = ev.paired(matrix["WSYN/e"], matrix["SUM/u"], Constants(trials=2000, seed=5))
    assert vs.loc[0, "randomisation_p_value"] == row["p_value"]
    assert 0 < row["p_value"] < 1


def test_the_test_of_record_gives_each_row_its_p_and_the_caption_says_which():
    """The design's test of record decides whose p a paired row reports (a comparison may
    name its own); a spread's p is Friedman's; the verdicts' caption is written from them."""
    from scipy import stats

    avp = matrices(per_topic({(3, "WSYN/e"): 0.05}, n=40))
    first = FAST.finding(2)
    wilcoxon = replace(first, comparisons=(replace(first.headline, test_of_record="wilcoxon"),
                                           *first.comparisons[1:]))
    study = replace(FAST, findings=(FAST.finding(1), wilcoxon))
    rows, _, _ = assess_finding(wilcoxon, avp, None, PAPER, study)
    m = avp["AvP(level=3)"]
    assert rows[0]["p_value"] == pytest.approx(stats.wilcoxon(m["WSYN/e"], m["SUM/u"]).pvalue)
    assert rows[1]["test_of_record"] == "randomisation"
    comparisons, findings = assess(avp, None, PAPER, study)
    assert set(comparisons["test_of_record"]) == {"randomisation", "wilcoxon", "friedman"}
    caption = a.verdicts_markdown("Verdicts", comparisons, findings)
    assert ("p = two-sided paired randomisation test or two-sided Wilcoxon signed-rank test "
            "(Friedman for the level-3 spread)") in caption


def test_a_printed_interval_shows_the_signs_of_its_bounds():
    """Amendment 3, C2: +0.03, not +0.0; a bound that is zero stays +0.0."""
    from gradedrel.report.assessment import fmt_ci, interval_digits

    assert fmt_ci(0.03, 9.3) == "[+0.03, +9.30]"
    assert fmt_ci(-0.004, 5.0) == "[-0.004, +5.000]"
    assert fmt_ci(-4.2, 6.9) == "[-4.2, +6.9]"
    assert fmt_ci(0.0, 5.0) == "[+0.0, +5.0]"
    assert fmt_ci(0.004, 1.0, 2, False) == "[0.004, 1.000]"
    assert interval_digits(float("nan"), 1.0) == 1
    # a verdict that needs the lower bound above zero can read it: never printed as zero
    for low in (0.04, 0.0049, 0.00051, -0.04):
        shown = fmt_ci(low, 10.0)
        assert float(shown[1:].split(",")[0]) != 0.0


def test_the_papers_effort_reading_is_read_from_effort_tsv_by_hand():
    """The paper's reading (reach the mean ideal CG at rank k) is the evaluation's effort.tsv
    row at k; not measurable where the mean ideal at k is already the saturation share of
    its value at the last rank (gain_curves.tsv's ideal)."""
    def tables(ideal, reached):
        effort = pd.DataFrame([{"run": run, "profile": "3", "kind": kind, "k": 1,
                                "rank_reached": rank, "reached": rank is not None}
                               for run, rank in reached.items() for kind in ("CG", "DCG")])
        gain = pd.DataFrame([{"run": run, "profile": "3", "kind": "CG", "rank": r + 1,
                              "ideal": x} for run in reached for r, x in enumerate(ideal)])
        return a.effort_reading(effort, gain)

    # the ideal reaches its whole gain at rank 1: saturated at any share
    saturated = tables([3.0, 3.0, 3.0, 3.0], {"a": 1, "b": 3})("3", "a", "b", 1, 0.95)
    assert saturated == ("profile 3: the paper's effort reading is not measurable (the mean "
                         "ideal CG at rank 1 is 100% of its value at rank 4)")
    # an ideal of 3 then 1: at rank 1 it is 3/4 of its end; b never reaches it
    read = tables([3.0, 4.0, 4.0, 4.0], {"a": 2, "b": None})
    assert read("3", "a", "b", 1, 0.95) == ("profile 3: the paper's effort reading (reach the "
                                           "ideal's CG at rank 1): a 2, b not reached by 4")
    assert "not measurable" in read("3", "a", "b", 1, 0.75)
    assert "not measurable" not in read("3", "a", "b", 1, 0.76)
