"""Measures as objects: one spelling per measure, parsed back; config's family entries
expanded over the settings in the evaluation's order; unknown names refused naming the
closest registered one; the evaluation's per-topic rows are the listed measures'."""
import math

import numpy as np
import pytest

from gradedrel.evaluation.evaluate import evaluate
from gradedrel.evaluation.measures import registry
from gradedrel.evaluation.measures.avp import AvP
from gradedrel.evaluation.measures.base import Ranking
from gradedrel.evaluation.measures.jk import JK_CG, JK_DCG, JK_nCG, JK_nDCG
from gradedrel.evaluation.measures.judgements import Judgements
from gradedrel.evaluation.measures.ndcg_log2 import nDCG_log2
from gradedrel.evaluation.settings import Settings
from gradedrel.retrieval.runs import rank_frame

from helpers_eval import ranked_by_grade, synthetic_collection

STANDARD = ("nDCG@10", "AP(rel=1)", "AP(rel=3)", "P@10")


def paper_grid_by_hand() -> list[str]:
    """The per-topic measures of the default evaluation, in the order its tables list them
    (written out here, not derived from the code)."""
    names = []
    for level in (1, 2, 3):
        names += [f"AvP(level={level})", f"AvP(level={level},reading='atleast')"]
    for profile in ("all", "2+3", "3"):
        for kind, base in (("CG", None), ("DCG", 2), ("DCG", 10)):
            params = f"profile='{profile}'" if base is None else f"b={base},profile='{profile}'"
            for cutoff in (10, 50, 100):
                names += [f"JK_{kind}({params})@{cutoff}", f"JK_n{kind}({params})@{cutoff}"]
    names += ["nDCG_log2(gain='linear')@10", "nDCG_log2(gain='exp')@10"]
    return names + list(STANDARD)


def test_the_default_measures_are_the_paper_grid_and_the_family_list_spells_it():
    default = Settings(standard_measures=STANDARD).measure_list()
    assert [str(m) for m in default] == paper_grid_by_hand()
    listed = Settings(measures=tuple(registry.DEFAULT_MEASURES),
                      standard_measures=STANDARD).measure_list()
    assert listed == default


def test_every_measure_parses_back_from_its_name():
    for measure in Settings().measure_list():
        again = registry.parse(str(measure))
        assert again == measure and str(again) == str(measure) and again.complete


def test_names_follow_the_families_declared_spelling():
    assert str(AvP) == "AvP" and str(nDCG_log2) == "nDCG_log2(gain='linear')"
    assert str(AvP(level=2, reading="exact")) == "AvP(level=2)"
    assert str(JK_nDCG(profile="2+3") @ 20) == "JK_nDCG(b=2,profile='2+3')@20"
    assert str(JK_CG(gains={1: 1, 2: 5, 3: 10}) @ 5) == \
        "JK_CG(profile='all',gains={1:1,2:5,3:10})@5"
    assert str(JK_CG(gains={1: 1, 2: 2, 3: 3}) @ 5) == "JK_CG(profile='all')@5"
    assert str(JK_DCG(b=10, profile="3")) == "JK_DCG(b=10,profile='3')"  # the curve itself
    assert AvP(level=1, reading="atleast").interpolated_name == "iPrec(level=1,reading='atleast')"


def test_family_entries_expand_over_what_they_leave_out_listed_twice_kept_once():
    settings = Settings(levels=(1, 3), cutoffs=(5, 10), profiles={"3": (3,), "all": (1, 2, 3)})
    got = [str(m) for m in registry.expand(
        ["AvP(reading='atleast')", "JK_DCG(b=10)", "AvP(level=3,reading='atleast')",
         "JK_nCG", "nDCG_log2(gain='exp')@3"], settings)]
    assert got == ["AvP(level=1,reading='atleast')", "AvP(level=3,reading='atleast')",
                   "JK_nCG(profile='3')@5", "JK_nCG(profile='3')@10",
                   "JK_DCG(b=10,profile='3')@5", "JK_DCG(b=10,profile='3')@10",
                   "JK_nCG(profile='all')@5", "JK_nCG(profile='all')@10",
                   "JK_DCG(b=10,profile='all')@5", "JK_DCG(b=10,profile='all')@10",
                   "nDCG_log2(gain='exp')@3"]
    custom = Settings(gains={1: 1, 2: 5, 3: 10})
    assert str(registry.expand(["JK_CG"], custom)[0]) == \
        "JK_CG(profile='all',gains={1:1,2:5,3:10})@10"


