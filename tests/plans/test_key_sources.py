"""Key source classes (Amendment 1, A1) on hand-made plans and a hand-made thesaurus whose
classes, paths and declared relations were worked out by hand."""
import pandas as pd
import pytest

from gradedrel.plans import analysis, key_sources
from gradedrel.plans.model import parse_plans
from tests.conftest import toy_pipeline
from tests.key_source_cases import PLANS, REQUESTS, wing_thesaurus


# (key, list, class, verified relation, declared holds, label_of) worked out by hand
EXPECTED = [
    ("wings", "keys", "request", "UF depth 0", "", "#wing"),
    ("wing", "keys", "request", "UF depth 0", "", "#wing"),
    ("wing structures", "expansion", "thesaurus", "UF depth 0", "yes", "#wing"),   # alt label
    ("swept wings", "expansion", "thesaurus", "NT depth 1", "yes", "#swept"),
    ("delta wings", "expansion", "thesaurus", "NT\u00b7NT depth 2", "yes", "#delta"),
    # declared RT of wings, but gust loads is an NT of wing loading, the RT of wings
    ("gust loads", "expansion", "thesaurus", "RT\u00b7NT depth 2", "no", "#gust"),
    ("rocket engines", "expansion", "other_concept", "", "no", "#rocket"),
    ("ogee wings", "expansion", "other_concept", "", "", "#ogee"),   # three steps: too far
    ("spanwise stiffness", "expansion", "own", "", "", ""),
    ("vanes", "expansion", "thesaurus", "UF depth 0", "", "#wing"),   # entry term of wings
    ("flutter wings", "expansion", "request", "", "", ""),   # request words, not a label
    ("of", "expansion", "request", "", "", ""),             # no indexed term: rule 1 as written
    ("aeroelastic flutter", "keys", "request", "UF depth 0", "", "#flutter"),
    ("divergence", "expansion", "thesaurus", "RT depth 1", "yes", "#divergence"),
    # reached as NT of wings and as RT of flutter: NT first; declared RT via a URI qualifier
    ("swept wings", "expansion", "thesaurus", "NT depth 1", "yes", "#swept"),
    ("rocket engines", "keys", "request", "UF depth 0", "", "#rocket"),
]


@pytest.fixture
def sources():
    return key_sources.KeySources(wing_thesaurus(), toy_pipeline)


@pytest.fixture
def table(sources):
    return key_sources.classify(parse_plans(PLANS), REQUESTS, sources, {"1": "C"})


def test_classes_paths_and_declared_relations(table):
    got = list(table[["key", "list", "source_class", "verified_relation", "declared_holds",
                      "label_of"]].itertuples(index=False, name=None))
    assert got == EXPECTED
    assert list(table.columns) == key_sources.COLUMNS


def test_columns_a_reader_needs(table):
    first = table.iloc[0]
    assert (first.qid, first.facet, first.concept, first.curator) == ("1", "wings", "wings", "C")
    delta = table[table["key"] == "delta wings"].iloc[0]
    assert (delta.depth, delta.seed, delta.terms, delta.declared_depth, delta.declared_via) == \
        ("2", "#wing", "delta wing", "2", "swept wings")
    assert table[table["key"] == "of"].iloc[0].terms == ""
    divergence = table[table["key"] == "divergence"].iloc[0]
    assert divergence.declared_depth == "0"      # written without depth: checked at depth 1
    own = table[table["key"] == "spanwise stiffness"].iloc[0]
    assert (own.depth, own.seed) == ("", "")
    assert table[table["qid"] == "2"].iloc[0].curator == "auto"
    positions = table[["qid", "facet_no", "concept_no", "list", "key_no"]]
    assert not positions.duplicated().any()
    assert tuple(table.iloc[-2][["facet_no", "concept_no", "list", "key_no"]]) == \
        (1, 0, "expansion", 1)


def test_seeds_are_matched_labels_longest_first_without_boilerplate(sources):
    assert sources.seeds("aeroelastic flutter of wings") == {"#flutter": 1, "#wing": 1}
    # an entry term found in the request stands for its preferred concept
    assert list(sources.seeds("vanes")) == ["#wing"]
    # boilerplate is not removed for seeds, whatever the analysis settings say
    rules = analysis.Rules(boilerplate_words=frozenset({"papers"}),
                           boilerplate_phrases=("papers on",))
    with_rules = key_sources.KeySources(wing_thesaurus(), toy_pipeline, rules)
    assert list(with_rules.seeds("papers on wings")) == ["#papers", "#wing"]


