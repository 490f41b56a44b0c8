"""A curated key that the index's term pipeline reduces to nothing is reported (a row of
the exclusions, a warning in the job's log), not dropped silently with its facet; a facet
left without keys while others keep theirs stops the compilation, naming it."""
import json

import pytest

from gradedrel import plans
from gradedrel.core.errors import InputError
from gradedrel.queries import matchop, query_files
from tests.conftest import toy_pipeline


def plan(qid, facets):
    c, key = plans.PlanConcept, plans.PlanKey
    return plans.Plan(qid, "r", [plans.Facet(name, importance, [
        c(name, None, None, [key(k) for k in keys])]) for name, importance, keys in facets])


def compile_all(tmp_path, plan_list):
    paths = {"WSYN/u": str(tmp_path / "WSYN-u.jsonl"), "SUM/u": str(tmp_path / "SUM-u.jsonl")}
    return query_files.write_query_files(plan_list, paths, toy_pipeline,
                                         matchop.MatchOpWriter(toy_pipeline), None)


def test_a_void_key_is_a_row_of_the_exclusions_and_the_rest_runs(tmp_path):
    rows, excluded = compile_all(tmp_path, [plan("1", [("heat", "major", ["heat", "?!"]),
                                                       ("wings", "minor", ["wings"])])])
    assert excluded == [("1", "every", "key '?!' of facet 'heat' reduced to nothing by the "
                                       "index's term pipeline, left out")]
    assert [r["keys"] for r in rows] == [2, 2]  # heat and wings in both query types
    tree = json.loads((tmp_path / "WSYN-u.jsonl").read_text())["tree"]
    assert tree["weights"] == [10.0, 7.0]


def test_a_facet_left_without_keys_stops_naming_it(tmp_path):
    with pytest.raises(InputError, match=r"plan 2: expected every facet of plan 2 with a search "
                                         r"key left .*facet\(s\) \['wings'\]: keys \['the of', "
                                         r"'\?!'\] reduce to nothing"):
        compile_all(tmp_path, [plan("2", [("heat", "major", ["heat"]),
                                          ("wings", "minor", ["the of", "?!"])])])


def test_a_plan_with_no_key_at_all_is_excluded_as_before(tmp_path):
    rows, excluded = compile_all(tmp_path, [plan("3", [("x", "major", ["the"])])])
    assert rows == []
    assert ("3", "WSYN/u", query_files.NO_KEY) in excluded
    assert ("3", "every", "key 'the' of facet 'x' reduced to nothing by the index's term "
                          "pipeline, left out") in excluded


def test_unless_the_plan_marks_the_facet_may_be_empty(tmp_path):
    marked = plan("4", [("heat", "major", ["heat"]), ("wings", "minor", ["the of"])])
    marked.facets[1].may_be_empty = True
    rows, excluded = compile_all(tmp_path, [marked])
    assert [r["keys"] for r in rows] == [1, 1]
    assert excluded == [("4", "every", "key 'the of' of facet 'wings' reduced to nothing by "
                                       "the index's term pipeline, left out")]
    text = plans.dump_plans([marked])
    assert "may_be_empty: true" in text
    assert plans.parse_plans(text)[0].facets[1].may_be_empty is True
    assert "may_be_empty" not in plans.dump_plans([plan("5", [("x", "major", ["heat"])])])


PLAN_FILE = """\
plans:
- qid: '7'
  request: r
  source: curated
  facets:
  - name: heat
    concepts:
    - label: heat
      keys: [heat]
  - name: wings
    concepts:
    - label: wings
      keys: [the of]
      expansion: [wings]
"""


def test_a_facet_losing_every_unexpanded_key_stops_naming_file_and_line(tmp_path):
    # its expansion key survives, so before, /u queries left the facet out unnoticed
    path = tmp_path / "plans.yaml"
    path.write_text(PLAN_FILE)
    with pytest.raises(InputError) as caught:
        compile_all(tmp_path, plans.read_plans(path))
    assert str(caught.value).startswith(
        f"{path}:10: expected every facet of plan 7 with an unexpanded search key left after "
        "the index's term pipeline (or marked 'may_be_empty: true'); found \"facet(s) "
        "['wings']: keys ['the of'] reduce to nothing\"")


def test_the_void_facet_stop_names_file_and_line(tmp_path):
    path = tmp_path / "plans.yaml"
    path.write_text(PLAN_FILE.replace("expansion: [wings]", "expansion: ['?!']"))
    with pytest.raises(InputError, match=rf"^{path}:10: expected every facet of plan 7 with a "
                                         "search key left"):
        compile_all(tmp_path, plans.read_plans(path))


def test_a_facet_marked_may_lose_its_unexpanded_keys(tmp_path):
    path = tmp_path / "plans.yaml"
    path.write_text(PLAN_FILE.replace("  - name: wings\n", "  - name: wings\n    may_be_empty: true\n"))
    rows, excluded = compile_all(tmp_path, plans.read_plans(path))
    assert [r["keys"] for r in rows] == [1, 1]  # heat alone in both unexpanded types
    assert excluded == [("7", "every", "key 'the of' of facet 'wings' reduced to nothing by "
                                       "the index's term pipeline, left out")]


def test_a_built_concept_without_unexpanded_keys_stops_the_compilation(tmp_path):
    built = plan("8", [("heat", "major", ["heat"]), ("wings", "minor", [])])
    built.facets[1].concepts[0].expansion = [plans.PlanKey("wings")]
    with pytest.raises(InputError, match=r"^plan 8: expected every facet of plan 8 with an "
                                         r"unexpanded search key"):
        compile_all(tmp_path, [built])
