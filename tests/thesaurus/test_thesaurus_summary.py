"""Thesaurus summary counts, worked out by hand on the fixture."""
from pathlib import Path

from gradedrel.thesaurus.skos import read_skos
from gradedrel.thesaurus.summary import statistics

MINI_RDF = Path(__file__).parents[1] / "fixtures" / "thesaurus" / "mini_skos.rdf"


def test_summary_of_fixture_matches_hand_count():
    table = statistics(read_skos(MINI_RDF))
    values = dict(zip(table["statistic"], table["value"]))
    expected = {
        # #100 #200 #110 #900 #300 #310 #c400 c120 #500
        "concepts": 9, "preferred_concepts": 8, "entry_terms": 1, "entry_terms_split": 0,
        "entry_terms_with_relations": 0, "entry_labels_not_alt_of_target": 0,
        "concepts_without_pref_label": 1, "concepts_with_several_pref_labels": 1,
        "pref_labels_marked": 1, "marked_labels_with_unmarked_twin": 0,
        "alt_labels": 4, "concepts_with_alt_labels": 2, "labels_naming_several_concepts": 0,
        "definitions": 3, "top_concepts": 4,
        # c120 -> other/c100 dangles; the others are mirrored by NT.
        "BT_links": 4, "BT_links_not_reciprocal": 0, "BT_links_dangling": 1,
        "NT_links": 4, "NT_links_not_reciprocal": 0, "NT_links_dangling": 1,
        # #100 -> #c400 is not returned by #c400; #c400 -> #999 dangles.
        "RT_links": 6, "RT_links_not_reciprocal": 1, "RT_links_dangling": 1,
        "USE_links": 1, "USE_links_not_reciprocal": 0, "USE_links_dangling": 0,
        "UF_links": 1, "UF_links_not_reciprocal": 0, "UF_links_dangling": 0,
        "max_NT_per_concept": 2, "max_RT_per_concept": 2,
    }
    assert values == expected
    described = dict(zip(table["statistic"], table["description"]))
    assert described["max_RT_per_concept"].endswith("(loads (forces))")
