"""Query structures against the brief, and their MatchOp strings (hand-written expectations)."""
import pytest

from gradedrel import plans
from gradedrel.queries import matchop, query_tree, query_types
from gradedrel.queries.query_tree import Key, Sum, Syn, WSum
from tests.conftest import toy_pipeline


def k(*tokens):
    return Key(tuple(tokens))


def plan():
    c = plans.PlanConcept
    key = plans.PlanKey
    return plans.Plan("1", "r", [
        plans.Facet("heat", "major", [
            c("heat transfer", "#ht", None, [key("heat transfer")],
              [key("convective heat-transfer", "NT", 1), key("heat flows", "UF")]),
            c("heat flow", None, None, [key("heat flow")])]),
        plans.Facet("wings", "minor", [c("wings", "#wing", None, [key("the wings")],
                                         [key("wing", "UF")])])])


def test_sum_is_a_bag_of_all_keys():
    assert query_types.compile_plan(plan(), "SUM/u", toy_pipeline) == \
        Sum((k("heat", "transfer"), k("heat", "flow"), k("wings")))
    assert query_types.compile_plan(plan(), "SUM/e", toy_pipeline) == \
        Sum((k("heat", "transfer"), k("convective", "heat", "transfer"), k("heat", "flows"),
             k("heat", "flow"), k("wings"), k("wing")))


def test_ssyn_c_is_one_synonym_group_per_concept():
    assert query_types.compile_plan(plan(), "SSYN-C/e", toy_pipeline) == Sum((
        Syn((k("heat", "transfer"), k("convective", "heat", "transfer"), k("heat", "flows"))),
        Syn((k("heat", "flow"),)), Syn((k("wings"), k("wing")))))


def test_wsyn_weights_facets_10_and_7():
    tree = query_types.compile_plan(plan(), "WSYN/u", toy_pipeline)
    assert tree == WSum((10.0, 7.0), (Syn((k("heat", "transfer"), k("heat", "flow"))),
                                      Syn((k("wings"),))))
    assert query_tree.from_dict(query_tree.to_dict(tree)) == tree
    custom = query_types.compile_plan(plan(), "WSYN/u", toy_pipeline, {"major": 2, "minor": 1})
    assert custom.weights == (2.0, 1.0)


def test_labels_and_slugs():
    for label in query_types.LABELS:   # a slug is the label with '-' for '/', and back
        assert query_types.slug(label) == label.replace("/", "-")
        assert query_types.label(query_types.slug(label)) == label
    with pytest.raises(ValueError, match="unknown query type"):
        query_types.parse_label("SUM")


def test_matchop_strings():
    writer = matchop.MatchOpWriter(toy_pipeline)
    trees = {label: query_types.compile_plan(plan(), label, toy_pipeline)
             for label in query_types.LABELS}
    assert writer.query(trees["SUM/u"]) == "#combine(#1(heat transfer) #1(heat flow) wings)"
    # heat flows / heat flow stem alike: once per group; wings/wing likewise
    assert writer.query(trees["SSYN-C/e"]) == (
        "#combine(#syn(#1(heat transfer) #uw3(convective heat transfer) #1(heat flows)) "
        "#1(heat flow) wings)")
    assert writer.query(trees["WSYN/e"]) == (
        "#combine:0=10:1=7(#syn(#1(heat transfer) #uw3(convective heat transfer) #1(heat flows)) "
        "wings)")
    assert matchop.MatchOpWriter(toy_pipeline, "#uw8").query(Sum((k("heat", "of", "wings"),))) \
        == "#combine(#uw8(heat wings))"
    assert writer.query(Sum((k("the"), k("of")))) is None
    from gradedrel.core import config   # an operator Terrier lacks stops at the schema

    with pytest.raises(config.ConfigError, match="phrase_operator: '#od\\(' does not match"):
        config.validate({"query_types": {"phrase_operator": "#od("}}, sections_only=True)
    assert matchop.phrase(("a", "b", "c"), "#1") == "#1(a b c)"
    assert matchop.phrase(("a", "b", "c"), "#uw") == "#uw3(a b c)"
    assert matchop.phrase(("a",), "#1") == "a"


