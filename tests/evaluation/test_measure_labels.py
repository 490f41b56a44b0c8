"""Labels: every registered family labels its measures for people (figure legends, table
headers), each measure its own label; the figures' curves are named in config as measure
families, and a name that is no gain curve is refused naming the config key."""
import pytest

from gradedrel.core.config import layered
from gradedrel.evaluation.measures import jk, registry
from gradedrel.evaluation.measures.avp import AvP
from gradedrel.evaluation.measures.base import Measure
from gradedrel.evaluation.settings import Settings
from gradedrel.evaluation.standard_measures import StandardMeasure


def every_family_measure() -> list[Measure]:
    """Each registered family spread over a small evaluation's settings."""
    settings = Settings(levels=(1, 3), cutoffs=(5, 10), dcg_bases=(2, 10),
                        profiles={"3": (3,), "all": (1, 2, 3)})
    return registry.expand(list(registry.families()), settings)


def test_every_family_labels_its_measures_each_with_a_label_of_its_own():
    measures = every_family_measure()
    assert {m.NAME for m in measures} == set(registry.families())
    for long in (False, True):
        labels = [m.label(long=long) for m in measures]
        assert all(isinstance(text, str) and text.strip() for text in labels)
        assert len(set(labels)) == len(measures), long
    templates = [template.label() for template in registry.families().values()]
    assert len(set(templates)) == len(templates)


def test_labels_are_the_figures_and_the_papers_words():
    assert AvP(level=3).label() == "AvP, level 3"
    assert AvP(level=3, reading="atleast").label() == "AvP, level 3 or higher"
    assert jk.JK_CG.label() == "CG" and jk.JK_nDCG(b=10).label() == "nDCG (b = 10)"
    assert jk.JK_DCG(b=2).label(long=True) == "Discounted cumulated gain (b = 2)"
    assert (jk.JK_DCG(b=2, profile="2+3") @ 10).label() == "DCG (b = 2) at rank 10, levels 2+3"
    assert jk.profile_label("3") == "level 3 only" and jk.profile_label("x") == "x"
    assert StandardMeasure("nDCG@10").label() == "nDCG@10"   # ir_measures' own name


@pytest.mark.parametrize("name, kind, base, figure", [
    ("JK_CG", "CG", 0, "cg"), ("JK_nCG", "nCG", 0, "ncg"),
    ("JK_DCG(b=10)", "DCG", 10, "dcg_b10"), ("JK_nDCG(b=2)", "nDCG", 2, "ndcg_b2")])
def test_a_curve_is_named_as_its_family_with_its_log_base(name, kind, base, figure):
    curve = jk.curve(name, "report.curves")
    assert curve.curve == (kind, base) and curve.figure_name == figure


@pytest.mark.parametrize("name, why", [
    ("dcg_b2", "is not a gain curve"),              # the old figure slug
    ("AvP(level=3)", "is not a gain curve"),
    ("JK_DCG", "name the log base"),
    ("JK_CG(profile='3')", "sets profile"),
    ("JK_nDCG(b=2)@10", "sets cutoff"),
    ("JK_DCG(b=1)", "at least 2")])
def test_a_name_that_is_no_gain_curve_is_refused_naming_the_config_key(name, why):
    with pytest.raises(ValueError, match=r"^config: report\.difference_curves: .*" + why):
        jk.curve(name, "report.difference_curves")


def test_the_workflow_refuses_a_curve_the_registry_cannot_parse():
    from pathlib import Path

    from gradedrel.study import Study

    root = Path(__file__).resolve().parents[2]
    config = layered([root / "config" / "config.yaml"],
                     {"report": {"curves": ["JK_CG", "ndcg_b10"]}},
                     schema_path=root / "config" / "schema" / "config.schema.yaml")
    with pytest.raises(ValueError, match=r"config: report\.curves: 'ndcg_b10'"):
        Study.from_config(config).figure_names()


def test_the_report_labels_each_figure_by_its_curve():
    from pathlib import Path

    from gradedrel.study import Study

    root = Path(__file__).resolve().parents[2]
    config = layered([root / "config" / "config.yaml"],
                     {"report": {"curves": ["JK_CG", "JK_nDCG(b=10)"],
                                 "difference_curves": ["JK_DCG(b=2)"]}},
                     schema_path=root / "config" / "schema" / "config.schema.yaml")
    assert Study.from_config(config).figure_names() == {
        "pr_levels": "P-R curves per level", "cg": "CG", "ndcg_b10": "nDCG (b = 10)",
        "diff_dcg_b2": "DCG (b = 2) minus the baseline"}
