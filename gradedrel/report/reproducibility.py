"""Quantifying a reproduction against published means (Breuer et al., SIGIR 2020).

Breuer, Ferro, Fuhr, Maistro, Sakai, Schaer & Soboroff (2020), "How to Measure the
Reproducibility of System-oriented IR Experiments", SIGIR 2020; the ``repro_eval``
package implements the same definitions. For a baseline run b and an advanced run a,
with M the paper's mean and M' ours:

    effect ratio  ER  = (M'_a − M'_b) / (M_a − M_b)
                  (the per-topic form (1/n' Σ ΔM'_j) / (1/n Σ ΔM_j) reduces to this)
    relative improvement  RI = (M_a − M_b) / M_b,   RI' likewise from ours
    ΔRI = RI − RI'   (the paper's relative improvement minus ours)

ER = 1 and ΔRI = 0 mean the improvement is reproduced exactly; ER < 1 (or ΔRI > 0)
a smaller improvement than published; ER < 0 an improvement turned into a loss.
Only means are published, so the per-topic measures of the paper (RMSE, Kendall's
τ, RBO) cannot be computed.
"""
from __future__ import annotations

import math
from typing import Mapping, Sequence

import pandas as pd


def effect_ratio(ours_advanced: float, ours_baseline: float,
                 paper_advanced: float, paper_baseline: float) -> float:
    """ER = (M'_a − M'_b) / (M_a − M_b); NaN when the paper shows no improvement (0/0)."""
    paper = paper_advanced - paper_baseline
    if paper == 0:
        return math.nan
    return (ours_advanced - ours_baseline) / paper


def relative_improvement(advanced: float, baseline: float) -> float:
    """RI = (M_a − M_b) / M_b; NaN when the baseline mean is 0."""
    if baseline == 0:
        return math.nan
    return (advanced - baseline) / baseline


def reproduction_table(ours: Mapping[tuple[int, str], float],
                       paper: Mapping[tuple[int, str], float], baseline: str,
                       query_types: Sequence[str], levels: Sequence[int]) -> pd.DataFrame:
    """ER and ΔRI = RI(paper) − RI(ours) of every query type against the baseline at every
    level; ``ours`` and ``paper`` map (level, query type) to mean AvP on one scale (0..1)."""
    rows = []
    for level in levels:
        ob, pb = ours[(level, baseline)], paper[(level, baseline)]
        for qt in query_types:
            if qt == baseline:
                continue
            oa, pa = ours[(level, qt)], paper[(level, qt)]
            ri_paper, ri_ours = relative_improvement(pa, pb), relative_improvement(oa, ob)
            rows.append({"level": level, "query type": qt,
                         "paper improvement": pa - pb, "our improvement": oa - ob,
                         "ER": effect_ratio(oa, ob, pa, pb), "RI paper": ri_paper,
                         "RI ours": ri_ours, "ΔRI": ri_paper - ri_ours})
    return pd.DataFrame(rows)
