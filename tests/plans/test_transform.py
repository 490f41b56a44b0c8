"""Derived plan sets (Amendment 1, A2): the plan-set transform on hand-made plans."""
import pandas as pd
import pytest

from gradedrel.plans import key_sources, transform
from gradedrel.plans.model import dump_plans, parse_plans
from tests.conftest import toy_pipeline
from tests.key_source_cases import DERIVATIONS, PLANS, REQUESTS, wing_thesaurus

MORE = """
- qid: '3'
  request: spanwise stiffness of wings
  source: curated
  curator: E
  note: stiffness is the point
  facets:
  - name: hush
    concepts:
    - label: hush
      uri: null
      keys:
      - {key: hush kits, relation: curated}
  - name: wings
    importance: minor
    concepts:
    - label: wings
      uri: '#wing'
      keys:
      - {key: wings, relation: request}
    - label: quiet
      uri: null
      keys:
      - {key: quietness, relation: curated}
- qid: '4'
  request: wings
  source: curated
  curator: E
  facets:
  - name: all own
    concepts:
    - label: noise
      uri: null
      keys:
      - {key: hush kits, relation: curated}
      expansion:
      - {key: rocket engines, relation: curated}
"""
TEXTS = {**REQUESTS, "3": "spanwise stiffness of wings", "4": "wings"}


@pytest.fixture
def plans():
    return parse_plans(PLANS + MORE)


@pytest.fixture
def sources(plans):
    found = key_sources.KeySources(wing_thesaurus(), toy_pipeline)
    return key_sources.classify(plans, TEXTS, found, {"1": "C"})


def keys_of(plan, kind=None):
    return [k.key for c in plan.concepts() for k in
            (c.keys + c.expansion if kind is None else getattr(c, kind))]


def test_thesaurus_plans_keep_request_and_thesaurus_keys(plans, sources):
    derived = transform.derive(plans, sources, DERIVATIONS["thesaurus"], parent="expert")
    one = derived.plans[0]
    assert keys_of(one) == ["wings", "wing", "wing structures", "swept wings", "delta wings",
                            "gust loads", "vanes", "flutter wings", "of",
                            "aeroelastic flutter", "divergence", "swept wings"]
    assert one.source == "derived" and one.curator == "C"
    summary = derived.summary.set_index("qid")
    assert summary.loc["1", ["keys", "kept", "dropped_other_concept", "dropped_own",
                             "concepts_dropped", "facets_dropped", "empty"]].tolist() == \
        [15, 12, 2, 1, 0, 0, 0]


def test_a_derived_facet_keeps_its_may_be_empty_mark(plans, sources):
    plans[2].facets[1].may_be_empty = True   # request 3's facet "wings"
    derived = {p.qid: p for p in transform.derive(plans, sources,
                                                  DERIVATIONS["no-own"]).plans}
    assert [(f.name, f.may_be_empty) for f in derived["3"].facets] == [("wings", True)]


def test_dropped_concepts_facets_and_an_emptied_plan_are_counted(plans, sources):
    derived = transform.derive(plans, sources, DERIVATIONS["request"], parent="expert")
    summary = derived.summary.set_index("qid")
    three = derived.plans[2]
    # "hush kits" (own) goes with its concept and facet; "quietness" (own) with its concept
    assert [f.name for f in three.facets] == ["wings"]
    assert [c.label for c in three.concepts()] == ["wings"]
    assert three.note == "stiffness is the point"
    assert summary.loc["3", ["concepts_dropped", "facets_dropped", "empty"]].tolist() == [2, 1, 0]
    four = derived.plans[3]
    assert four.facets == [] and four.qid == "4"
    assert four.note == "Derived from expert (keys of class request): no key left; runs as no query."
    assert summary.loc["4", ["keys", "kept", "dropped_own", "dropped_other_concept", "empty"]].tolist() \
        == [2, 0, 1, 1, 1]
    assert summary["empty"].sum() == 1
    # the writer's file reads back, the emptied plan included
    again = parse_plans(dump_plans(derived.plans))
    assert [p.qid for p in again] == ["1", "2", "3", "4"] and again[3].facets == []
    assert again[1].curator == "auto"


