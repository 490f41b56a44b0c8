"""`gradedrel thesaurus lookup`: matching levels, output, and config resolution."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gradedrel.cli import main
from gradedrel.thesaurus import sources
from gradedrel.thesaurus.lookup import find, s_stem
from gradedrel.thesaurus.skos import read_skos

ROOT = Path(__file__).resolve().parents[2]
MINI_RDF = Path(__file__).parents[1] / "fixtures" / "thesaurus" / "mini_skos.rdf"


@pytest.mark.parametrize("word, stem", [
    ("wings", "wing"), ("bodies", "body"), ("aeries", "aery"), ("series", "sery"),
    ("loads", "load"), ("flows", "flow"), ("shoes", "shoe"), ("toes", "toe"), ("trees", "tree"),
    ("gas", "gas"), ("stress", "stress"), ("radius", "radius"), ("is", "is"),
])
def test_s_stemmer_strips_plurals(word, stem):
    assert s_stem(word) == stem


# Words on which the curators' lookup and the automatic analysis once disagreed (two
# stemmers): one stemmer (gradedrel.core.text.s_stem) now serves both.
AGREEMENT = {"gases": "gas", "boxes": "box", "classes": "class", "axis": "axis",
             "crisis": "crisis", "uses": "us", "analyses": "analys"}


def test_lookup_and_analysis_share_one_stem():
    from gradedrel.core import text
    from gradedrel.plans import analysis
    from gradedrel.thesaurus import lookup

    assert lookup.s_stem is text.s_stem and analysis.s_stem is text.s_stem
    assert {w: text.s_stem(w) for w in AGREEMENT} == AGREEMENT


def test_find_levels_and_order():
    thesaurus = read_skos(MINI_RDF)
    matches = find(thesaurus, "Flutter")
    assert [(m.uri, m.level) for m in matches] == [
        ("#200", "label"), ("#110", "prefix")]
    assert [(m.uri, m.level, m.label) for m in find(thesaurus, "wing")] == [
        ("#310", "label", "wing")]
    assert [(m.uri, m.level) for m in find(thesaurus, "WINGS", ("label",))] == [("#310", "label")]
    assert [(m.uri, m.level) for m in find(thesaurus, "structure")] == [("#300", "stem")]
    aero = {m.uri: m.level for m in find(thesaurus, "aeroelastic")}
    # 'aeroelastic flutter' (an altLabel of #200 and the entry term #900) and
    # 'aeroelasticity' (#100) and 'divergence (aeroelasticity)' begin with the term.
    assert aero == {"#200": "prefix", "#100": "prefix",
                    "http://example.org/other/c120": "prefix"}
    assert find(thesaurus, "helicopter") == []


def test_entry_term_leads_to_preferred_concept():
    thesaurus = read_skos(MINI_RDF)
    (match,) = find(thesaurus, "aeroelastic flutter", ("label",))
    # The altLabel on #200 and the entry term #900 both name it; #200 is shown once.
    assert match.uri == "#200" and match.via is None


def test_cli_prints_uf_bt_nt_rt(capsys):
    assert main(["thesaurus", "lookup", "aeroelasticity", "--path", str(MINI_RDF),
                 "--match", "label"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("aeroelasticity  [#100]  label match")
    assert "  BT  ~ structures" in out
    assert "  NT  #120; panel flutter" in out  # a dangling link shows its URI
    assert "  RT  flutter; loads (forces)" in out
    assert "  DEF The study of the response" in out
    assert main(["thesaurus", "lookup", "flutter", "--path", str(MINI_RDF)]) == 0
    out = capsys.readouterr().out
    assert "  UF  aeroelastic flutter; flutter (aeroelasticity)" in out


def test_cli_no_match_and_limit(capsys):
    assert main(["thesaurus", "lookup", "zeppelin", "--path", str(MINI_RDF)]) == 0
    assert capsys.readouterr().out == "no concept matches 'zeppelin'\n"
    assert main(["thesaurus", "lookup", "aeroelastic", "--path", str(MINI_RDF),
                 "--limit", "1"]) == 0
    assert "... 2 more" in capsys.readouterr().out


def test_cli_reports_bad_source_in_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.rdf"
    bad.write_text("<rdf:RDF")
    assert main(["thesaurus", "lookup", "x", "--path", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("gradedrel: ") and str(bad) in err and len(err.splitlines()) == 1


def test_thesaurus_pins_come_from_config_only(tmp_path):
    pinned = sources.project_thesauri()["nasa"]  # config/config.yaml, the one place
    assert pinned["sha256"] == yaml.safe_load(
        (ROOT / "config" / "config.yaml").read_text())["thesauri"]["nasa"]["sha256"]
    assert not hasattr(sources, "NASA")
    config = {"thesauri": {"mini": {"url": MINI_RDF.as_uri(), "sha256": "0" * 64,
                                    "path": "mini.rdf"}}}
    with pytest.raises(ValueError, match="no thesaurus named 'agrovoc'"):
        sources.entry("agrovoc", config)
    with pytest.raises(ValueError, match="sha256 mismatch"):
        sources.ensure("mini", config, root=tmp_path)


def test_non_ascii_labels_match_whole_words():
    """Labels are tokenised like the index (Unicode letters kept): "résumé" is not "sum",
    and a term with accents or Greek letters finds its concept."""
    from gradedrel.thesaurus.model import Concept, Thesaurus

    thesaurus = Thesaurus.from_concepts([
        Concept("#sums", "sums", (), (), (), ()),
        Concept("#sjogren", "Sjögren's Syndrome", ("Sjögren Syndrome",), (), (), ()),
        Concept("#beta", "beta Carotene", ("β-Carotene",), (), (), ()),
    ])
    assert [m.uri for m in find(thesaurus, "résumé")] == []
    assert [m.uri for m in find(thesaurus, "sjögren syndrome")] == ["#sjogren"]
    assert [(m.uri, m.level) for m in find(thesaurus, "β-carotene")] == [("#beta", "label")]
