"""Facets, expansion provenance, plans (YAML round trip, validation, curated overrides), selection."""
import math

import pandas as pd
import pytest

from gradedrel import plans
from gradedrel.plans import expansion, facets, planner, selection
from gradedrel.core.errors import InputError
from gradedrel.plans.key_stats import KeyStatistics
from tests.conftest import toy_pipeline

DF = {"boundary": 300, "layer": 320, "turbulent": 90, "laminar": 80, "flow": 700, "separation": 40,
      "heat": 200, "transfer": 180, "convective": 10, "wing": 100, "gas": 150, "gaseou": 20,
      "state": 60, "high": 400, "angle": 120, "attack": 110, "incidence": 15}


def stats(documents=1400):
    return KeyStatistics(toy_pipeline, lambda t: DF.get(t, 0), documents)


def test_facets_group_linked_concepts_and_adjacent_words(thesaurus):
    uris = ["#bl", "#ht", "#tbl", None, "#wing"]
    assert facets.group(uris, thesaurus) == [[0, 2], [1, 4], [3]]
    spans = [[(0, 2)], [(5, 7)], [(9, 12)], [(2, 3)], [(20, 21)]]
    assert facets.group(uris, thesaurus, spans, ("phrase",)) == [[0, 3], [1], [2], [4]]
    assert facets.group(uris, thesaurus, spans, ("thesaurus", "phrase")) == [[0, 2, 3], [1, 4]]


def test_major_minor_rule():
    assert facets.importance([1.0, 3.0, 2.0], 0.5) == ["minor", "major", "major"]
    assert facets.importance([2.0, 2.0], 0.5) == ["major", "minor"]  # tie: request order
    assert facets.importance([0.5], 0.5) == ["major"]


def test_expansion_keys_carry_relation_depth_and_source(thesaurus):
    rules = expansion.Rules({"UF": 1, "NT": 1, "RT": 1}, None, {}, None)
    keys = expansion.expand("#bl", ["boundary layers"], thesaurus, rules, stats())
    assert [(k.key, k.relation, k.depth, k.via) for k in keys] == [
        # UF "boundary layers" is the request's own key (same terms): left out
        ("boundary layer flow", "UF", 0, "boundary layers"),
        ("turbulent boundary layer", "NT", 1, "boundary layers"),  # df 90 before laminar 80
        ("laminar boundary layer", "NT", 1, "boundary layers"),
        ("flow separation", "RT", 1, "boundary layers")]


def test_expansion_depth_caps_and_index_filter(thesaurus):
    deep = expansion.Rules({"NT": 2}, None, {}, None)
    keys = expansion.expand("#flow", ["flow"], thesaurus, deep, stats())
    assert [(k.key, k.depth, k.via) for k in keys] == [("flow separation", 1, "flow"),
                                                       ("turbulent boundary layer", 2, "flow separation")]
    capped = expansion.Rules({"UF": 1, "NT": 1, "RT": 1}, 2, {"UF": 0}, None)
    keys = expansion.expand("#bl", ["boundary layers"], thesaurus, capped, stats())
    assert [k.key for k in keys] == ["turbulent boundary layer", "laminar boundary layer"]
    general = expansion.Rules({"RT": 1}, None, {}, 0.1)  # gases: flow (df 700) is too general
    assert expansion.expand("#gas", ["gases"], thesaurus, general, stats()) == []
    assert expansion.expand("#rare", ["zyxwv"], thesaurus, expansion.Rules(), stats()) == []
    assert expansion.expand(None, ["obeyed"], thesaurus, expansion.Rules(), stats()) == []


