"""Probe v2's amended cited-study rule (Amendment 2, B5-B6) on hand-made answers, judgements
and titles whose similarities, null rates and verdicts were worked out by hand."""
import math

import numpy as np
import pandas as pd
import pytest

from gradedrel.core.errors import InputError
from gradedrel.integrity import cited_studies as cs, memory_probe as mp
from gradedrel.integrity.memory_probe import Answer, Study

SEED = 20000724   # a seed, as a study design gives it
STOP = {"and", "of", "the", "in", "a", "on", "for", "with"}


def terms(text: str) -> tuple[str, ...]:
    return tuple(w for w in text.lower().replace(",", " ").split() if w not in STOP)


def answer(pid, *titles, known="no"):
    return Answer(pid, (), known, "", tuple(Study("A", "2000", t) for t in titles), ())


def test_dice_and_the_two_shared_terms():
    a, b = frozenset({"soy", "breast", "cancer"}), frozenset({"soy", "intake", "breast",
                                                              "cancer", "risk"})
    assert mp.dice(a, b) == pytest.approx(2 * 3 / 8)
    # one shared term never matches, however short the titles
    assert cs.best_similarity([frozenset({"soy"})], frozenset({"soy"})) == 0.0
    assert cs.best_similarity([frozenset({"soy", "milk"}), a], b) == pytest.approx(0.75)


def test_an_exact_title_of_the_requests_own_words_matches():
    """Issue 30: v1's extra condition (two shared terms outside the request) turned down a
    verbatim title made of the request's words; the amended rule matches it at Dice 1.0."""
    judged = cs.Judged({"q1": {"d1": 3}}, {"d1": frozenset(terms("Vitamin D and cancer"))})
    got = cs.similarities([frozenset(terms("vitamin D and cancer"))], ["d1"], judged)
    assert got == {"d1": 1.0}


def test_choose_theta_takes_the_smallest_value_with_both_null_rates_within_bound():
    placebo = [0.62, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]      # 10 % at 0.60
    permutation = [0.66] * 2 + [0.0] * 98                              # 2 % up to 0.65
    assert cs.rate(placebo, 0.60) == pytest.approx(0.10)
    assert cs.choose_theta(placebo, permutation) == pytest.approx(0.65)
    assert cs.choose_theta([1.0] * 3, []) == 1.00       # none within bound: the last θ
    assert math.isnan(cs.rate([], 0.6))


def test_derangements_are_seeded_and_have_no_fixed_point():
    first, again = cs.derangements(5, 20, 7), cs.derangements(5, 20, 7)
    assert len(first) == 20 and all((a == b).all() for a, b in zip(first, again))
    assert not any((d == np.arange(5)).any() for d in first)
    assert cs.derangements(1, 20, SEED) == []


def test_permutation_leaves_out_the_requests_own_judged_documents():
    # q1 and q2 share document d (cited by both pages): naming it is no chance match
    judged = cs.Judged({"q1": {"d": 3, "x": 3}, "q2": {"d": 3}},
                       {"d": frozenset({"green", "tea", "catechins"}),
                        "x": frozenset({"black", "pepper", "piperine"})})
    claimed = {"P1": [frozenset({"green", "tea", "catechins"})],
               "P2": [frozenset({"black", "pepper", "piperine"})]}
    got = cs.permutation_best(claimed, {"P1": "q1", "P2": "q2"}, ["P1", "P2"], judged, SEED,
                              count=1)
    # P1 -> q2: q2's only level-3 document d is judged for q1 too: the pair is not counted;
    # P2 -> q1: targets d and x, P2 names x exactly
    assert got == [1.0]


@pytest.fixture
def probe():
    requests = pd.DataFrame([
        ("V1", "nfcorpus", "Q1", "fresh", "green tea and cancer"),
        ("V2", "nfcorpus", "Q2", "fresh", "black pepper"),
        ("V3", "nfcorpus", "Q3", "curated", "flax seeds"),
        ("V4", "placebo", "PL", "placebo", "okra water"),
        ("V5", "cranfield", "7", "candidate", "flutter of wings"),
    ], columns=cs.REQUEST_COLUMNS)
    nf = cs.Judged(
        {"Q1": {"a": 3, "b": 1}, "Q2": {"c": 3}, "Q3": {"e": 3}},
        {"a": frozenset(terms("Green tea catechins in prostate cancer")),
         "b": frozenset(terms("Tea drinking habits in Japan")),
         "c": frozenset(terms("Piperine bioavailability of curcumin")),
         "e": frozenset(terms("Flaxseed lignans and breast cancer"))})
    cran = cs.Judged({"7": {"w": 3}}, {"w": frozenset(terms("Panel flutter of swept wings"))})
    given = [
        # Q1 remembered by one claim-framed sample: the exact title
        cs.Given("V1", "page", 1, answer("V1", known="unsure")),
        cs.Given("V1", "claim", 1, answer("V1", "Green tea catechins in prostate cancer")),
        # Q2 named a near title (two shared terms, Dice 2*2/(4+3) < 0.6) and a one-word hit:
        # cleared
        cs.Given("V2", "page", 1, answer("V2", "Piperine bioavailability studies in rats",
                                         "Piperine pharmacology")),
        # Q3: only its v1 answer names its title; a topical title of Q1's level-1 document
        cs.Given("V3", "v1", 1, answer("V3", "Flaxseed lignans and breast cancer")),
        cs.Given("V3", "page", 1, answer("V3", "Tea drinking habits in Japan")),
        # the placebo names nothing of its assigned request
        cs.Given("V4", "claim", 1, answer("V4", "Okra mucilage and saliva")),
        cs.Given("V5", "claim", 1, answer("V5", "Panel flutter of swept wings")),
    ]
    return requests, given, {"nfcorpus": nf, "cranfield": cran}


