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