def test_planner_builds_a_plan_with_specific_facets_major(thesaurus):
    text = "papers on convective heat transfer and boundary layers at high speed"
    expansion_config = {"relations": {"UF": 1, "NT": 1}, "max_keys_per_concept": 3}
    default = planner.Planner.build(thesaurus, toy_pipeline, stats(),
                                    {"boilerplate_words": ["papers"]}, expansion_config)
    assert [f.name for f in default.plan("7", text).facets] == [
        "convective heat transfer", "boundary layers", "high", "speed"]
    model = planner.Planner.build(thesaurus, toy_pipeline, stats(),
                                  {"boilerplate_words": ["papers"],
                                   "facet_grouping": ["thesaurus", "phrase"]}, expansion_config)
    plan = model.plan("7", text)
    assert [(f.name, f.importance) for f in plan.facets] == [
        ("convective heat transfer", "major"), ("boundary layers", "major"), ("high / speed", "minor")]
    assert plan.facets[0].specificity == pytest.approx(math.log(1400 / 10))
    bl = plan.facets[1].concepts[0]
    assert [k.key for k in bl.keys] == ["boundary layers"]
    assert {k.relation for k in bl.expansion} == {"UF", "NT"}


def sample_plan():
    return plans.Plan("3", "heat transfer in wings", [
        plans.Facet("heat transfer", "major", [plans.PlanConcept(
            "heat transfer", "#ht", "heat transfer", [plans.PlanKey("heat transfer")],
            [plans.PlanKey("convective heat transfer", "NT", 1, "heat transfer")])], 2.5),
        plans.Facet("wings", "minor", [plans.PlanConcept("wings", "#wing", "wings",
                                                         [plans.PlanKey("wings")])], 1.25)])


def test_yaml_round_trip_is_exact_and_readable():
    text = plans.dump_plans([sample_plan()])
    assert "- {key: convective heat transfer, relation: NT, depth: 1, via: heat transfer}" in text
    assert plans.parse_plans(text) == [sample_plan()]
    assert plans.dump_plans(plans.parse_plans(text)) == text


BAD = """plans:
- qid: '1'
  facets:
  - name: heat
    importance: very
    concepts:
    - label: heat
      keys: [heat]
"""


def test_validation_names_file_and_line():
    with pytest.raises(InputError) as error:
        plans.parse_plans(BAD, "curated.yaml")
    assert str(error.value).startswith("curated.yaml:4: expected importance one of")
    with pytest.raises(InputError, match=r"x.yaml:7: expected concept with at least one"):
        plans.parse_plans(BAD.replace("very", "major").replace("keys: [heat]", "keys: []"), "x.yaml")
    with pytest.raises(InputError, match=r"x.yaml:\d+: expected valid YAML"):
        plans.parse_plans("plans: [\n", "x.yaml")
    with pytest.raises(InputError, match="one plan per topic"):
        plans.parse_plans("plans:\n" + BAD.replace("very", "major")[7:] * 2, "x.yaml")



#: The relations and importances a plan file may name (the plan schema's, null left out).
DEFS = plans.model.yaml_io.load_file(plans.model.SCHEMA)["$defs"]
RELATIONS = [r for r in DEFS["key"]["properties"]["relation"]["enum"] if r is not None]
IMPORTANCE = [i for i in DEFS["facet"]["properties"]["importance"]["enum"] if i is not None]


CONCEPT = "plans:\n- qid: '1'\n  facets:\n  - name: f\n    concepts:\n    - label: c\n"


