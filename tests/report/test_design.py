"""Study design files: the project's designs load, a design amends another, and a wrong
design is one error naming the file and what was expected."""
from pathlib import Path

import pytest
import yaml

from gradedrel.core.errors import InputError
from gradedrel.evaluation.measures import registry
from gradedrel.report import design

ROOT = Path(__file__).resolve().parents[2]


def test_the_cranfield_design_is_read_as_written():
    """The loaded design holds what the file says (checked against the YAML document itself,
    not against today's values): constants, primary condition, findings and their rows."""
    path = ROOT / "config" / "design" / "jk2000.yaml"
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    study = design.load(path)
    assert study.preregistration == raw["preregistration"]
    assert study.primary_plan_set == raw["primary_plan_set"]
    assert study.constants == design.Constants(**raw["constants"])
    assert list(study.query_types) == raw["query_types"]
    assert [f.number for f in study.findings] == [f["finding"] for f in raw["findings"]]
    for finding, written in zip(study.findings, raw["findings"]):
        rows = written["comparisons"]
        assert [c.part for c in finding.comparisons] == [r["part"] for r in rows]
        assert [c.deciding for c in finding.comparisons] == [r["deciding"] for r in rows]
        headline = next((r for r in rows if r.get("headline")), None)
        assert (finding.headline is None) == (headline is None)
        if headline is not None:
            assert (finding.headline.first, finding.headline.second, finding.headline.measure) \
                == (headline.get("first"), headline.get("second"), headline.get("measure"))
        assert [c.measure for c in finding.comparisons if c.measure] \
            == [r["measure"] for r in rows if "measure" in r]
        assert [c.level for c in finding.comparisons] == [
            registry.parse(r["measure"])["level"] if r.get("measure", "").startswith("AvP(")
            else None for r in rows]
    assert study.measures() == list(dict.fromkeys(
        r["measure"] for f in raw["findings"] for r in f["comparisons"]
        if "measure" in r and r["test"] != "effort_ratio"))
    n = len(study.query_types)
    assert len(study.pairs()) == n * (n - 1) // 2 and len(set(study.pairs())) == n * (n - 1) // 2


def test_nfcorpus_amends_the_cranfield_design():
    study = design.load(ROOT / "config" / "design" / "nfcorpus.yaml")
    base = design.load(ROOT / "config" / "design" / "jk2000.yaml")
    assert study.primary_plan_set == "expert-mesh"
    assert study.preregistration == "docs/preregistration-nfcorpus.md"
    assert study.findings == base.findings and study.constants == base.constants
    assert design.files(ROOT / "config" / "design" / "nfcorpus.yaml") == [
        str(ROOT / "config" / "design" / "nfcorpus.yaml"),
        str(ROOT / "config" / "design" / "jk2000.yaml")]


@pytest.mark.parametrize("change, named", [
    (("test: directional, first: \"WSYN/e\", second: \"SUM/u\", measure: \"AvP(level=3)\"",
      "test: directionl, first: \"WSYN/e\", second: \"SUM/u\", measure: \"AvP(level=3)\""),
     "directionl"),
    # a misspelt measure: one error naming the file, the comparison and the closest name
    (("measure: \"AvP(level=3)\", deciding: true, holm: true, headline: true",
      "measure: \"AvPP(level=3)\", deciding: true, holm: true, headline: true"), "AvPP"),
    (("measure: \"JK_DCG(b=2,profile='2+3')@50\"", "measure: \"JK_DGC(b=2,profile='2+3')@50\""),
     "JK_DCG"),
    (("test: large_spread, measure: \"AvP(level=3)\"",
      "test: large_spread, measure: \"JK_DCG(b=2,profile='3')@50\""), "an AvP measure"),
    (("test: large_spread, measure: \"AvP(level=3)\"",
      "test: large_spread, measure: \"AvP\""), "every parameter"),
    (("first: \"SSYN-C/e\", second: \"SUM/e\"", "first: \"XSYN/e\", second: \"SUM/e\""), "XSYN/e"),
    (("measure: \"JK_CG(profile='3')\", share: 0.5", "measure: \"JK_CG(profile='3')\""),
     "share"),
    # an effort ratio's curve: misspelt (the closest name), or not a CG curve by profile
    (("measure: \"JK_CG(profile='3')\"", "measure: \"JK_GC(profile='3')\""), "JK_CG"),
    (("measure: \"JK_CG(profile='3')\"", "measure: \"JK_DCG(profile='3')@10\""),
     "a CG curve named by its gain profile"),
    (("  margin: 5.0", "  margni: 5.0"), "margni"),
])
def test_a_wrong_design_is_one_error_naming_it(tmp_path, change, named):
    text = (ROOT / "config" / "design" / "jk2000.yaml").read_text(encoding="utf-8")
    assert change[0] in text
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace(change[0], change[1], 1), encoding="utf-8")
    with pytest.raises(InputError) as error:
        design.load(bad)
    assert str(bad) in str(error.value) and named in str(error.value)