def test_derived_key_sources_are_the_derived_plans_classified(plans, sources):
    for name in ("thesaurus", "no-own", "request"):
        derived = transform.derive(plans, sources, DERIVATIONS[name])
        again = key_sources.classify(derived.plans, TEXTS,
                                     key_sources.KeySources(wing_thesaurus(), toy_pipeline))
        pd.testing.assert_frame_equal(derived.key_sources, again, check_dtype=False)
        assert set(derived.key_sources["source_class"]) <= DERIVATIONS[name].keep


def test_only_the_plan_sets_requests_are_derived(plans, sources):
    derived = transform.derive(plans, sources[sources["qid"] != "2"],
                               DERIVATIONS["no-own"])
    assert [p.qid for p in derived.plans] == ["1", "3", "4"]
    assert derived.left_out_plans == ["2"]


def test_key_sources_of_other_plans_are_an_error(plans, sources):
    changed = sources.copy()
    changed.loc[3, "key"] = "swept wing"
    with pytest.raises(ValueError, match="do not match the plans"):
        transform.derive(plans, changed, DERIVATIONS["thesaurus"])
    extra = pd.concat([sources, sources.iloc[[0]].assign(key_no=9)], ignore_index=True)
    with pytest.raises(ValueError, match="keys the plans do not"):
        transform.derive(plans, extra, DERIVATIONS["thesaurus"])


RATED = [("1", "rocket engines", "inferable"), ("1", "ogee wings", "page"),
         ("1", "spanwise stiffness", "page"), ("3", "hush kits", "inferable"),
         ("3", "quietness", "inferable"), ("4", "hush kits", "page"),
         ("4", "rocket engines", "page")]


def test_inferable_plans_leave_out_keys_rated_page(plans, sources):
    ratings = transform.ratings_table(pd.DataFrame(RATED, columns=["qid", "key", "rating"]))
    derived = transform.derive(plans, sources, DERIVATIONS["inferable"], ratings)
    one = derived.plans[0]
    assert "ogee wings" not in keys_of(one) and "spanwise stiffness" not in keys_of(one)
    assert "rocket engines" in keys_of(one)
    summary = derived.summary.set_index("qid")
    assert summary.loc["1", "dropped_rated"] == 2 and summary.loc["4", "empty"] == 1
    assert summary.loc["3", "kept"] == 3


def test_ratings_must_cover_every_own_key_and_only_the_plans_keys(plans, sources):
    frame = pd.DataFrame(RATED[:-1], columns=["qid", "key", "rating"])
    with pytest.raises(ValueError, match="no rating"):
        transform.derive(plans, sources, DERIVATIONS["inferable"],
                         transform.ratings_table(frame))
    extra = pd.DataFrame(RATED + [("3", "not a key", "page")], columns=["qid", "key", "rating"])
    with pytest.raises(ValueError, match="ratings name 1 keys"):
        transform.derive(plans, sources, DERIVATIONS["inferable"],
                         transform.ratings_table(extra))
    with pytest.raises(ValueError, match="needs ratings"):
        transform.derive(plans, sources, DERIVATIONS["inferable"])


def test_ratings_table_checks_values_and_reads_one_plan_set():
    items = pd.DataFrame([("i1", "a", "1", "k")], columns=["item_id", "plan_set", "qid", "key"])
    bad = pd.DataFrame([("i1", "maybe")], columns=["item_id", "rating"])
    with pytest.raises(ValueError, match=r"r.tsv:2: expected a rating, one of"):
        transform.join_ratings(items, {"r.tsv": bad})
    twice = pd.DataFrame([("1", "k", "page"), ("1", "k", "inferable")],
                         columns=["qid", "key", "rating"])
    with pytest.raises(ValueError, match=r"r.tsv:3: expected one rating"):
        transform.ratings_table(twice, "r.tsv")
    several = pd.DataFrame([("a", "1", "k", "page"), ("b", "1", "k", "bad")],
                           columns=["plan_set", "qid", "key", "rating"])
    assert transform.ratings_table(several, plan_set="a") == {("1", "k"): "page"}


