"""The paper's measures through ir_measures and pt.Experiment, beside nDCG@10."""
import re
import warnings

import ir_measures
import numpy as np
import pandas as pd
import pytest

from gradedrel.core.errors import InputError
from gradedrel.evaluation.evaluate import evaluate
from gradedrel.evaluation.settings import Settings
from gradedrel.evaluation.measures import irm
from gradedrel.evaluation.measures.judgements import Judgements
from gradedrel.retrieval.runs import rank_frame

from gradedrel import irm as irm_command
from gradedrel.evaluation.measures.registry import families

from helpers_eval import synthetic_collection, write_trec_qrels, write_trec_run

MEASURES = ["AvP(level=3)", "AvP(level=2,reading='atleast')", "JK_CG(profile='2+3')@10",
            "JK_DCG(b=10,profile='3')@50", "JK_nDCG(b=2,profile='all')@10",
            "JK_nCG(profile='3')@100", "nDCG_log2(gain='exp')@10"]


@pytest.fixture(scope="module")
def case():
    qrels, run = synthetic_collection(seed=21)
    settings = Settings(significance_measures=("AvP(level=3)",), bootstrap_resamples=100,
                        randomisation_trials=100)
    tables = evaluate({"r": rank_frame(run)}, Judgements.from_qrels(qrels), settings)
    means = tables["means"].set_index("measure")
    q = pd.DataFrame({"query_id": qrels["qid"], "doc_id": qrels["docno"],
                      "relevance": qrels["grade"]})
    r = pd.DataFrame({"query_id": run["qid"], "doc_id": run["docno"], "score": run["score"]})
    return qrels, run, means, q, r


def test_calc_aggregate_gives_the_evaluation_means(case):
    _, _, means, q, r = case
    measures = [irm.parse(m) for m in MEASURES]
    with pytest.warns(irm.UndefinedTopicsWarning):  # AvP(level=3) lacks 12 topics, …
        result = ir_measures.calc_aggregate(measures + [ir_measures.nDCG @ 10], q, r)
    for name, measure in zip(MEASURES, measures):
        assert result[measure] == pytest.approx(means.loc[name, "mean"], abs=1e-12), name
    assert result[ir_measures.nDCG @ 10] == pytest.approx(
        means.loc["nDCG_log2(gain='linear')@10", "mean"], abs=1e-9)


def test_undefined_topics_are_nan_per_topic_with_a_warning_and_left_out_of_the_mean(case):
    qrels, _, means, q, r = case
    with pytest.warns(irm.UndefinedTopicsWarning, match=r"AvP\(level=3\) is undefined for 12 "
                      r"of 60 topics \(no document is judged exactly 3\)"):
        values = {m.query_id: m.value
                  for m in ir_measures.iter_calc([irm.parse("AvP(level=3)")], q, r)}
    with_base = set(qrels.loc[qrels["grade"] == 3, "qid"])
    assert {k for k, v in values.items() if not np.isnan(v)} == with_base
    assert len(values) - len(with_base) == 12
    assert means.loc["AvP(level=3)", "topics"] == len(with_base)


def test_calc_and_iter_calc_give_the_evaluation_values_topic_by_topic(case):
    qrels, run, _, q, r = case
    settings = Settings(measures=tuple(MEASURES), significance_measures=("AvP(level=3)",))
    tables = evaluate({"r": rank_frame(run)}, Judgements.from_qrels(qrels), settings,
                      bootstrap=False)
    rows = {(t.qid, t.measure): t.value for t in tables["per_topic"].itertuples()}
    means = tables["means"].set_index("measure")
    measures = [irm.parse(m) for m in MEASURES]
    with pytest.warns(irm.UndefinedTopicsWarning):
        result = ir_measures.calc(measures, q, r)
    seen = set()
    for metric in result.per_query:
        key = (metric.query_id, str(metric.measure))
        if np.isnan(metric.value):
            assert key not in rows, key       # undefined: no row in per_topic.tsv
        else:
            assert metric.value == pytest.approx(rows[key], abs=1e-12), key
            seen.add(key)
    assert seen == set(rows)                  # every value of the evaluation, no other
    for measure in measures:
        assert result.aggregated[measure] == pytest.approx(means.loc[str(measure), "mean"],
                                                           abs=1e-12)


def test_pt_experiment_over_the_defined_topics_gives_the_evaluation_mean(case):
    import pyterrier as pt
    qrels, run, means, _, _ = case
    system = pt.Transformer.from_df(run.assign(rank=0)[["qid", "docno", "score", "rank"]])
    labels = pd.DataFrame({"qid": qrels["qid"], "docno": qrels["docno"],
                           "label": qrels["grade"].astype(int)})
    avp3 = irm.parse("AvP(level=3)")
    defined = irm.defined_topics(avp3, labels)
    topics = pd.DataFrame({"qid": defined, "query": "unused"})
    table = pt.Experiment([system], topics, labels, eval_metrics=[avp3, ir_measures.nDCG @ 10],
                          names=["r"])
    assert table.loc[0, "AvP(level=3)"] == pytest.approx(means.loc["AvP(level=3)", "mean"],
                                                         abs=1e-12)
    assert len(defined) == means.loc["AvP(level=3)", "topics"]