def test_the_fast_parser_reads_every_design_as_pyyaml_does(tmp_path):
    """The design files are read with libyaml (cached per content); the same documents as
    PyYAML's own parser, and a broken file still reported at its line by PyYAML."""
    from gradedrel.report import design as design_module

    root = Path(__file__).parents[2]
    for path in sorted((root / "config" / "design").glob("*.yaml")) + [design_module.SCHEMA]:
        assert design_module._parsed(path) == yaml.safe_load(path.read_text(encoding="utf-8"))
    first = design_module._parsed(root / "config" / "design" / "jk2000.yaml")
    first["findings"] = "changed by a caller"
    assert design_module._parsed(root / "config" / "design" / "jk2000.yaml")["findings"] != \
        "changed by a caller"
    broken = tmp_path / "broken.yaml"
    broken.write_text("preregistration: x\nquery_types: [a, b\nfindings: []\n", encoding="utf-8")
    with pytest.raises(InputError) as error:
        design_module.load(broken)
    assert "broken.yaml" in str(error.value) and "valid YAML" in str(error.value)


def test_a_measure_is_written_as_the_evaluation_writes_it_and_the_test_of_record_settled(
        tmp_path):
    """A measure name spelt with spaces or the cutoff as a parameter is the evaluation's
    name; a comparison's test of record overrides the constants'; a spread's is Friedman's
    and no other."""
    text = (ROOT / "config" / "design" / "jk2000.yaml").read_text(encoding="utf-8")
    changed = text.replace("measure: \"JK_DCG(b=2,profile='2+3')@50\"",
                           "measure: \"JK_DCG(profile='2+3', b=2, cutoff=50)\", "
                           "test_of_record: t", 1)
    path = tmp_path / "spelt.yaml"
    path.write_text(changed, encoding="utf-8")
    found = design.load(path).finding(4).comparisons[2]
    assert found.measure == "JK_DCG(b=2,profile='2+3')@50" and found.test_of_record == "t"
    assert found.parameter("cutoff") == 50 and found.level is None
    spread = design.load(path).finding(1).comparisons[1]
    assert spread.test_of_record == "friedman" and spread.level == 3
    path.write_text(text.replace("test: large_spread,", "test: large_spread, "
                                 "test_of_record: wilcoxon,", 1), encoding="utf-8")
    with pytest.raises(InputError) as error:
        design.load(path)
    assert str(path) in str(error.value) and "Friedman" in str(error.value)


def test_a_misspelt_effort_curve_names_the_file_the_comparison_and_the_closest_name(tmp_path):
    text = (ROOT / "config" / "design" / "jk2000.yaml").read_text(encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("JK_CG(profile='2+3')", "JK_CGG(profile='2+3')", 1),
                   encoding="utf-8")
    with pytest.raises(InputError) as error:
        design.load(bad)
    said = str(error.value)
    assert str(bad) in said and "findings[3].comparisons[1]" in said
    assert "closest registered: \\'JK_CG\\'" in said


def test_a_circle_of_amendments_is_one_error_naming_it(tmp_path):
    """A design that amends itself, directly or through another, is one error naming the
    circle (it was endless recursion: a RecursionError traceback)."""
    (tmp_path / "a.yaml").write_text("amends: b.yaml\n", encoding="utf-8")
    (tmp_path / "b.yaml").write_text("amends: a.yaml\n", encoding="utf-8")
    (tmp_path / "self.yaml").write_text("amends: self.yaml\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"b\.yaml.*amends.*a\.yaml -> .*b\.yaml -> .*a\.yaml"):
        design.load(tmp_path / "a.yaml")
    with pytest.raises(InputError, match=r"self\.yaml -> .*self\.yaml"):
        design.load(tmp_path / "self.yaml")
    assert design.files(tmp_path / "a.yaml") == [str(tmp_path / "a.yaml"), str(tmp_path / "b.yaml")]