@pytest.mark.parametrize("text, message", [
    ("# a comment\n[1, 2]\n", "m.yaml:2: expected plan file as a mapping; found [1, 2]"),
    ("plans: 3\n", "m.yaml:1: expected plan file.plans as a list; found 3"),
    ("plans: []\nplan: []\n", "m.yaml:1: expected plan file fields among ['plans']; found ['plan']"),
    ("plans:\n- qid: '1'\n", "m.yaml:2: expected plan with a 'facets'"),
    ("plans:\n- {qid: '1', facets: []}\n", "m.yaml:2: expected a plan with at least one facet"),
    ("plans:\n- {qid: '1', facets: [{name: f, concepts: []}]}\n",
     "m.yaml:2: expected a facet with at least one concept"),
    ("plans:\n- {qid: '1', version: 0, source: auto, facets: []}\n",
     "m.yaml:2: expected plan.version of at least 1; found 0"),
    ("plans:\n- {qid: '1', source: bogus, facets: []}\n",
     "m.yaml:2: expected source one of ['auto', 'curated', 'expert', 'derived']; found 'bogus'"),
    (CONCEPT.replace("    concepts:", "    specificity: yes\n    concepts:") + "      keys: [a]\n",
     "m.yaml:4: expected facet.specificity as a number; found True"),
    (CONCEPT + "      keys: [[a]]\n", "m.yaml:6: expected search key as text or a mapping; found ['a']"),
    (CONCEPT + "      keys: ['  ']\n", "m.yaml:6: expected a non-empty search key; found '  '"),
    (CONCEPT + "      keys:\n      - {key: k, depth: -1}\n",
     "m.yaml:8: expected search key.depth of at least 0; found -1"),
    (CONCEPT + "      uri: ''\n      keys: [a]\n", "m.yaml:6: expected concept.uri as non-empty text; found ''"),
    (CONCEPT, "m.yaml:6: expected concept with a 'keys'"),
    (CONCEPT.replace("    - label: c\n", "    - x\n"), "m.yaml:4: expected concept as a mapping; found 'x'"),
])
def test_every_bad_plan_is_one_line_naming_file_line_and_what_was_expected(text, message):
    with pytest.raises(InputError) as error:
        plans.parse_plans(text, "m.yaml")
    assert str(error.value) == message

def test_curated_plans_override_and_bare_string_keys():
    curated = plans.parse_plans(BAD.replace("very", "minor").replace("'1'", "'3'"), "c.yaml")
    assert curated[0].facets[0].concepts[0].keys == [plans.PlanKey("heat", "curated")]
    other = plans.Plan("4", "x", sample_plan().facets)
    merged = plans.merge_curated([sample_plan(), other], curated, "c.yaml")
    assert [(p.qid, p.source) for p in merged] == [("3", "curated"), ("4", "auto")]
    assert merged[0].request == "heat transfer in wings"  # kept from the automatic plan
    assert merged[0].facets == curated[0].facets
    with pytest.raises(InputError, match="c.yaml: expected curated plans only for topics"):
        plans.merge_curated([other], curated, "c.yaml")


def test_selection_gives_every_topic_a_reason():
    one_facet = plans.Plan("5", "wings", sample_plan().facets[1:])
    recall = pd.DataFrame({"qid": ["3", "4", "5"], "n_3": [2, 0, 1]})
    criteria = selection.Criteria()
    candidates = selection.candidates([sample_plan(), one_facet], criteria)
    assert candidates.values.tolist() == [["3", 1, ""],
                                          ["5", 0, "1 facet(s) < 2; expansion adds no key"]]
    table = selection.select(candidates, recall, criteria)
    assert table.values.tolist() == [
        ["3", 1, "selected"], ["4", 0, "no plan"],
        ["5", 0, "1 facet(s) < 2; expansion adds no key"]]
    # a candidate without a highly relevant document is run but not evaluated
    no_level3 = pd.DataFrame({"qid": ["3", "4", "5"], "n_3": [0, 0, 1]})
    assert selection.select(candidates, no_level3, criteria).values.tolist()[0] == [
        "3", 0, "0 highly relevant document(s) < 1"]


def test_named_topics_are_candidates_and_must_be_judged_to_be_selected():
    named = selection.named_candidates(["1", "2", "3"], ["1", "3"], "plans_A.yaml")
    assert named.values.tolist() == [["1", 1, "named in plans_A.yaml"],
                                     ["2", 0, "not named in plans_A.yaml"],
                                     ["3", 1, "named in plans_A.yaml"]]
    recall = pd.DataFrame({"qid": ["1", "2", "3"], "n_3": [0, 1, 1]})
    assert selection.select(named, recall, None, "plans_A.yaml").values.tolist() == \
        named.rename(columns={"candidate": "selected"}).values.tolist()
    with pytest.raises(ValueError, match="plans_A.yaml: names topics without judgements: .'3'"):
        selection.select(named, recall[recall["qid"] != "3"], None, "plans_A.yaml")
    with pytest.raises(ValueError, match="names topics that are not among the requests: .'9'"):
        selection.named_candidates(["1", "2"], ["1", "9"], "plans_A.yaml")