def test_pt_experiment_over_every_topic_stops_naming_the_undefined_ones(case):
    import pyterrier as pt
    qrels, run, _, _, _ = case
    labels = pd.DataFrame({"qid": qrels["qid"], "docno": qrels["docno"],
                           "label": qrels["grade"].astype(int)})
    topics = pd.DataFrame({"qid": sorted(set(qrels["qid"])), "query": "unused"})
    without = sorted(set(qrels["qid"]) - set(qrels.loc[qrels["grade"] == 3, "qid"]))
    for name in ("AvP(level=3)", "JK_nDCG(b=2,profile='3')@10"):
        with pytest.raises(irm.UndefinedTopics) as caught:
            pt.Experiment([run], topics, labels, eval_metrics=[irm.parse(name)], names=["r"])
        message = str(caught.value)
        assert message.startswith(f"{name} is undefined for {len(without)} of 60 topics")
        assert ", ".join(without[:10]) in message
        assert f"irm.defined_topics({name!r}, qrels)" in message


def test_a_measure_defined_for_no_topic_stops_saying_which_levels_the_qrels_hold(case):
    _, _, _, q, r = case
    no_level_3 = q.assign(relevance=q["relevance"].clip(upper=2))
    with pytest.raises(irm.UndefinedTopics, match=r"undefined for all 60 topics .*"
                       r"levels \[0, 1, 2\]: are the relevance values the levels 0-3\?"):
        ir_measures.calc_aggregate([irm.parse("AvP(level=3)")], no_level_3, r)


@pytest.mark.parametrize("label", [4, 2.5, "x"])
def test_relevance_that_is_no_level_is_refused(case, label):
    _, _, _, q, r = case
    bad = q.assign(relevance=q["relevance"].astype(object))
    bad.loc[bad.index[5], "relevance"] = label
    with pytest.raises(InputError, match=r"relevance levels 0-3, whole numbers.*found \['"
                       + re.escape(str(label))):
        ir_measures.calc_aggregate([irm.parse("JK_CG(profile='all')@10")], bad, r)


def test_templates_and_parsed_measures_print_their_names():
    assert str(irm.AvP) == "AvP" and str(irm.nDCG_log2) == "nDCG_log2(gain='linear')"
    assert str(irm.AvP(level=2)) == "AvP(level=2)"
    assert str(irm.JK_nDCG(profile="2+3") @ 20) == "JK_nDCG(b=2,profile='2+3')@20"
    assert str(irm.JK_CG(gains={1: 1, 2: 5, 3: 10}) @ 5) == \
        "JK_CG(profile='all',gains={1:1,2:5,3:10})@5"


def test_requested_topics_without_judgements_are_left_out_not_scored_zero(caplog):
    qrels = pd.DataFrame({"qid": ["1", "2"], "docno": ["a", "b"], "grade": [3, 1]})
    judgements = Judgements.from_qrels(qrels, topics=["2", "7"])
    assert judgements.topics.tolist() == ["2"]
    assert "1 requested topic(s) have no judgements" in caplog.text and "7" in caplog.text


# A hand-made case where every measure below is defined on every topic: topic 2's scores tie
# (trec_eval's order: document id descending, c b a), topic 3 is not in the run (it scores
# 0), run topic 99 is not in the qrels (ignored), d2 and u are not judged (level 0).
HAND_QRELS = [("1", "d1", 3), ("1", "d3", 3), ("1", "d9", 3), ("1", "d4", 2), ("1", "d5", 1),
              ("1", "d6", 0), ("2", "a", 1), ("2", "b", 2), ("2", "c", 3), ("2", "z", 0),
              ("3", "x", 3), ("3", "y", 2), ("3", "w", 1),
              ("4", "p", 2), ("4", "q", 3), ("4", "r", 1), ("4", "s", 1)]
HAND_RUN = [("1", "d1", 3.0), ("1", "d2", 2.5), ("1", "d3", 2.0), ("1", "d4", 1.0),
            ("1", "d5", 0.5), ("2", "a", 1.0), ("2", "b", 1.0), ("2", "c", 1.0),
            ("2", "z", 0.5), ("4", "s", 2.0), ("4", "q", 1.0), ("4", "p", 1.0),
            ("4", "u", 0.9), ("99", "d1", 1.0)]
#: Measures of every registered family (a family added to the registry must be added here).
BY_FAMILY = {
    "AvP": ["AvP(level=1)", "AvP(level=2)", "AvP(level=3)", "AvP(level=2,reading='atleast')"],
    "JK_CG": ["JK_CG(profile='all')@3"],
    "JK_nCG": ["JK_nCG(profile='2+3')@5"],
    "JK_DCG": ["JK_DCG(b=2,profile='3')@10", "JK_DCG(b=10,profile='all')@10"],
    "JK_nDCG": ["JK_nDCG(b=2,profile='3')@4", "JK_nDCG(b=2,profile='all')@10"],
    "nDCG_log2": ["nDCG_log2(gain='exp')@5"],
    "Q": ["Q(beta=1)"],
    "nERR": ["nERR@5"],
}


