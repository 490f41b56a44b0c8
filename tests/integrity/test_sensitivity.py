"""The primary comparison without named requests: a constructed case whose answer is known."""
import pandas as pd
import pytest

from dataclasses import replace

from study.procedures import sensitivity
from tests.report.test_assessment import DESIGN, PAPER, TYPES

FAST = replace(DESIGN, constants=replace(DESIGN.constants, resamples=500, trials=500))


def table(values: dict[str, dict[str, float]]) -> pd.DataFrame:
    return pd.DataFrame([{"run": t, "qid": q, "measure": "AvP(level=3)", "value": x}
                         for q, by_type in values.items() for t, x in by_type.items()])


def test_dropping_the_one_request_that_carries_the_effect_removes_it():
    # Ten requests with no difference between WSYN/e and SUM/u, one with a large one.
    values = {f"q{i}": {t: 0.3 for t in TYPES} for i in range(10)}
    values["odd"] = {t: (0.9 if t == "WSYN/e" else 0.1) for t in TYPES}
    out = sensitivity.primary_without(table(values), ["odd"], "in doubt", PAPER, FAST)
    everything, without = out.iloc[0], out.iloc[1]
    assert everything["requests"] == 11 and without["requests"] == 10
    assert everything["estimate"] == pytest.approx(80 / 11)  # (90 - 10) points / 11
    assert without["estimate"] == pytest.approx(0.0)
    assert bool(everything["deciding"]) and not bool(without["deciding"])
    assert without["excluded"] == "odd" and without["reason"] == "in doubt"
    assert "without the named requests | odd | 10 | +0.0" in sensitivity.markdown(out, "t")


def test_a_named_request_that_is_not_there_is_an_error():
    values = {f"q{i}": {t: 0.3 for t in TYPES} for i in range(3)}
    with pytest.raises(ValueError, match=r"\['PLAIN-3372'\] have no AvP"):
        sensitivity.primary_without(table(values), ["PLAIN-3372"], "x", PAPER, FAST)