def test_the_evaluation_selects_by_the_plan_sets_rule_the_topics_rows_in_their_order():
    """select_by (the evaluate_runs job's selection): the criteria decide for rule
    'selected' only; every topic with its reason, and the selected topics' own rows in the
    collection's order, every column as read."""
    candidates = pd.DataFrame({"qid": ["5", "3", "4"], "candidate": [1, 1, 0],
                               "reason": ["", "", "1 facet(s) < 2"]})
    recall = pd.DataFrame({"qid": ["3", "4", "5"], "n_3": [2, 1, 0]})
    topics = pd.DataFrame({"qid": ["5", "4", "3"], "text": ["NA", "b", "0.10"]})
    setting = {"rule": "selected", "source": "selected", "criteria": {"min_highly_relevant": 1}}
    table, rows = selection.select_by(setting, candidates, recall, topics)
    assert table.values.tolist() == [["3", 1, "selected"], ["4", 0, "1 facet(s) < 2"],
                                     ["5", 0, "0 highly relevant document(s) < 1"]]
    assert rows.values.tolist() == [["3", "0.10"]]
    # named topics: no criteria, the names decide (topic 5 without a level-3 document too)
    named = {"rule": "named", "source": "list.txt", "criteria": {"min_highly_relevant": 9}}
    assert selection.select_by(named, candidates, recall, topics)[1].values.tolist() == [
        ["5", "NA"], ["3", "0.10"]]


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

TEXT = st.text(min_size=1, max_size=30).filter(lambda s: s.strip() == s and s != "")


@settings(max_examples=80, deadline=None)
@given(request=st.text(max_size=40), label=TEXT, key=TEXT, via=st.none() | TEXT,
       relation=st.sampled_from(RELATIONS), depth=st.integers(0, 5),
       importance=st.sampled_from(IMPORTANCE))
def test_yaml_round_trip_of_arbitrary_text(request, label, key, via, relation, depth, importance):
    plan = plans.Plan("q:1", request, [plans.Facet(label, importance, [plans.PlanConcept(
        label, None, key, [plans.PlanKey(key, relation, depth, via)])])])
    assert plans.parse_plans(plans.dump_plans([plan])) == [plan]


def test_a_request_without_concepts_keeps_its_plan(thesaurus):
    from gradedrel.queries import query_types
    model = planner.Planner.build(thesaurus, toy_pipeline, stats(), {}, {})
    plan = model.plan("9", "what is there?")
    assert plan.facets == []
    assert plans.parse_plans(plans.dump_plans([plan])) == [plan]
    assert query_types.compile_plan(plan, "WSYN/e", toy_pipeline) is None
    recall = pd.DataFrame({"qid": ["9"], "n_3": [1]})
    criteria = selection.Criteria()
    assert selection.select(selection.candidates([plan], criteria), recall,
                            criteria)["reason"].tolist() == [
        "0 facet(s) < 2; 0 thesaurus concept(s) < 1; expansion adds no key"]


def test_read_curated_joins_files_and_refuses_a_topic_curated_twice(tmp_path):
    from gradedrel.core.errors import InputError
    from gradedrel.plans import read_curated
    plan = ("plans:\n- qid: '{q}'\n  facets:\n  - name: f\n    concepts:\n"
            "    - label: c\n      keys: [c]\n")
    (tmp_path / "a.yaml").write_text(plan.format(q="1"))
    (tmp_path / "b.yaml").write_text(plan.format(q="2"))
    (tmp_path / "c.yaml").write_text(plan.format(q="1"))
    assert [p.qid for p in read_curated([tmp_path / "a.yaml", tmp_path / "b.yaml"])] == ["1", "2"]
    with pytest.raises(InputError, match="topic 1, also in .*a.yaml"):
        read_curated([tmp_path / "a.yaml", tmp_path / "c.yaml"])


@pytest.mark.parametrize("written", ["0001", "1.0", "NA", "null", "None", "nan", "'0001'",
                                     '"null"', "12"])
