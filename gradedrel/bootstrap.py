"""Paired bootstrap confidence intervals of the difference between two query types.

For the difference figure: at each rank where per-topic gain values exist, resample the
topics with replacement and take the mean of the per-topic differences (type − baseline);
the interval is the (1 − confidence)/2 and (1 + confidence)/2 percentiles of those means
(the percentile bootstrap; Efron & Tibshirani 1993, ch. 13; in IR, Sakai 2006). The
generator is seeded, so the same inputs give the same interval.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd


def paired_ci(differences: np.ndarray, resamples: int, confidence: float,
              seed: int) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of paired per-topic differences."""
    d = np.asarray(differences, dtype=float)
    if d.size == 0:
        raise ValueError("paired bootstrap: no topics")
    rng = np.random.default_rng(seed)
    means = d[rng.integers(0, d.size, size=(resamples, d.size))].mean(axis=1)
    alpha = (1 - confidence) / 2
    lo, hi = np.quantile(means, [alpha, 1 - alpha])
    return float(lo), float(hi)


def gain_measure(template_cg: str, template_dcg: str, kind: str, profile: str, base: int,
                 rank: int) -> str:
    """The per-topic measure name of a gain value at a rank, from config templates."""
    template = template_dcg if kind in ("DCG", "nDCG") else template_cg
    return template.format(kind=kind, profile=profile, base=base, rank=rank)


def difference_bands(per_topic: pd.DataFrame, kind: str, base: int, profiles: Sequence[str],
                     baseline: str, query_types: Sequence[str], ranks: Sequence[int],
                     templates: tuple[str, str], resamples: int, confidence: float,
                     seed: int) -> pd.DataFrame:
    """Bands (run, profile, kind, base, rank, lo, hi, topics) at those of ``ranks`` for which
    per_topic holds values (the evaluation's cutoffs); a topic counts where both the type
    and the baseline have a value (``topics`` says how many)."""
    rows = []
    for profile in profiles:
        for rank in ranks:
            name = gain_measure(*templates, kind, profile, base, rank)
            values = per_topic[per_topic["measure"] == name]
            if values.empty:
                continue
            wide = values.pivot_table(index="qid", columns="run", values="value",
                                      aggfunc="first")
            for qt in query_types:
                if qt == baseline or qt not in wide or baseline not in wide:
                    continue
                pair = wide[[qt, baseline]].dropna()
                lo, hi = paired_ci((pair[qt] - pair[baseline]).to_numpy(), resamples,
                                   confidence, seed)
                rows.append((qt, str(profile), kind, int(base), int(rank), lo, hi, len(pair)))
    return pd.DataFrame(rows, columns=["run", "profile", "kind", "base", "rank", "lo", "hi",
                                       "topics"])
