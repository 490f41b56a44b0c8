"""The memory probe's scorer (docs/memory-probe.md; Amendment 1, A7) on hand-made answers,
documents and requests, every rule firing and not firing; the numbers worked out by hand."""
import math

import numpy as np
import pandas as pd
import pytest

from gradedrel.plans.key_sources import Terms
from gradedrel.integrity import memory_probe as mp
from gradedrel.integrity.leak import Documents
from posting_cases import from_postings
from tests.conftest import toy_pipeline

TERMS = Terms(toy_pipeline)
SEED = 20000724   # a seed, as a study design gives it

NF_TITLES = {"MED-1": "Homocysteine lowering with vitamin supplements in vegans",
             "MED-2": "Cobalamin deficiency among vegetarians",
             "MED-3": "Egg consumption and serum cholesterol",
             "MED-4": "Dietary cholesterol trials",
             "MED-5": "Tea catechins and cancer",
             "MED-6": "Green tea polyphenols",
             "MED-7": "Walking and mortality",
             "MED-8": "Vegan diets and bone health"}
CRAN_TITLES = {"k1": "flutter of wings", "k2": "wing flutter tests", "k3": "shell buckling",
               "k4": "buckling of cylinders", "k5": "heat transfer", "k6": "boundary layers",
               "k7": "panel flutter", "k8": "noise"}


def collection(titles, level3):
    docnos = list(titles)
    table = {}
    for i, d in enumerate(docnos):
        for p, term in enumerate(TERMS(titles[d])):
            table.setdefault(term, {}).setdefault(i, []).append(p)
    arrays = from_postings({t: list(v.items()) for t, v in table.items()},
                                    [len(TERMS(titles[d])) for d in docnos], docnos)
    return mp.Collection(TERMS, Documents(arrays), level3, titles)


def collections():
    return {"nfcorpus": collection(NF_TITLES, {"A": ["MED-1", "MED-2"], "B": ["MED-3"]}),
            "cranfield": collection(CRAN_TITLES, {"1": ["k1", "k7"], "2": ["k3"], "3": ["k5"]})}


REQUESTS = pd.DataFrame([
    ("PR01", "nfcorpus", "A", "vitamin b12 for vegans"),
    ("PR02", "nfcorpus", "B", "eggs and cholesterol"),
    ("PR03", "placebo", "X1", "the tea question"),
    ("PR04", "placebo", "X2", "walking for health"),
    ("PR05", "cranfield", "1", "wing flutter"),
    ("PR06", "cranfield", "2", "buckling"),
    ("PR07", "cranfield", "3", "heat")], columns=mp.REQUEST_COLUMNS)

ANSWERS = """
- id: PR01
  derived_keys: [vegans, vegan diets, supplements]
  remembers_page: yes
  page_summary: B12 and homocysteine in vegans.
  cited_studies:
  - {authors: [Smith, Jones], year: 2001, title: Homocysteine lowering with vitamin supplements in vegan subjects}
  - {authors: Lee, year: '2003', title: Cobalamin deficiency among vegetarians}
  - {authors: Lee, year: 2003, title: Vitamin B12 in vegans}
  remembered_keys: [cobalamin deficiency, homocysteine, vitamin b12]
- id: PR02
  derived_keys: [egg consumption, serum cholesterol]
  remembers_page: no
  page_summary: ''
  cited_studies:
  - {authors: X, year: 1999, title: Egg consumption and serum cholesterol}
  remembered_keys: []
- id: PR03
  derived_keys: [tea]
  remembers_page: unsure
  cited_studies:
  - {title: Homocysteine lowering with vitamin supplements in vegans}
  - {title: Egg consumption and serum cholesterol}
  remembered_keys: []
- id: PR04
  derived_keys: []
  remembers_page: no
  cited_studies: []
  remembered_keys: []
"""
CRANFIELD_ANSWERS = """
- {id: PR05, derived_keys: [panel flutter], remembers_page: no, cited_studies: [],
   remembered_keys: [panel, tests]}
- {id: PR06, derived_keys: [shell], remembers_page: no, cited_studies: [],
   remembered_keys: [cylinders]}
- {id: PR07, derived_keys: [boundary layers, transfer], remembers_page: no, cited_studies: [],
   remembered_keys: [heat transfer, heat]}
"""


