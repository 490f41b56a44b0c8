"""Paired bootstrap confidence intervals of the difference between two query types.

For the difference figure: at each rank where per-topic gain values exist, resample the
topics with replacement and take the mean of the per-topic differences (type − baseline);
the interval is the (1 − confidence)/2 and (1 + confidence)/2 percentiles of those means
(the percentile bootstrap; Efron & Tibshirani 1993, ch. 13; in IR, Sakai 2006), computed
by the evaluation's statistics (:mod:`gradedrel.evaluation.measures.significance`) with the
evaluation's resamples and seed.
"""
from __future__ import annotations

from typing import Sequence

import pandas as pd

from gradedrel.evaluation.measures import jk, registry, significance


paired_ci = significance.paired_bootstrap_ci  # the one statistics module's


def difference_bands(per_topic: pd.DataFrame, kind: str, base: int, profiles: Sequence[str],
                     baseline: str, query_types: Sequence[str], ranks: Sequence[int],
                     resamples: int, confidence: float,
                     seed: int) -> pd.DataFrame:
    """Bands (run, profile, kind, base, rank, lo, hi, topics) at those of ``ranks`` for which
    per_topic holds values (the evaluation's cutoffs); a topic counts where both the type
    and the baseline have a value (``topics`` says how many)."""
    rows = []
    # the per-topic gain measures of this curve, asked of the measures the names spell
    # (whatever the evaluation's gain table, which a name carries when it is not 1, 2, 3)
    named = {}
    for name in pd.unique(per_topic["measure"]):
        measure = registry.parse_family(str(name))
        if isinstance(measure, jk.JKMeasure) and measure.curve == (kind, int(base)):
            named.setdefault((measure["profile"], measure["cutoff"]), name)
    # one pass over the per-topic table (it holds every measure: tens of thousands of rows)
    by_name = dict(tuple(per_topic[per_topic["measure"].isin(set(named.values()))].groupby(
        "measure", sort=False)))
    for profile in profiles:
        for rank in ranks:
            values = by_name.get(named.get((str(profile), int(rank))))   # groups are not empty
            if values is None:
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
