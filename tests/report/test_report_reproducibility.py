"""Breuer et al. (SIGIR 2020) effect ratio and ΔRI, checked by hand."""
import math

import pytest

from gradedrel.report.reproducibility import (effect_ratio, relative_improvement,
                                              reproduction_table)
from report_helpers import QTS, published


def test_effect_ratio_and_delta_ri_by_hand():
    # Paper level 3: WSYN/e 41.0 vs SUM/u 25.9 -> improvement 15.1 points, RI 15.1/25.9.
    # Ours 0.30 vs 0.25: improvement 0.05 -> ER = 0.05 / 0.151; RI' = 0.2.
    assert effect_ratio(0.30, 0.25, 0.410, 0.259) == pytest.approx(0.05 / 0.151)
    assert relative_improvement(0.410, 0.259) == pytest.approx(0.583011583)
    row = reproduction_table({(3, "SUM/u"): 0.25, (3, "WSYN/e"): 0.30},
                             {(3, "SUM/u"): 0.259, (3, "WSYN/e"): 0.410}, "SUM/u",
                             ["SUM/u", "WSYN/e"], [3]).iloc[0]
    assert row["ΔRI"] == pytest.approx(0.583011583 - 0.2)
    assert row["ER"] == pytest.approx(0.05 / 0.151)


def test_reversed_improvement_gives_negative_ratio_and_undefined_cases_nan():
    assert effect_ratio(0.20, 0.25, 0.410, 0.259) < 0
    assert math.isnan(effect_ratio(0.3, 0.2, 0.25, 0.25))       # paper shows no improvement
    assert math.isnan(relative_improvement(0.3, 0.0))


def test_reproduction_table_of_the_paper_against_itself_is_perfect():
    pub = published()
    paper = {(lv, q): pub.avp_of(lv, q) for lv in (1, 2, 3) for q in QTS}
    table = reproduction_table(paper, paper, "SUM/u", QTS, [1, 2, 3])
    assert len(table) == 15 and "SUM/u" not in set(table["query type"])
    assert table["ER"].to_numpy() == pytest.approx(1.0)
    assert table["ΔRI"].to_numpy() == pytest.approx(0.0)
    # Shrinking every improvement to half halves ER and RI' (baselines unchanged).
    half = {k: (v + paper[(k[0], "SUM/u")]) / 2 for k, v in paper.items()}
    table = reproduction_table(half, paper, "SUM/u", QTS, [1, 2, 3])
    assert table["ER"].to_numpy() == pytest.approx(0.5)
    assert table["RI ours"].to_numpy() == pytest.approx(table["RI paper"].to_numpy() / 2)
