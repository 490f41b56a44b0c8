"""The qualified headline (Amendment 1, A3): constructed per-topic values whose answer is
known — the effect sits in the requests the probe calls remembered."""
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from gradedrel.integrity import headline
from tests.report.test_assessment import DESIGN, PAPER

FAST = replace(DESIGN, constants=replace(DESIGN.constants, resamples=500, trials=500))


def per_topic(effects: dict[str, float]) -> pd.DataFrame:
    rows = []
    for qid, effect in effects.items():
        rows += [{"run": "SUM/u", "qid": qid, "measure": "AvP(level=3)", "value": 0.2},
                 {"run": "WSYN/e", "qid": qid, "measure": "AvP(level=3)", "value": 0.2 + effect}]
    return pd.DataFrame(rows)


def test_an_effect_carried_by_remembered_requests_is_not_shown_on_the_cleared_ones():
    remembered = [f"r{i}" for i in range(12)]
    cleared = [f"c{i}" for i in range(12)]
    rng = np.random.default_rng(0)
    full = per_topic({**{q: 0.4 + rng.normal(0, 0.02) for q in remembered},
                      **{q: rng.normal(0, 0.02) for q in cleared}})
    thesaurus = per_topic({**{q: 0.3 for q in remembered},
                           **{q: rng.normal(0, 0.02) for q in cleared}})
    rows = pd.DataFrame(headline.headline_rows("t", "P", "P-thesaurus",
                                               {"P": full, "P-thesaurus": thesaurus},
                                               remembered + ["not-probed"], PAPER, FAST))
    by = rows.set_index("row")
    primary = by.loc["primary (pre-registered), every request"]
    assert primary["requests"] == 24 and primary["verdict"] == "holds"
    h2q = by.loc["H2q: request and thesaurus keys, requests the probe clears"]
    assert (h2q["requests"], h2q["excluded"]) == (12, 12)
    assert h2q["estimate"] == pytest.approx(0.0, abs=2) and h2q["verdict"] == "does not hold"
    assert by.loc["primary, requests the probe calls remembered (sensitivity)",
                  "estimate"] == pytest.approx(40, abs=2)
    text = headline.sentence(rows, "+1.0 of +20.0 points come from curators' own keys", "t")
    assert "holds" in text and "does not hold" in text
    assert "the probe calls 12 of 24 requests remembered" in text
    assert "| H2q: request and thesaurus keys" in headline.markdown(rows, {"t": text})


def test_nothing_remembered_leaves_every_request():
    full = per_topic({f"q{i}": 0.1 for i in range(10)})
    rows = headline.headline_rows("t", "P", "P-t", {"P": full, "P-t": full}, [], PAPER, FAST)
    assert [r["requests"] for r in rows] == [10, 10, 10, 0]
    assert rows[3]["verdict"] == ""


def test_fresh_rows_split_the_cleared_requests_and_the_sentence_follows_the_verdict():
    """Amendment 2 (B8-B10): the primary on the cleared fresh requests with the thesaurus
    plans, and its secondary rows; the sentence takes the verdict's form and says what it
    rests on (constructed values: no effect on the cleared, a large one on the remembered)."""
    rng = np.random.default_rng(1)
    cleared = [f"c{i}" for i in range(60)]
    remembered = [f"r{i}" for i in range(20)]
    effects = {**{q: rng.normal(0, 0.05) for q in cleared}, **{q: 0.3 for q in remembered}}
    full, thesaurus = per_topic(effects), per_topic(effects)
    thesaurus.loc[(thesaurus["qid"] == "c0") & (thesaurus["run"] == "SUM/u"), "value"] = 1.0
    split = {q: ("test" if i % 3 == 0 else "dev") for i, q in enumerate(cleared + remembered)}
    level3 = {q: (3 if i < 25 else 1) for i, q in enumerate(cleared)}
    rows = headline.headline_rows("f", "F", "F-thesaurus", {"F": full, "F-thesaurus": thesaurus},
                                  remembered + ["not-curated"], PAPER, FAST, split, level3)
    by = {r["row"]: r for r in rows}
    primary = by[headline.FRESH_PRIMARY]
    assert (primary["plan_set"], primary["requests"], primary["excluded"]) == \
        ("F-thesaurus", 60, 20)
    assert primary["verdict"] == "does not hold" and primary["ceiling"] == 1
    assert primary["mde"] > 0
    assert by["fresh, all keys, requests the probe calls remembered"]["requests"] == 20
    assert by["fresh, all keys, requests the probe calls remembered"]["verdict"] == "holds"
    assert by["fresh, request and thesaurus keys, cleared, test split only"]["requests"] == 20
    assert by["fresh, request and thesaurus keys, cleared, development split only"][
        "requests"] == 40
    assert by["fresh, request and thesaurus keys, cleared, 3 or more level-3 documents"][
        "requests"] == 25
    table = pd.DataFrame(rows)
    text = headline.fresh_sentence(table, "f", 80, False, {"requests": 9, "excluded": 21})
    assert text.startswith("On 60 fresh requests the memory probe clears, curated from the "
                           "request and MeSH alone, the J&K effect does not hold")
    assert "60 of the 80 fresh requests (20 test, 40 development; the extension pool not " \
           "needed), 1 of them with SUM/u already at AvP 100" in text
    assert "the curation of the 30 drawn requests is blind only for the 9 the amended probe " \
           "clears" in text
    full = by["fresh, all keys, requests the probe clears"]
    assert f"with all the curators' keys the same requests give {full['estimate']:+.1f}" in text
    assert "the probe calls remembered the full plans give +30.0 [+30.0, +30.0] (holds, " \
           "larger than published)" in text
    few = table.copy()
    few.loc[few["row"] == headline.FRESH_PRIMARY, ["requests", "verdict"]] = [12, "inconclusive"]
    assert headline.fresh_sentence(few, "f", 80, True, {"requests": 9, "excluded": 21}).startswith(
        "On only 12 fresh requests (fewer than the 50 planned; MDE")
    assert "the data cannot tell" in headline.fresh_sentence(few, "f", 80, True,
                                                            {"requests": 9, "excluded": 21})
    assert "drawn requests" not in headline.fresh_sentence(few, "f", 80, True, None)
    assert "drawn requests" not in headline.fresh_sentence(few, "f", 80, True, None)