def test_score_verdicts_nulls_and_decisions(probe):
    requests, given, judged = probe
    table, nulls, decisions = cs.score(requests, given, judged, terms, SEED)
    by = table.set_index("qid")
    assert decisions["theta"] == pytest.approx(0.60)
    assert list(by["remembered"]) == ["yes", "no", "yes", "yes"]       # Q1 Q2 Q3 7
    assert by.loc["Q1", "matched_documents"] == "a:1.000"
    assert by.loc["Q1", "matched_by"] == "claim-1"
    assert by.loc["Q1", "known_page"] == "unsure" and by.loc["Q1", "known_claim"] == "no"
    assert by.loc["Q2", "best_level3"] == pytest.approx(2 * 2 / (4 + 3))
    assert by.loc["Q3", "matched_by"] == "v1"
    assert by.loc["7", "source"] == "cranfield"
    # Q1's level-1 document: not named by Q1's answers
    assert by.loc["Q1", "level1_hits"] == "no"
    assert list(nulls["theta"]) == list(cs.THETAS)
    assert decisions["fresh_cleared"] == 1 and decisions["fresh_requests"] == 2
    assert decisions["extension_used"] is True
    # the v1 answer counts for Q3 but not for the null: V3's v2 titles ('Tea drinking …') are
    # Q1's level-1 title, which is not a level-3 title of any partner
    assert (nulls["permutation_rate"] == 0).all()


def test_read_answers_checks_batches_and_ids(tmp_path):
    requests = pd.DataFrame([("V1", "nfcorpus", "Q1", "fresh", "t"),
                             ("V2", "nfcorpus", "Q2", "fresh", "u")], columns=cs.REQUEST_COLUMNS)
    batches = pd.DataFrame([("V1", "page", 1, "N1"), ("V2", "page", 1, "N1")],
                           columns=["probe_id", "framing", "sample", "batch"])
    good = tmp_path / "page-1-N1.yaml"
    good.write_text('- {id: V1, known: "no", studies: []}\n'
                    '- {id: V2, known: "yes", studies: [{authors: "A", year: "1", title: "T"}]}\n')
    got = cs.read_answers([good], requests, batches)
    assert [(g.probe_id, g.label, g.answer.remembers_page) for g in got] == \
        [("V1", "page-1", "no"), ("V2", "page-1", "yes")]
    good.write_text('- {id: V1, known: "no", studies: []}\n')
    with pytest.raises(ValueError, match="1 texts without an answer"):
        cs.read_answers([good], requests, batches)
    good.write_text('- {id: V3, known: "no", studies: []}\n')
    with pytest.raises(InputError, match="page-1-N1.yaml:1.*an id of batch N1"):
        cs.read_answers([good], requests, batches)
    other = tmp_path / "claim-1-N1.yaml"
    other.write_text("[]\n")
    with pytest.raises(InputError, match="a batch of config/probe/v2/batches.tsv"):
        cs.read_answers([other], requests, batches)


def test_rates_per_source_pool_and_framing(probe):
    requests, given, judged = probe
    table, nulls, decisions = cs.score(requests, given, judged, terms, SEED)
    got = cs.rates(table, given, requests, judged, terms, decisions["theta"], SEED).set_index(
        ["source", "pool", "framing"])
    assert got.loc[("nfcorpus", "fresh", "claim"), "with_match"] == 1.0     # Q1's claim
    assert got.loc[("nfcorpus", "fresh", "page"), "with_match"] == 0.0
    assert got.loc[("nfcorpus", "fresh", "page"), "known_unsure"] == 0.5   # V1 unsure, V2 no
    assert got.loc[("nfcorpus", "fresh", "page"), "titles_per_answer"] == 1.0
    assert got.loc[("nfcorpus", "curated", "v1"), "with_match"] == 1.0
    assert got.loc[("placebo", "placebo", "claim"), "with_match"] == 0.0
    assert math.isnan(got.loc[("placebo", "placebo", "claim"), "remembered"])
    text = cs.markdown(table, nulls, got.reset_index(), decisions)
    assert "θ = **0.60**" in text and "Fresh video requests cleared: **1 of 2**" in text