@pytest.mark.parametrize("name, closest", [("JK_DGC@10", "JK_DCG"), ("avp(level=3)", "AvP"),
                                           ("nDCG_log@10", "nDCG_log2")])
def test_an_unknown_name_is_refused_naming_the_closest_registered_one(name, closest):
    with pytest.raises(registry.UnknownMeasure) as raised:
        registry.parse(name)
    assert str(raised.value) == f"unknown measure {name!r} (the closest registered: {closest!r})"


@pytest.mark.parametrize("measures, message", [
    (["AvP(level=4)"], "config: evaluation.measures: AvP: level=4: expected one of [1, 2, 3]"),
    (["JK_CG(profile='x')@10"], "gain profile 'x' not in config: evaluation.profiles"),
    (["JK_DCG(b=1)@10"], "b=1: the log base must be at least 2"),
    (["AvP(level=3)@10"], "no parameter 'cutoff'"),
    ([], "config: evaluation.measures: an empty list"),
])
def test_bad_measures_in_config_are_one_error_naming_the_key(measures, message):
    with pytest.raises(ValueError) as raised:
        Settings.from_config({"measures": measures})
    assert message in str(raised.value)


def test_the_evaluation_writes_a_row_for_each_listed_measure_and_no_other():
    qrels, run = synthetic_collection(seed=5, n_topics=20)
    judgements = Judgements.from_qrels(qrels)
    quick = dict(bootstrap_resamples=100, randomisation_trials=100,
                 significance_measures=("AvP(level=3)",), standard_measures=("P@10",))
    full = evaluate({"r": rank_frame(run)}, judgements, Settings(**quick), bootstrap=False)
    listed = ("JK_DCG(b=2,profile='3')@10", "AvP(level=3)", "JK_CG(profile='all')@150")
    chosen = evaluate({"r": rank_frame(run)}, judgements,
                      Settings(measures=listed, **quick),
                      bootstrap=False)
    per_topic = chosen["per_topic"]
    assert list(dict.fromkeys(per_topic["measure"])) == [*listed, "P@10"]
    assert chosen["means"]["measure"].tolist() == [*listed, "P@10"]
    # the same values as in the full evaluation, and the curves as before
    both = per_topic.merge(full["per_topic"], on=["run", "qid", "measure"])
    assert len(both) == (per_topic["measure"] != "JK_CG(profile='all')@150").sum()
    assert (both["value_x"] == both["value_y"]).all()
    assert chosen["gain_curves"].equals(full["gain_curves"])


def test_a_cutoff_beyond_the_curve_depth_reads_the_longer_curve():
    # grades at ranks 1..6: 3 0 2 0 0 1; depth 4 < cutoff 6
    judgements, judged = ranked_by_grade([3, 0, 2, 0, 0, 1])
    ranking = Ranking(judged, judgements, depth=4)
    assert (JK_CG(profile="all") @ 6).values(ranking).tolist() == [6.0]
    assert (JK_CG(profile="all") @ 2).values(ranking).tolist() == [3.0]
    # DCG b=2: 3 + 0 + 2/log2(3) + 0 + 0 + 1/log2(6); the ideal 3 2 1 0 0 0
    dcg = 3 + 2 / math.log2(3) + 1 / math.log2(6)
    ideal = 3 + 2 + 1 / math.log2(3)
    assert (JK_DCG(b=2) @ 6).values(ranking)[0] == pytest.approx(dcg, abs=1e-12)
    assert (JK_nDCG(b=2) @ 6).values(ranking)[0] == pytest.approx(dcg / ideal, abs=1e-12)
    assert (JK_nCG(profile="3") @ 6).values(ranking).tolist() == [1.0]


def test_every_registered_family_is_an_ir_measures_measure():
    import ir_measures

    from gradedrel.evaluation.measures import irm

    for name, template in registry.families().items():
        assert name in ir_measures.measures.registry
        assert irm.ADAPTED[name].FAMILY is template
    judgements, judged = ranked_by_grade([0, 1])  # no level-3 document: AvP(level=3) undefined
    assert np.isnan(irm.parse("AvP(level=3)").ours().values(Ranking(judged, judgements))[0])