def test_a_plan_qid_is_read_as_written(written):
    text = (f"plans:\n- qid: {written}\n  request: lift\n  facets:\n  - name: lift\n"
            "    importance: major\n    concepts:\n    - label: lift\n      keys: [lift]\n")
    [plan] = plans.model.parse_plans(text, "p.yaml")
    assert plan.qid == written.strip("'\"")


WRITTEN_AS = ["0012", "1.10", "12:30", "0x1F", "yes", "off", "2020-01-02", ".inf"]


@pytest.mark.parametrize("written", WRITTEN_AS)
def test_plan_text_is_read_as_written(written):
    # YAML 1.1 reads these unquoted as 10 (octal), 1.1, 750 (base 60), 31, 1000.0, true,
    # false, a date, infinity; the query must hold what the curator wrote
    text = (f"plans:\n- qid: '1'\n  request: {written}\n  facets:\n  - name: {written}\n"
            f"    concepts:\n    - label: {written}\n      matched: {written}\n"
            f"      keys: [{written}, {{key: {written}, relation: request, via: {written}}}]\n"
            f"      expansion:\n      - {written}\n")
    [plan] = plans.parse_plans(text, "p.yaml")
    [facet] = plan.facets
    [concept] = facet.concepts
    assert {plan.request, facet.name, concept.label, concept.matched} == {written}
    assert [k.key for k in concept.all_keys(True)] == [written] * 3
    assert concept.keys[1].via == written
    # and written back quoted, so that it reads back the same
    assert plans.parse_plans(plans.dump_plans([plan]), "q.yaml") == [plan]


def test_numbers_and_nulls_outside_text_fields_keep_their_meaning():
    text = ("plans:\n- qid: '1'\n  version: 2\n  facets:\n  - name: f\n    specificity: 1.50\n"
            "    may_be_empty: yes\n    concepts:\n    - label: c\n      uri: null\n"
            "      keys: [{key: c, depth: 010}]\n")
    [plan] = plans.parse_plans(text, "p.yaml")
    assert (plan.version, plan.facets[0].specificity, plan.facets[0].may_be_empty) == (2, 1.5, True)
    assert plan.facets[0].concepts[0].uri is None
    assert plan.facets[0].concepts[0].keys[0].depth == 8


ONLY_EXPANSION = """plans:
- qid: '1'
  request: heat on wings
  source: curated
  facets:
  - name: heat
    concepts:
    - label: heat
      keys: [heat]
  - name: wings
    concepts:
    - label: wing
      keys: [wing]
    - label: airfoil
      keys: []
      expansion: [airfoil]
"""


def test_a_concept_without_an_unexpanded_key_is_refused_at_its_line():
    with pytest.raises(InputError, match=r"^p.yaml:14: expected concept with an "
                                         r"unexpanded key \('keys'\), or its facet marked "
                                         r"'may_be_empty: true'$"):
        plans.parse_plans(ONLY_EXPANSION, "p.yaml")
    marked = ONLY_EXPANSION.replace("  - name: wings\n", "  - name: wings\n    may_be_empty: true\n")
    [plan] = plans.parse_plans(marked, "p.yaml")
    assert plan.facets[1].may_be_empty and plan.facets[1].concepts[1].keys == []


def test_a_facet_name_given_twice_in_a_written_plan_is_refused_at_its_line():
    twice = ONLY_EXPANSION.replace("name: wings", "name: heat").replace("keys: []",
                                                                        "keys: [airfoil]")
    with pytest.raises(InputError, match=r"^p.yaml:10: expected facet names unique in a plan "
                                         r"\(facet 'heat' first at line 6\); found 'heat'$"):
        plans.parse_plans(twice, "p.yaml")
    # a planner's plan may name two facets alike (two request words, one label)
    plans.parse_plans(twice.replace("source: curated", "source: auto"), "p.yaml")


# ---------------------------------------------------------------- key provenance (protocol)