def test_only_the_curated_requests_v1_answers_are_carried_over():
    """B6: the 30 curated NutritionFacts requests keep their v1 answer; probe v1's Cranfield
    and placebo answers do not count in v2."""
    requests = pd.DataFrame([("V1", "nfcorpus", "Q1", "curated", "t"),
                             ("V2", "cranfield", "7", "candidate", "u")],
                            columns=cs.REQUEST_COLUMNS)
    v1 = pd.DataFrame([("PR01", "nfcorpus", "Q1", "t"), ("PR02", "cranfield", "7", "u"),
                       ("PR03", "placebo", "PL", "p")],
                      columns=["probe_id", "source", "qid", "text"])
    answers = {p: answer(p, "A title") for p in ("PR01", "PR02", "PR03")}
    got = cs.v1_answers(v1, answers, requests)
    assert [(g.probe_id, g.label) for g in got] == [("V1", "v1")]


def _low_cranfield(probe):
    """The fixture with a second Cranfield request, 8, named only at Dice 2*2/(3+3) = 0.667
    ('panel flutter wings' against 'panel flutter theory'), and 7 named exactly."""
    requests, given, judged = probe
    requests = pd.concat([requests, pd.DataFrame(
        [("V6", "cranfield", "8", "candidate", "flutter theory")], columns=cs.REQUEST_COLUMNS)],
        ignore_index=True)
    judged["cranfield"] = cs.Judged({"7": {"w": 3}, "8": {"t": 3}},
                                    {"w": frozenset(terms("Panel flutter of swept wings")),
                                     "t": frozenset(terms("Panel flutter theory"))})
    given = given + [cs.Given("V6", "claim", 1, answer("V6", "Panel flutter of wings"))]
    return requests, given, judged


def test_a_cranfield_match_below_070_counts_only_where_the_checker_confirmed_it(probe):
    """Amendment 3, C5: request 8's only match is at Dice 0.667 (< 0.70): remembered without
    the check, cleared when the checker did not say 'same', remembered when it did; request 7
    (Dice 1.0) and the NutritionFacts requests never change."""
    requests, given, judged = _low_cranfield(probe)
    unchecked, _, plain = cs.score(requests, given, judged, terms, SEED)
    assert unchecked.set_index("qid").loc["8", "best_level3"] == pytest.approx(2 / 3)
    assert unchecked.set_index("qid").loc["8", "remembered"] == "yes"
    assert "cranfield_remembered" not in plain and plain["cranfield_matches_below_0.70"] == 1
    checked, _, decisions = cs.score(requests, given, judged, terms, SEED, confirmed=set())
    by = checked.set_index("qid")
    assert by.loc["8", "remembered"] == "no" and by.loc["8", "matched_documents"] == ""
    assert by.loc["7", "remembered"] == "yes"
    assert (checked[checked["source"] == "nfcorpus"]["remembered"].tolist()
            == unchecked[unchecked["source"] == "nfcorpus"]["remembered"].tolist())
    assert decisions["cranfield_remembered_unchecked"] == 2
    assert decisions["cranfield_remembered"] == 1
    confirmed, _, _ = cs.score(requests, given, judged, terms, SEED, confirmed={("8", "t")})
    assert confirmed.set_index("qid").loc["8", "remembered"] == "yes"


def test_confirmed_matches_reads_every_check_once():
    items = pd.DataFrame({"check_id": ["M01", "M02"], "qid": ["8", "9"], "docno": ["t", "u"]})
    checks = pd.DataFrame({"check_id": ["M01", "M02"], "verdict": ["same", "different"]})
    assert cs.confirmed_matches(items, checks) == {("8", "t")}
    with pytest.raises(InputError, match=r"checks.tsv:3: expected one verdict per item"):
        cs.confirmed_matches(items, pd.DataFrame({"check_id": ["M01", "M01"],
                                                  "verdict": ["same", "same"]}),
                             checks_path="checks.tsv")
    with pytest.raises(InputError, match=r"expected a verdict, one of"):
        cs.confirmed_matches(items, pd.DataFrame({"check_id": ["M01", "M02"],
                                                  "verdict": ["same", "maybe"]}))
    with pytest.raises(InputError, match=r"1 unchecked: \['M02'\]"):
        cs.confirmed_matches(items, checks.iloc[:1])
