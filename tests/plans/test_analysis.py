"""Request analysis: label matching, boilerplate, unknown words (hand-worked cases)."""
from gradedrel.plans import analysis
from tests.conftest import toy_pipeline


def analyse(text, thesaurus, **rules):
    rules = analysis.Rules(**rules)
    normalise = analysis.TokenNormaliser(toy_pipeline, rules.strict_stems)
    lexicon = analysis.build_lexicon(thesaurus, normalise, rules.allowed_qualifiers)
    return analysis.analyse_request(text, thesaurus, lexicon, normalise, rules)


def test_clean_label_strips_nasa_mark_and_qualifier():
    assert analysis.clean_label("~ aircraft") == ("aircraft", None)
    assert analysis.clean_label("associations (organizations)") == ("associations", "organizations")
    assert analysis.clean_label("heat transfer") == ("heat transfer", None)


def test_plural_stripper_is_harmans():
    """Harman's S-stemmer (rule table: tests/core/test_text.py): diseases/disease agree,
    Porter's conflations solutions/solutes do not."""
    assert [analysis.s_stem(w) for w in ["diseases", "bodies", "flows", "solutes",
                                         "solutions", "class"]] == \
        ["disease", "body", "flow", "solute", "solution", "class"]


def test_longest_match_first_and_alt_label_leads_to_preferred(thesaurus):
    found = analyse("turbulent boundary layer flow over wings", thesaurus)
    assert [(m.label, m.uri, m.matched) for m in found] == [
        ("turbulent boundary layer", "#tbl", "turbulent boundary layer"),
        ("flow", "#flow", "flow"),
        ("wings", "#wing", "wings")]
    found = analyse("heat flow at high incidence angle", thesaurus)
    assert [(m.uri, m.via, m.matched) for m in found] == [
        ("#ht", "altLabel", "heat flow"), (None, "request", "high"),
        ("#aoa", "altLabel", "incidence angle")]


def test_stopwords_inside_labels_and_plurals(thesaurus):
    found = analyse("angles of attack of bodies in gases", thesaurus)
    assert [(m.uri, m.matched) for m in found] == [
        ("#aoa", "angles of attack"), (None, "bodies"), ("#gas", "gases")]


def test_porter_conflations_are_not_matches(thesaurus):
    found = analyse("flow solutions associated with development", thesaurus)
    assert [(m.uri, m.label) for m in found] == [
        ("#flow", "flow"), (None, "solutions"), (None, "associated"), ("#dev", "development")]
    loose = analyse("flow solutions", thesaurus, strict_stems=False)
    assert [m.uri for m in loose] == ["#flow", "#solute"]  # what strict matching prevents


def test_qualified_labels_can_be_restricted(thesaurus):
    assert analyse("associations", thesaurus)[0].uri == "#assoc"
    restricted = analyse("associations", thesaurus, allowed_qualifiers=frozenset({"mechanics"}))
    assert restricted[0].uri is None


def test_boilerplate_is_not_a_concept_and_no_content_word_is_lost(thesaurus):
    text = "are there any papers on non linear heat transfer in wings"
    found = analyse(text, thesaurus, boilerplate_phrases=("are there any",),
                    boilerplate_words=frozenset({"papers"}), prefix_words=frozenset({"non"}))
    assert [m.matched for m in found] == ["non linear", "heat transfer", "wings"]
    plain = analyse(text, thesaurus)
    assert [m.matched for m in plain] == ["papers", "non", "linear", "heat transfer", "wings"]


def test_hostile_text_gives_only_safe_concepts(thesaurus):
    found = analyse("what's -dash heat/transfer?? + é ü  ===", thesaurus)
    # letters of any script are tokens (Terrier's UTF tokeniser); symbols are separators
    assert [m.matched for m in found] == ["s", "dash", "heat transfer", "é", "ü"]


def test_exact_wording_wins_among_labels_that_match_alike():
    from gradedrel.thesaurus import Concept
    from thesaurus_cases import thesaurus_of
    thesaurus = thesaurus_of([Concept("#1", "~ lifts"), Concept("#2", "lift")])
    assert [m.uri for m in analyse("lift and lifts", thesaurus)] == ["#2", "#1"]
    assert [m.uri for m in analyse("lifts", thesaurus)] == ["#1"]