def test_the_forest_figure_gets_the_verdicts_on_the_probes_subsets():
    full = per_topic({f"q{i}": 0.1 * (i % 3) for i in range(12)})
    rows = pd.DataFrame(headline.headline_rows("t", "P", "P-t", {"P": full, "P-t": full},
                                               ["q0", "q1", "q2"], PAPER, FAST))
    forest = headline.forest_rows(rows, "t", "InQuery", "mesh")
    assert list(forest["plan_set"]) == ["P-t, cleared by the probe", "P, cleared by the probe",
                                        "P, remembered by the probe"]
    assert set(forest["finding"]) == {2} and set(forest["thesaurus"]) == {"mesh"}
    assert forest["requests"].tolist() == [9, 9, 3]
    assert headline.forest_rows(rows, "other", "InQuery", "mesh").empty


def _answer_table(fresh_verdict_effect=0.0):
    """Three testbeds as the main job with NFCorpus builds them: Cranfield's probed primary,
    the 30 drawn requests (remembered: the contaminated record) and the fresh requests."""
    rng = np.random.default_rng(2)
    rows = []
    cran = per_topic({f"q{i}": rng.normal(0.01, 0.03) for i in range(40)})
    found = headline.headline_rows("cranfield", "P", "P-t", {"P": cran, "P-t": cran},
                                   ["q0", "q1"], PAPER, FAST)
    found[0].update(role="deciding", remembered=2)
    rows += found
    drawn = per_topic({f"d{i}": 0.3 + rng.normal(0, 0.05) for i in range(30)})
    found = headline.headline_rows("nfcorpus", "E", "E-t", {"E": drawn, "E-t": drawn},
                                   [f"d{i}" for i in range(21)], PAPER, FAST)
    found[0].update(role="record", remembered=21)
    rows += found
    cleared = {f"c{i}": fresh_verdict_effect + rng.normal(0, 0.05) for i in range(60)}
    fresh = per_topic({**cleared, **{f"r{i}": 0.3 for i in range(20)}})
    found = headline.headline_rows(
        "nfcorpus-fresh", "F", "F-t", {"F": fresh, "F-t": fresh, "F-u": fresh, "F-i": fresh},
        [f"r{i}" for i in range(20)], PAPER, FAST, {q: "test" for q in cleared},
        {q: (1 if i < 5 else 3) for i, q in enumerate(cleared)},
        {"unrecalled": "F-u", "inferable": "F-i"})
    for r in found:
        if r["row"] == headline.FRESH_PRIMARY:
            r["role"] = "deciding"
    return pd.DataFrame(rows + found)


def test_the_answer_comes_first_in_plain_words_with_the_deciding_rows_only():
    """Amendment 3, C2: a paragraph of at most 80 words, then the deciding rows (Cranfield,
    the fresh requests, the 30 as the contaminated record); no internal name above the
    qualified rows."""
    table = _answer_table()
    text = headline.markdown(table, {"nfcorpus": "the thirty", "nfcorpus-fresh": "fresh"})
    head, _, rest = text.partition("## What qualifies each row")
    assert rest, "the qualified rows follow the answer"
    for word in ("H2q", "B10", "probe v2", "Amendment"):
        assert word not in head, word
    paragraph = head.split("\n")[2]
    assert len(paragraph.split()) <= headline.PARAGRAPH_WORDS
    assert paragraph.startswith("Cranfield, 40 requests: ")
    assert "NFCorpus, 60 fresh requests whose studies the curators" in paragraph
    assert "The 30 NFCorpus requests drawn first give" in paragraph
    assert paragraph.endswith("names studies of 21.")
    deciding = [line for line in head.splitlines() if line.startswith("| ")][1:]
    assert [line.split(" | ")[0] for line in deciding] == [
        "| Cranfield", "| NFCorpus", "| NFCorpus, the contaminated record"]
    assert headline.CLEARED in head
    # every qualified row sits under its testbed, none of the deciding ones again
    assert "### the fresh requests (nfcorpus-fresh)" in rest
    assert headline.FRESH_PRIMARY not in rest