@pytest.fixture(scope="module")
def hand():
    qrels = pd.DataFrame(HAND_QRELS, columns=["qid", "docno", "grade"])
    run = pd.DataFrame(HAND_RUN, columns=["qid", "docno", "score"])
    names = [name for family in BY_FAMILY.values() for name in family]
    settings = Settings(measures=tuple(names), significance_measures=("AvP(level=3)",))
    tables = evaluate({"r": rank_frame(run)}, Judgements.from_qrels(qrels), settings,
                      bootstrap=False)
    labels = qrels.rename(columns={"grade": "label"})
    return qrels, run, labels, names, tables


def test_every_registered_family_is_tried():
    assert set(BY_FAMILY) == set(families())


def test_pt_experiment_gives_the_evaluation_values_for_every_family(hand):
    import pyterrier as pt
    _, run, labels, names, tables = hand
    topics = pd.DataFrame({"qid": ["1", "2", "3", "4"], "query": "unused"})
    with warnings.catch_warnings():
        warnings.simplefilter("error", irm.UndefinedTopicsWarning)
        means, per_query = pt.Experiment([run], topics, labels, names=["r"], perquery="both",
                                         eval_metrics=[irm.parse(n) for n in names])
    expected = tables["per_topic"].set_index(["qid", "measure"])["value"]
    got = per_query.set_index(["qid", "measure"])["value"]
    assert sorted(got.index) == sorted(expected.index)  # every topic, every measure: no NaN
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, abs=1e-12), key
    evaluation_means = tables["means"].set_index("measure")
    for name in names:
        assert evaluation_means.loc[name, "topics"] == 4
        assert means.loc[0, name] == pytest.approx(evaluation_means.loc[name, "mean"],
                                                   abs=1e-12), name
    # by hand: topic 1 ranks 3, 0, 3 of three level-3 documents; topic 2's tie ranks c first
    assert got[("1", "AvP(level=3)")] == pytest.approx((1 / 1 + 2 / 3) / 3, abs=1e-15)
    assert got[("2", "AvP(level=3)")] == 1.0 and got[("3", "AvP(level=3)")] == 0.0
    assert got[("1", "JK_CG(profile='all')@3")] == 6.0
    assert got[("2", "JK_CG(profile='all')@3")] == 6.0


def test_the_command_gives_the_evaluation_means(hand, tmp_path, capsys):
    qrels, run, _, names, tables = hand
    write_trec_qrels(qrels, tmp_path / "qrels.txt")
    write_trec_run(run, tmp_path / "run.txt")
    assert irm_command.main([str(tmp_path / "qrels.txt"), str(tmp_path / "run.txt"), *names,
                             "--places", "-1"]) == 0
    printed = dict(line.split("\t") for line in capsys.readouterr().out.splitlines())
    evaluation_means = tables["means"].set_index("measure")
    assert set(printed) == set(names)
    for name in names:
        assert float(printed[name]) == pytest.approx(evaluation_means.loc[name, "mean"],
                                                     abs=1e-12), name


def test_the_command_refuses_labels_that_are_no_levels_in_one_line(hand, tmp_path, capsys):
    qrels, run, _, _, _ = hand
    write_trec_qrels(qrels.assign(grade=qrels["grade"].replace({1: 4})), tmp_path / "q.txt")
    write_trec_run(run, tmp_path / "run.txt")
    assert irm_command.main([str(tmp_path / "q.txt"), str(tmp_path / "run.txt"),
                             "AvP(level=3)"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("gradedrel.irm: <qrels>: expected relevance levels 0-3")
    assert err.endswith("found ['4']") and "\n" not in err


@pytest.mark.parametrize("family", sorted(BY_FAMILY))
def test_a_topic_without_relevant_documents_is_undefined_except_for_cg_and_dcg(hand, family):
    # docs/measures.md: CG and DCG are defined for every topic; AvP needs a recall base, the
    # normalised measures an ideal above 0, Q a relevant document
    qrels, run, _, _, _ = hand
    q = pd.DataFrame({"query_id": [*qrels["qid"], "5"], "doc_id": [*qrels["docno"], "n"],
                      "relevance": [*qrels["grade"], 0]})  # topic 5: nothing relevant
    r = pd.DataFrame({"query_id": [*run["qid"], "5"], "doc_id": [*run["docno"], "n"],
                      "score": [*run["score"], 1.0]})
    measure = irm.parse(BY_FAMILY[family][0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        values = {m.query_id: m.value for m in ir_measures.iter_calc([measure], q, r)}
    messages = [str(w.message) for w in caught if w.category is irm.UndefinedTopicsWarning]
    if family in ("JK_CG", "JK_DCG"):
        assert values["5"] == 0.0 and messages == []
    else:
        assert np.isnan(values["5"])
        assert messages == [f"{measure} is undefined for 1 of 5 topics "
                            f"({measure.ours().undefined_when()}): 5; their value is NaN and "
                            "the mean leaves them out, as gradedrel evaluate does (means.tsv, "
                            "column topics)"]
