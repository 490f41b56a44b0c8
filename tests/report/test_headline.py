"""The qualified headline (Amendment 1, A3): constructed per-topic values whose answer is
known — the effect sits in the requests the probe calls remembered."""
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from gradedrel.report import headline
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
    assert "| t | H2q: request and thesaurus keys" in headline.markdown(rows, {"t": text})


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