@pytest.fixture
def answers(tmp_path):
    (tmp_path / "batch_1.yaml").write_text(ANSWERS)
    (tmp_path / "batch_2.yaml").write_text(CRANFIELD_ANSWERS)
    return mp.read_answers([tmp_path / "batch_1.yaml", tmp_path / "batch_2.yaml"], REQUESTS)


def test_title_matching_needs_dice_and_two_terms_beyond_the_request():
    docs = {"d": "Homocysteine lowering with vitamin supplements in vegans"}
    q = set(TERMS("vitamin b12 for vegans"))
    # 5 of 5 and 6 terms: Dice 10/11; shared beyond the request: homocysteine, lowering, supplement
    got = mp.matched_documents(["Homocysteine lowering with vitamin supplements in vegan subjects"],
                               docs, q, TERMS)
    assert got == {"d": pytest.approx(10 / 11)}
    # Dice 2*4/(4+5) = 0.89, but only "lowering" is not a request term
    assert mp.matched_documents(["vitamin lowering vegans homocysteine"], docs,
                                q | {"homocysteine"}, TERMS) == {}
    # two shared terms beyond the request but Dice 2*2/(2+5) = 0.57 < 0.6
    assert mp.matched_documents(["homocysteine lowering"], docs, q, TERMS) == {}
    assert mp.dice({"a", "b"}, {"a", "b", "c"}) == pytest.approx(0.8)


def test_placebos_are_assigned_by_the_seeded_permutation():
    real = ["PR09", "PR01", "PR05"]
    placebos = ["PR02", "PR07", "PR03", "PR04"]
    got = mp.placebo_assignment(placebos, real, SEED)
    rng = np.random.default_rng(SEED)
    order = rng.permutation(3).tolist() + rng.permutation(3).tolist()
    assert got == {p: sorted(real)[order[i]] for i, p in enumerate(sorted(placebos))}
    assert set(list(got.values())[:3]) == set(real)


def test_scores_rules_and_verdicts(answers):
    table, decisions = mp.score(REQUESTS, answers, collections(), SEED)
    rows = table.set_index("probe_id")
    # PR03 matches one level-3 document of whichever real request it is scored against
    assert rows.loc["PR03", "matched"] == 1 and rows.loc["PR04", "matched"] == 0
    assert decisions["placebo_false_match_rate"] == 0.5 and decisions["matches_needed"] == 2
    a = rows.loc["PR01"]
    assert (a["level3"], a["claimed_studies"], a["matched"], a["recall"]) == (2, 3, 2, 1.0)
    assert a["matched_documents"] == "MED-1:0.909 MED-2:1.000"
    # L_mem: cobalamin deficiency (MED-2), homocysteine (MED-1); vitamin b12 is a request key
    assert (a["remembered_keys"], a["L_mem"]) == (2, pytest.approx((2 / 2) / (2 / 8)))
    # L_der: vegan diets (MED-8, not level 3), supplements (MED-1); vegans is a request key
    assert (a["derived_keys"], a["L_der"]) == (2, pytest.approx((1 / 2) / (2 / 8)))
    assert a["log_ratio"] == pytest.approx(math.log(2))
    # Cranfield: log(2/4), log(0/8) = -inf, log(8/4); p95 over 3 values, linear
    assert rows.loc[["PR05", "PR06", "PR07"], "log_ratio"].tolist() == \
        pytest.approx([math.log(0.5), -math.inf, math.log(2)])
    assert decisions["cranfield_p95"] == pytest.approx(0.8 * math.log(2))
    assert (a["cited_rule"], a["keys_rule"], a["remembered"]) == ("yes", "yes", "yes")
    b = rows.loc["PR02"]
    # one matched study, two needed; no remembered key: the statistic is undefined
    assert (b["matched"], b["cited_rule"], b["keys_rule"], b["remembered"]) == \
        (1, "no", "", "no")
    assert math.isnan(b["L_mem"]) and b["remembers_page"] == "no"
    assert rows.loc["PR07", "keys_rule"] == "yes" and rows.loc["PR05", "keys_rule"] == "no"
    called = mp.remembered(table)
    assert called[called["source"] == "nfcorpus"].values.tolist() == \
        [["nfcorpus", "A", "PR01", "cited studies and keys"]]


