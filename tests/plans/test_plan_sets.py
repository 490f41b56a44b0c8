"""Plan sets read from config: defaults, paths resolved, validation naming the key."""
import pytest

from gradedrel.plans import plan_sets


def test_default_is_auto_on_the_selected_topics():
    sets = plan_sets.read("c", {})
    assert list(sets) == ["auto"]
    auto = sets["auto"]
    assert (auto.curated, auto.topic_rule, auto.topic_list) == ((), "selected", None)
    assert auto.merge_inputs("a.yaml") == {"auto": "a.yaml"}


def test_curated_and_named_topics_are_resolved_inputs(tmp_path):
    (tmp_path / "plans.yaml").write_text("[]\n")
    (tmp_path / "list.tsv").write_text("1\n")
    raw = {"plan_sets": {"expert": {"curated": "plans.yaml", "topics": "curated",
                                    "description": "by hand"},
                         "auto-30": {"topics": "list.tsv"}},
           "curator_agreement": {"first": "expert", "second": "expert"}}
    sets = plan_sets.read("c", raw, resolve=lambda p: str(tmp_path / p))
    expert, named = sets["expert"], sets["auto-30"]
    assert expert.topic_rule == "curated" and expert.description == "by hand"
    assert expert.merge_inputs("a.yaml") == {"auto": "a.yaml",
                                             "curated": [str(tmp_path / "plans.yaml")]}
    assert named.topic_rule == "named" and named.topic_list == str(tmp_path / "list.tsv")


@pytest.mark.parametrize("raw, named", [
    ({"plan_sets": {"x": {"topics": "curated"}}}, "plan_sets.x: topics 'curated'"),
    ({"plan_sets": {"x": {"colour": 1}}}, "unknown keys ['colour']"),
    ({"plan_sets": {"x": {"curated": ["a.yaml", "a.yaml"]}}}, "named twice"),
    ({"plan_sets": {"x": {}}, "curator_agreement": {"first": "x", "second": "y"}}, "['y']"),
])
def test_bad_plan_sets_fail_naming_the_key(raw, named):
    with pytest.raises(ValueError, match=r".*" + __import__("re").escape(named)):
        plan_sets.read("c", raw)


@pytest.mark.parametrize("sets, named", [
    ({"baseline": {}}, "plan_sets: 'baseline' should not be valid"),
    ({"x": {"derived_from": "auto", "keep": ["memory"]}}, "x.keep.0: 'memory' is not one of"),
    ({"x": {"derived_from": "auto", "keep": []}}, "x.keep: [] should be non-empty"),
    ({"x": {"derived_from": "auto", "drop": ["own"]}}, "unknown key 'drop'"),
    ({"x": {"derived_from": "auto", "without_rating": "maybe"}}, "'maybe' is not one of"),
    ({"x": {"derived_from": "auto", "without_recalled": "yes"}}, "not of type 'boolean'"),
])
def test_the_config_schema_refuses_reserved_names_and_bad_derivations(sets, named):
    """What plan_sets.read and transform.Derivation take as checked: the config schema's."""
    refused_by_the_schema("plan_sets", sets, named)


def refused_by_the_schema(key: str, value, named: str) -> None:
    """The project's config with cranfield's ``key`` set to ``value`` fails the schema with
    a message holding ``named``."""
    import copy

    from gradedrel.core import config
    from gradedrel.core.project import CONFIG, project_file

    raw = copy.deepcopy(config.read_file(project_file(CONFIG)))
    raw["collections"]["cranfield"][key] = value
    with pytest.raises(config.ConfigError, match=__import__("re").escape(named)):
        config.validate(raw)


def test_input_keys_name_plan_set_and_model():
    assert plan_sets.input_key("plans", "expert-B") == "plans/expert-B"
    assert plan_sets.input_key("means", "expert", "InQuery") == "means/expert/InQuery"


def test_several_curated_files_one_per_curator(tmp_path):
    for name in ("A", "C"):
        (tmp_path / f"plans_{name}.yaml").write_text("plans: []\n")
    raw = {"plan_sets": {"expert": {"curated": ["plans_A.yaml", "plans_C.yaml"],
                                    "topics": "curated"}}}
    expert = plan_sets.read("c", raw, resolve=lambda p: str(tmp_path / p))["expert"]
    files = [str(tmp_path / "plans_A.yaml"), str(tmp_path / "plans_C.yaml")]
    assert expert.curated == tuple(files)
    assert expert.merge_inputs("a.yaml") == {"auto": "a.yaml", "curated": files}


def test_a_plan_set_may_name_its_thesaurus():
    sets = plan_sets.read("nf", {"plan_sets": {"auto-mesh": {}, "auto-wordnet": {"thesaurus": "wordnet"}}})
    assert sets["auto-mesh"].thesaurus is None and sets["auto-wordnet"].thesaurus == "wordnet"


def test_collection_analysis_settings_replace_global_ones():
    from gradedrel.plans.analysis import collection_settings

    glob = {"boilerplate_words": ["papers"], "facet_grouping": ["thesaurus"], "major_share": 0.5}
    merged = collection_settings(glob, {"analysis": {"boilerplate_words": ["video"],
                                                     "facet_grouping": []}})
    assert merged == {"boilerplate_words": ["video"], "facet_grouping": [], "major_share": 0.5}
    assert collection_settings(glob, {}) == glob


def test_the_config_schema_refuses_unknown_collection_analysis_settings():
    """What analysis.collection_settings takes as checked: the config schema's."""
    refused_by_the_schema("analysis", {"boilerplate": []}, "'boilerplate'")