SOURCED = """plans:
- qid: '1'
  request: flutter of wings
  source: curated
  facets:
  - name: flutter
    concepts:
    - label: flutter
      uri: '#flutter'
      keys:
      - {key: flutter, relation: request}
      expansion:
      - {key: panel flutter, relation: NT, depth: 1, via: flutter, source: '#panel'}
      - {key: limit cycle oscillation, relation: curated, reason: standard term, source: literature}
      - {key: store flutter, relation: curated, reason: a cited study, source: literature, recalled: true}
"""


def test_key_source_and_recalled_are_read_and_written_back_only_when_set():
    [plan] = plans.parse_plans(SOURCED, "p.yaml")
    keys = plan.facets[0].concepts[0].expansion
    assert [(k.source, k.recalled) for k in keys] == [
        ("#panel", False), ("literature", False), ("literature", True)]
    assert plan.facets[0].concepts[0].keys == [plans.PlanKey("flutter", "request")]
    text = plans.dump_plans([plan])
    assert "- {key: panel flutter, relation: NT, depth: 1, via: flutter, source: '#panel'}" in text
    assert ("- {key: store flutter, relation: curated, reason: a cited study, source: literature, "
            "recalled: true}") in text
    assert "recalled: false" not in text and text.count("source:") == 4  # 3 keys + the plan's
    assert plans.parse_plans(text) == [plan]
    assert plans.dump_plans(plans.parse_plans(text)) == text
    # a key without them is written as before
    assert "source" not in plans.dump_plans([sample_plan()]).replace("source: auto", "")
    # recalled: false reads as not recalled
    assert plans.parse_plans(SOURCED.replace("recalled: true", "recalled: false")) == \
        plans.parse_plans(SOURCED.replace(", recalled: true", ""))


@pytest.mark.parametrize("edit, message", [
    (("reason: standard term, ", ""), r"p.yaml:14: expected search key with source 'literature' "
                                      r"and a 'reason'"),
    (("recalled: true", "recalled: 1"), r"p.yaml:15: expected search key.recalled as true or "
                                        r"false; found 1"),
    (("recalled: true", "recalled: often"), r"p.yaml:15: expected search key.recalled as true"),
    (("source: '#panel'", "source: ''"), r"p.yaml:13: expected search key.source as non-empty"),
    (("source: '#panel'", "source: ' #panel'"), r"p.yaml:13: expected search key.source "
                                                r"without surrounding spaces"),
    (("source: '#panel'", "source: null"), r"p.yaml:13: expected search key.source as a "
                                           r"thesaurus id or 'literature' \(quoted"),
    (("source: '#panel'", "sourced: '#panel'"), r"p.yaml:13: expected search key fields among"),
])
def test_key_source_and_recalled_are_validated_with_file_and_line(edit, message):
    with pytest.raises(InputError, match=message) as error:
        plans.parse_plans(SOURCED.replace(*edit), "p.yaml")
    assert "\n" not in str(error.value)


def test_block_style_unquoted_nasa_id_is_refused():
    text = SOURCED.replace("      - {key: panel flutter, relation: NT, depth: 1, via: flutter, "
                           "source: '#panel'}",
                           "      - key: panel flutter\n        relation: NT\n"
                           "        source: #panel")
    with pytest.raises(InputError, match=r"p.yaml:13: expected search key.source as a thesaurus"):
        plans.parse_plans(text, "p.yaml")


FROZEN = sorted((plans.model.Path(__file__).parents[2] / "config").glob("*/plans_*.yaml"))


@pytest.mark.parametrize("path", FROZEN, ids=lambda p: p.name)
def test_frozen_plan_files_have_no_key_provenance_and_are_written_as_before(path):
    """The frozen plans predate the protocol: no key has ``source`` or ``recalled``, so
    their plans are written exactly as before the fields existed."""
    read = plans.read_plans(path)
    keys = [k for p in read for c in p.concepts() for k in c.keys + c.expansion]
    assert keys and all(k.source is None and not k.recalled for k in keys)
    text = plans.dump_plans(read)
    assert plans.dump_plans(plans.parse_plans(text)) == text
    legacy = {"key", "relation", "depth", "via", "reason"}
    assert all(set(plans.model._key_dict(k)) <= legacy for k in keys)