def test_a_word_of_several_concepts_seeds_every_one():
    """Amendment 2, B2: 'cancer' is a label of the disease and of the crab genus; both seed,
    the analysis's own choice (the preferred label, then the URI) first, and the narrower
    concept of the second sense is reached from the request (it was 'other_concept' when only
    the lowest id seeded)."""
    from gradedrel.thesaurus.model import Concept
    from thesaurus_cases import thesaurus_of

    thesaurus = thesaurus_of([
        Concept("#crab", "cancer", narrower=("#rock",)),
        Concept("#rock", "rock crab", broader=("#crab",)),
        Concept("#tumour", "malignant neoplasm", ("cancer",), narrower=("#carcinoma",)),
        Concept("#carcinoma", "carcinoma", broader=("#tumour",)),
    ])
    sources = key_sources.KeySources(thesaurus, toy_pipeline)
    assert sources.seeds("cancer in children") == {"#crab": 2, "#tumour": 2}
    plans = parse_plans("""plans:
- qid: 'q'
  request: cancer in children
  source: curated
  curator: X
  facets:
  - name: cancer
    concepts:
    - label: cancer
      keys: [{key: cancer, relation: request}]
      expansion: [{key: carcinoma, relation: NT, depth: 1, via: cancer}, rock crab, crab]
""")
    table = key_sources.classify(plans, {"q": "cancer in children"}, sources)
    got = {r.key: (r.source_class, r.verified_relation, r.seed, r.seed_senses)
           for r in table.itertuples()}
    assert got == {"cancer": ("request", "UF depth 0", "#crab", "2"),
                   "carcinoma": ("thesaurus", "NT depth 1", "#tumour", "2"),
                   "rock crab": ("thesaurus", "NT depth 1", "#crab", "2"),
                   "crab": ("own", "", "", "")}


def test_reach_is_shortest_with_relations_ranked_before_seeds(sources):
    reached = sources.reach(["#flutter", "#wing"])
    assert reached["#swept"].chain == ("NT",) and reached["#swept"].seed == "#wing"
    assert reached["#gust"].relation == "RT\u00b7NT depth 2"
    assert "#ogee" not in reached and "#rocket" not in reached
    assert reached["#wing"].depth == 0


def test_a_curated_plan_without_curator_is_an_error(sources):
    with pytest.raises(ValueError, match="no curator"):
        key_sources.classify(parse_plans(PLANS), REQUESTS, sources, {})


def test_a_request_without_plan_is_an_error(sources):
    with pytest.raises(ValueError, match="no plan for requests"):
        key_sources.classify(parse_plans(PLANS), {**REQUESTS, "9": "x"}, sources, {"1": "C"})


def test_only_the_given_requests_are_classified(sources):
    table = key_sources.classify(parse_plans(PLANS), {"2": "rocket engines"}, sources)
    assert table["qid"].tolist() == ["2"]


def test_shares_per_request_and_per_curator(table):
    per_request = key_sources.shares(table, "qid")
    one = per_request[(per_request["qid"] == "1")].set_index("scope")
    assert one.loc["all keys", ["keys", "request", "thesaurus", "other_concept", "own"]].tolist() \
        == [15, 5, 7, 2, 1]
    assert one.loc["expansion keys", ["keys", "request", "thesaurus", "other_concept",
                                      "own"]].tolist() == [12, 2, 7, 2, 1]
    assert one.loc["all keys", "share_thesaurus"] == pytest.approx(7 / 15)
    assert one.loc["all keys", ["declared_checked", "declared_not_holding"]].tolist() == [7, 2]
    assert one.loc["all keys", "curator"] == "C"
    per_curator = key_sources.shares(table, "curator").set_index(["curator", "scope"])
    assert per_curator.loc[("all", "all keys"), "keys"] == 16
    assert per_curator.loc[("all", "all keys"), "requests"] == 2
    assert per_curator.loc[("auto", "expansion keys"), "keys"] == 0
    assert per_curator.loc[("C", "all keys"), "own"] == 1


def test_read_curators_and_key_sources_round_trip(tmp_path, table):
    batches = tmp_path / "batches.tsv"
    batches.write_text("qid\tfirst_curator\tsecond_curator\n1\tD\tG\n2\tC\t\n")
    assert key_sources.read_curators(str(batches), "first_curator") == {"1": "D", "2": "C"}
    assert key_sources.read_curators(str(batches), "second_curator") == {"1": "G"}
    with pytest.raises(ValueError, match="curator"):
        key_sources.read_curators(str(batches), "curator")
    path = tmp_path / "key_sources.tsv"
    table.to_csv(path, sep="\t", index=False)
    back = key_sources.read(str(path))
    pd.testing.assert_frame_equal(back, table.astype({"facet_no": int, "concept_no": int,
                                                      "key_no": int}))
    broken = path.read_text().replace("\tother_concept\t", "\tmemory\t", 1)
    path.write_text(broken)
    with pytest.raises(ValueError, match=r"key_sources.tsv:\d+: expected source_class"):
        key_sources.read(str(path))