def test_derivations_from_config():
    """(Bad derivations stop at the config schema: tests/plans/test_plan_sets.py.)"""
    assert transform.Derivation.from_config({"keep": ["request", "thesaurus"]}).keep == \
        DERIVATIONS["thesaurus"].keep


def test_recalled_keys_are_left_out_and_counted_when_asked():
    """Amendment 2, B7: fresh-mesh-thesaurus keeps request and thesaurus keys, less every
    key its curator marked recalled (a thesaurus label among them)."""
    marked = parse_plans(PLANS.replace("{key: swept wings, relation: NT, depth: 1",
                                       "{key: swept wings, recalled: true, relation: NT, "
                                       "depth: 1", 1))
    assert sum(k.recalled for p in marked for c in p.concepts() for k in c.expansion) == 1
    found = key_sources.KeySources(wing_thesaurus(), toy_pipeline)
    sources = key_sources.classify(marked, REQUESTS, found, {"1": "C"})
    spec = {"keep": ["request", "thesaurus"], "without_recalled": True}
    derivation = transform.Derivation.from_config(spec, "fresh-thesaurus")
    assert derivation.describe() == \
        "keys of class request, thesaurus, less those marked recalled"
    derived = transform.derive(marked, sources, derivation, parent="fresh")
    without = transform.derive(marked, sources, DERIVATIONS["thesaurus"], parent="fresh")
    assert keys_of(without.plans[0]).count("swept wings") == 2
    assert keys_of(derived.plans[0]).count("swept wings") == 1
    row = derived.summary.set_index("qid").loc["1"]
    assert (row["dropped_recalled"], row["kept"]) == (1, 11)


def test_page_shares_per_curator():
    sources = pd.DataFrame([("1", "a", "own", "A"), ("1", "a", "own", "A"),   # one key twice
                            ("1", "b", "other_concept", "A"), ("2", "c", "own", "B"),
                            ("2", "d", "thesaurus", "B")],
                           columns=["qid", "key", "source_class", "curator"])
    ratings = {("1", "a"): "page", ("1", "b"): "inferable", ("2", "c"): "page"}
    table = transform.page_shares(sources, ratings).set_index("curator")
    assert table.loc["A", ["rated_keys", "page", "inferable", "share_page"]].tolist() == \
        [2, 1, 1, 0.5]
    assert table.loc["all", ["rated_keys", "page"]].tolist() == [3, 2]
    with pytest.raises(ValueError, match="no rating"):
        transform.page_shares(sources, {("1", "a"): "page"})


EXPANSION_ONLY = """
- qid: '5'
  request: wings
  source: curated
  curator: E
  facets:
  - name: wings
    concepts:
    - label: wings
      uri: '#wing'
      keys:
      - {key: hush kits, relation: curated}
      expansion:
      - {key: wings, relation: request}
"""


def test_a_concept_left_with_expansion_keys_only_marks_its_facet(plans):
    # the derived file must read back: such a concept needs its facet marked may_be_empty
    more = parse_plans(PLANS + MORE + EXPANSION_ONLY)
    found = key_sources.KeySources(wing_thesaurus(), toy_pipeline)
    sources = key_sources.classify(more, {**TEXTS, "5": "wings"}, found, {"1": "C"})
    derived = transform.derive(more, sources, DERIVATIONS["no-own"])
    five = derived.plans[-1]
    assert [(c.keys, [k.key for k in c.expansion]) for c in five.concepts()] == [([], ["wings"])]
    assert five.facets[0].may_be_empty
    again = parse_plans(dump_plans(derived.plans), "derived.yaml")
    assert again == derived.plans
    # marked: exactly the facets with such a concept
    assert all(f.may_be_empty == any(not c.keys for c in f.concepts)
               for p in again for f in p.facets)