def test_amendment_3_rows_beside_the_own_key_row():
    """C3: without the recalled keys, on 2+ and 3+ level-3 documents, without page-rated keys;
    rows whose plan set is not configured are left out."""
    table = _answer_table()
    fresh = table[table["collection"] == "nfcorpus-fresh"].set_index("row")
    assert fresh.loc["fresh, all keys less those marked recalled, requests the probe clears",
                     "plan_set"] == "F-u"
    assert fresh.loc["fresh, all keys less those rated page, requests the probe clears",
                     "plan_set"] == "F-i"
    assert fresh.loc["fresh, all keys, cleared, 2 or more level-3 documents", "requests"] == 55
    assert fresh.loc["fresh, all keys, cleared, 3 or more level-3 documents", "requests"] == 55
    rows = headline.headline_rows("f", "F", "F-t", {"F": per_topic({"a": 0.1}),
                                                   "F-t": per_topic({"a": 0.1})},
                                  [], PAPER, FAST, {"a": "dev"}, {"a": 1})
    assert not any("recalled" in r["row"] or "rated page" in r["row"] for r in rows)


def test_the_paragraph_follows_each_verdict():
    holds = headline.answer_paragraph(_answer_table(0.3))
    assert "NFCorpus, 60 fresh requests" in holds and "the effect holds" in holds.split(
        "NFCorpus, 60")[1]
    assert len(holds.split()) <= headline.PARAGRAPH_WORDS
    alone = headline.answer_paragraph(pd.DataFrame([headline.primary_row(
        "cranfield", "P", per_topic({f"q{i}": 0.01 * (i % 5) for i in range(30)}), PAPER,
        FAST)]))
    assert alone.startswith("Cranfield, 30 requests: ") and "NFCorpus" not in alone


def test_leak_note_names_the_flag_of_each_class_a_row_holds():
    leak = pd.DataFrame([
        ("F", "source_class", "thesaurus", 2.09, 1.68, 2.60, ""),
        ("F", "source_class", "own", 3.74, 2.81, 5.19, "yes"),
        ("F", "source_class", "other_concept", 2.29, 1.86, 2.84, "no"),
        ("F", "curator", "K", 2.19, 1.51, 2.97, "no")],
        columns=["plan_set", "group_by", "group", "selectivity", "selectivity_low",
                 "selectivity_high", "flagged"])
    note = headline.leak_note(leak, "F", ("own", "other_concept"))
    assert note == ("own: flagged, 3.74 [2.81, 5.19]; other_concept: not flagged, 2.29 "
                    "[1.86, 2.84] (thesaurus keys 2.09 [1.68, 2.60])")
    assert headline.leak_note(leak, "F", ()) == ""
    assert headline.leak_note(leak, "other", ("own",)) == ""


def test_the_primary_row_on_every_request_is_the_evaluations():
    """The primary comparison on every request is read from the evaluation's comparisons.tsv
    (its numbers, judged here), not computed a third time; on a subset of the requests, or
    where the evaluation counted other requests, it is computed."""
    full = per_topic({f"q{i}": 0.1 + 0.01 * i for i in range(10)})
    numbers = {"finding": 2, "part": "primary", "comparison": "WSYN/e - SUM/u",
               "requests": 10, "estimate": 12.5, "low": 3.25, "high": 20.0,
               "confidence": 0.95, "p_value": 0.0123, "p_holm": 0.05, "mde": 4.0}
    read = headline.primary_numbers(pd.DataFrame([{**numbers, "part": "secondary"}, numbers]))
    row = headline.primary_row("t", "P", full, PAPER, FAST, read)
    assert (row["estimate"], row["low"], row["high"], row["p_value"], row["mde"]) == \
        (12.5, 3.25, 20.0, 0.0123, 4.0)
    assert row["verdict"] == "holds" and row["role"] == "deciding"
    computed = headline.primary_row("t", "P", full, PAPER, FAST, {**numbers, "requests": 9})
    assert computed["estimate"] == pytest.approx(14.5)
    rows = headline.headline_rows("t", "P", "P-t", {"P": full, "P-t": full}, ["q0"], PAPER, FAST,
                                  numbers={"P": read})
    assert rows[0]["estimate"] == 12.5 and rows[2]["estimate"] == pytest.approx(15.0)