def test_without_placebo_matches_one_matched_study_calls_a_request_remembered(answers):
    changed = dict(answers)
    changed["PR03"] = mp.Answer("PR03", ("tea",), "unsure", "", (), ())
    table, decisions = mp.score(REQUESTS, changed, collections(), SEED)
    assert decisions["placebo_false_match_rate"] == 0 and decisions["matches_needed"] == 1
    b = table.set_index("probe_id").loc["PR02"]
    assert (b["cited_rule"], b["remembered"]) == ("yes", "yes")


def test_a_key_statistic_above_the_cranfield_percentile_but_below_log_15_does_not_flag(answers):
    thresholds = mp.Thresholds(key_ratio=2.5)     # log 2.5 > log 2
    table, _ = mp.score(REQUESTS, answers, collections(), SEED, thresholds)
    assert table.set_index("probe_id").loc["PR01", "keys_rule"] == "no"


def test_rates_per_source(answers):
    table, decisions = mp.score(REQUESTS, answers, collections(), SEED)
    rates = mp.per_source(table).set_index("source")
    assert rates.loc["nfcorpus", ["requests", "claims_yes", "claims_no", "remembered"]].tolist() \
        == [2, 0.5, 0.5, 0.5]
    assert rates.loc["placebo", ["claims_unsure", "with_match"]].tolist() == [0.5, 0.5]
    assert rates.loc["cranfield", "statistic_defined"] == 3
    text = mp.markdown(table, mp.per_source(table), decisions)
    assert "needs **2** matched" in text and "Remembered NFCorpus requests: 1 of 2: A" in text


def test_bad_requests_and_answers_are_errors_naming_file_and_line(tmp_path):
    path = tmp_path / "requests.tsv"
    path.write_text("probe_id\tsource\tqid\ttext\nPR01\tnfcorpus\tA\tx\nPR02\tmemory\tB\ty\n")
    with pytest.raises(ValueError, match=r"requests.tsv:3: expected source one of"):
        mp.read_requests(path)
    path.write_text("probe_id\tsource\tqid\ttext\nPR01\tnfcorpus\tA\tx\nPR01\tplacebo\tB\ty\n")
    with pytest.raises(ValueError, match=r"requests.tsv:3: expected one row per probe id"):
        mp.read_requests(path)
    with pytest.raises(ValueError, match=r"b.yaml:3: expected remembers_page one of"):
        mp.parse_answers("- id: PR01\n  remembers_page: yes\n- id: PR02\n  remembers_page: maybe\n",
                         "b.yaml")
    with pytest.raises(ValueError, match=r"b.yaml:1: expected answer fields among"):
        mp.parse_answers("- {id: PR01, remembers_page: no, memory: [x]}\n", "b.yaml")
    with pytest.raises(ValueError, match=r"b.yaml:1: expected remembered_keys as a list"):
        mp.parse_answers("- {id: PR01, remembers_page: no, remembered_keys: x}\n", "b.yaml")
    batch = tmp_path / "b.yaml"
    batch.write_text("- {id: PR09, remembers_page: no}\n")
    requests = REQUESTS.iloc[:1]
    with pytest.raises(ValueError, match="an answer to a probed request id"):
        mp.read_answers([batch], requests)
    batch.write_text("- {id: PR01, remembers_page: no}\n- {id: PR01, remembers_page: no}\n")
    with pytest.raises(ValueError, match="one answer per id"):
        mp.read_answers([batch], requests)
    batch.write_text("[]\n")
    with pytest.raises(ValueError, match="no answer for 1 probed requests"):
        mp.read_answers([batch], requests)