def test_the_vocabulary_is_defined_once():
    from gradedrel.queries import query_files

    # The published numbers are keyed by whatever labels the paper file holds (checked
    # against the registry by the study), so the vocabulary lives in query_types alone.
    assert query_files.QUERY_TYPES is query_types.LABELS
    assert query_types.SLUGS == tuple(query_types.slug(x) for x in query_types.LABELS)
    assert query_types.label("WSYN", True) == query_types.label("WSYN-e") == "WSYN/e"
    assert query_types.structure_of("SSYN-C/u") == ("SSYN-C", "u")


# --- the registry -----------------------------------------------------------------------

def test_the_schema_takes_any_label_and_the_registry_refuses_unknown_ones():
    """A new structure needs no schema edit: the schema checks a label's shape, the registry
    (:func:`query_types.check_labels`, run when the study is read) whether it exists."""
    import re
    from pathlib import Path

    import yaml

    root = Path(__file__).resolve().parents[2]
    schema = yaml.safe_load((root / "config/schema/config.schema.yaml").read_text())
    labels = schema["properties"]["query_types"]["properties"]["labels"]
    assert "enum" not in labels["items"]
    assert all(re.fullmatch(labels["items"]["pattern"], q) for q in query_types.labels())
    assert labels["default"] == list(query_types.LABELS)
    with pytest.raises(ValueError, match=r"unknown query type 'WSYN/x'.*did you mean 'WSYN/u'"):
        query_types.check_labels(["SUM/u", "WSYN/x"])
    assert list(query_types.STRUCTURES)[:3] == list(query_types.PAPER)


def test_labels_from_config_are_checked_against_the_registry():
    assert query_types.check_labels(["WSYN/e", "SUM/u"]) == ["WSYN/e", "SUM/u"]
    with pytest.raises(ValueError, match=r"query_types.labels: unknown query type 'BOOL/x', "
                                         r"'SSYNC/e' \(did you mean 'SSYN-C/e'\?\); registered: "
                                         r"SUM/u, SUM/e, SSYN-C/u"):
        query_types.check_labels(["WSYN/e", "BOOL/x", "SSYNC/e"])
    with pytest.raises(ValueError, match="unknown query type 'BOOL/u'"):
        query_types.label("BOOL", False)
    assert query_types.with_synonym_groups(query_types.LABELS) == [
        "SSYN-C/u", "SSYN-C/e", "WSYN/u", "WSYN/e"]


class FirstFacet(query_types.Structure):
    """A toy structure: the first facet's keys only, as one synonym group."""

    name = "FIRST-U"
    synonym_groups = True

    def compile(self, plan, expanded, pipeline, weights):
        keys = query_types.keys_of([k for c in plan.facets[0].concepts
                                    for k in c.all_keys(expanded)], pipeline)
        return Sum((Syn(tuple(keys)),)) if keys else None


@pytest.fixture
def first_facet():
    query_types.register(FirstFacet)
    yield FirstFacet
    del query_types.STRUCTURES["FIRST-U"]


def test_a_structure_registered_outside_the_package_is_a_query_type(first_facet):
    assert query_types.labels()[-2:] == ("FIRST-U/u", "FIRST-U/e")
    assert query_types.check_labels(["FIRST-U/e"]) == ["FIRST-U/e"]
    # a name holding '-u' still round-trips through its slug
    assert query_types.slug("FIRST-U/e") == "FIRST-U-e"
    assert query_types.label("FIRST-U-e") == query_types.label("first-u", True) == "FIRST-U/e"
    assert query_types.compile_plan(plan(), "FIRST-U/u", toy_pipeline) == \
        Sum((Syn((k("heat", "transfer"), k("heat", "flow"))),))
    assert query_types.with_synonym_groups(["SUM/u", "FIRST-U/u"]) == ["FIRST-U/u"]
    assert "FIRST-U/u" not in query_types.LABELS   # the default labels are the package's


def test_a_structure_is_registered_once_with_a_plain_name():
    with pytest.raises(ValueError, match="registered twice"):
        query_types.register(type("Other", (query_types.Structure,), {"name": "SUM"}))
    for name in ("", "a/b", "lower"):
        with pytest.raises(TypeError, match="upper-case name"):
            query_types.register(type("Bad", (query_types.Structure,), {"name": name}))
    assert query_types.STRUCTURES["SUM"] is query_types.SumStructure
