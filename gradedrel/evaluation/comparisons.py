"""The numbers of the comparisons a study design names, computed once in the evaluation
stage (``comparisons.tsv``), and the difference figures' paired intervals
(``difference_bands.tsv``): the report reads them and judges, it computes nothing.

A design (:mod:`gradedrel.report.design`, passed in: this stage does not import the report)
names per finding its comparisons: a paired difference of two query types (directional,
difference; equivalence: every pair), the spread of the query types' means, or the ratio of
two query types' proportional efforts. Each gives one row (an equivalence one per pair):
its effect with a percentile bootstrap interval over requests (paired; the design's
resamples and seed), the p of its test of record, the Holm-adjusted p within the finding,
the minimum detectable effect. Rows are keyed by (finding, part, comparison, measure), in
the design's order.

The values tested are per_topic.tsv's as written (six decimals), as the findings were
pre-registered and first run: a p of the evaluation's significance tables, which tests the
values at full precision, can differ from the p of the same pair here in its fourth
decimal, where the rounding makes or breaks a tie (a randomisation count one apart;
Friedman's ranks), so none is read from them.

The power analysis uses the normal approximation: the smallest paired difference detectable
with a two-sided test at α and power 1 − β over n requests is (z_{1−α/2} + z_{1−β}) · SD / √n.
"""
from __future__ import annotations

import math
from statistics import NormalDist
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from gradedrel.evaluation.contract import COLUMNS
from gradedrel.evaluation.measures import jk, registry
from gradedrel.evaluation.measures.significance import (adjust, bootstrap_ci, friedman,
                                                        paired_bootstrap_ci, randomisation,
                                                        resample_counts)

POINTS = 100.0  # AvP in points (percent), as the paper reports it


def measure_matrix(per_topic: pd.DataFrame, name: str, query_types: Sequence[str]) -> pd.DataFrame:
    """Requests × query types of the measure ``name`` (as per_topic.tsv writes it; AvP in
    points), requests where every type has a value: AvP sorted by request id, the other
    measures in the evaluation's order (as per_topic.tsv lists them). The order is the
    bootstrap's and the randomisation test's pairing of rows with draws (as each was
    pre-registered and first run)."""
    rows = per_topic[per_topic["measure"] == name]
    wide = rows.pivot(index="qid", columns="run", values="value").astype(float)
    avp = registry.parse(name).NAME == "AvP"
    if not avp:
        wide = wide.reindex(pd.unique(rows["qid"]))
    missing = [t for t in query_types if t not in wide.columns]
    if missing:
        raise ValueError(f"per-topic values of {name} lack the query types {missing}")
    return wide[list(query_types)].dropna() * (POINTS if avp else 1.0)


def minimum_detectable_effect(sd: float, n: int, alpha: float = 0.05, power: float = 0.8) -> float:
    """Smallest paired mean difference a two-sided test at ``alpha`` detects with ``power``
    over ``n`` requests whose paired differences have standard deviation ``sd``."""
    if n < 2 or not math.isfinite(sd):
        return math.nan
    z = NormalDist().inv_cdf
    return (z(1 - alpha / 2) + z(power)) * sd / math.sqrt(n)


def paired_difference(a, b, resamples: int, confidence: float, seed: int):
    """Mean of a − b over paired requests with its percentile bootstrap interval:
    (estimate, low, high)."""
    diff = np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)
    n = len(diff)
    if n < 2:
        return (float(diff.mean()) if n else math.nan), math.nan, math.nan
    mean, low, high = bootstrap_ci(diff, resamples, confidence, seed)  # the evaluation's
    return float(mean[0]), float(low[0]), float(high[0])


def spread(values: np.ndarray, resamples: int, confidence: float, seed: int):
    """Largest minus smallest column mean of a ``(requests, query types)`` matrix, with the
    percentile interval of the same statistic over resampled requests: (estimate, low,
    high)."""
    values = np.asarray(values, dtype=np.float64)
    n = values.shape[0]
    means = values.mean(axis=0)
    estimate = float(means.max() - means.min())
    if n < 2:
        return estimate, math.nan, math.nan
    boot = resample_counts(n, resamples, seed) @ values / n
    tail = (1.0 - confidence) / 2.0 * 100.0
    low, high = np.percentile(boot.max(axis=1) - boot.min(axis=1), [tail, 100.0 - tail])
    return estimate, float(low), float(high)


def p_value(a: np.ndarray, b: np.ndarray, test: str, constants) -> float:
    """Two-sided p of the paired test of record ``test`` on ``a`` against ``b`` (NaN for
    fewer than two pairs, or where the test is undefined: every difference 0 for Wilcoxon)."""
    if len(a) < 2:
        return math.nan
    if test == "randomisation":
        return randomisation(a, b, constants.trials, constants.seed).p_value
    from scipy import stats

    try:
        found = stats.wilcoxon(a, b) if test == "wilcoxon" else stats.ttest_rel(a, b)
    except ValueError:
        return math.nan
    return float(found.pvalue)


def paired(a, b, constants, confidence: float = 0.95, test: str | None = None) -> dict:
    """A paired difference ``a`` − ``b``: its estimate and interval, the p of its test of
    record, its minimum detectable effect."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    estimate, low, high = paired_difference(a, b, constants.resamples, confidence,
                                            constants.seed)
    sd = float(np.std(a - b, ddof=1)) if len(a) > 1 else math.nan
    p = p_value(a, b, test or constants.test_of_record, constants)
    return {"requests": len(a), "estimate": estimate, "low": low, "high": high,
            "confidence": confidence, "p_value": p,
            "mde": minimum_detectable_effect(sd, len(a), constants.alpha, constants.power)}


def _row(finding, c, comparison: str, numbers: Mapping) -> dict:
    return {"finding": finding.number, "part": c.part, "comparison": comparison,
            "measure": c.measure, "test_of_record": c.test_of_record or "", **numbers}


def _pair(finding, c, first, second, values, design, confidence):
    m = values[c.measure]
    numbers = paired(m[first], m[second], design.constants, confidence, c.test_of_record)
    numbers["mean_second"] = float(m[second].mean())
    return _row(finding, c, f"{first} - {second}", numbers)


def finding_rows(finding, values: Mapping[str, pd.DataFrame], curves, design) -> list[dict]:
    """The rows of one finding, in the design's order, with Holm's adjustment within the
    finding over the rows of its ``holm`` comparisons that have a p."""
    rows, holm = [], []
    k = design.constants
    for c in finding.comparisons:
        if c.test == "equivalence":
            found = [_pair(finding, c, y, x, values, design, c.confidence)
                     for x, y in design.pairs()]
        elif c.test in ("directional", "difference"):
            found = [_pair(finding, c, c.first, c.second, values, design,
                           c.confidence if c.test == "directional" else 0.95)]
        elif c.test in ("spread", "large_spread"):
            m = values[c.measure].to_numpy()
            estimate, low, high = spread(m, k.resamples, 0.95, k.seed)
            test = friedman(m)
            p = test[0].p_value if test else math.nan
            found = [_row(finding, c, "spread (max - min)",
                          {"requests": len(m), "estimate": estimate, "low": low, "high": high,
                           "confidence": 0.95, "p_value": p, "p_holm": p})]
        else:   # effort_ratio
            profile = c.parameter("profile")
            r = curves.ratio(profile, c.first, c.second, c.share, k.resamples, 0.95, k.seed)
            requests, depth = curves.ideal[profile].shape
            found = [_row(finding, c, f"effort {c.first} / effort {c.second}",
                          {"requests": requests, "estimate": r.estimate,
                           "low": r.low, "high": r.high, "confidence": r.confidence,
                           "first_rank": r.first, "second_rank": r.second,
                           "censored": r.censored, "depth": depth})]
        rows.extend(found)
        holm.extend(found if c.holm else [])
    p = np.array([r["p_value"] for r in holm], dtype=np.float64)
    if np.isfinite(p).any():
        p[np.isfinite(p)] = adjust(p[np.isfinite(p)], "holm")
        for row, q in zip(holm, p):
            row["p_holm"] = q
    return rows


def comparisons_table(per_topic: pd.DataFrame, curves, design) -> pd.DataFrame:
    """Every comparison of ``design`` (the columns of ``comparisons``:
    :data:`gradedrel.evaluation.contract.COLUMNS`) from the evaluation's per-topic values
    (every measure the design names) and ``curves``, the per-request CG curves of the
    gain profiles its effort comparisons name
    (:class:`gradedrel.evaluation.measures.effort.RequestCurves`)."""
    per_topic = per_topic.assign(value=pd.to_numeric(per_topic["value"]))
    values = {name: measure_matrix(per_topic, name, design.query_types)
              for name in design.measures()}
    rows = [row for f in design.findings
            for row in finding_rows(f, values, curves, design)]
    return pd.DataFrame(rows).reindex(columns=COLUMNS["comparisons"])


def pairs_table(per_topic: pd.DataFrame, measure: str, pairs: Sequence[tuple[str, str]],
                constants) -> pd.DataFrame:
    """Paired comparisons ``first - second`` of ``measure`` (AvP in points) over the requests
    where every run the pairs name has a value, each with :func:`paired`'s numbers under the
    test of record of ``constants`` (a study design's): the rows of ``comparisons`` without a
    finding (``gradedrel compare``'s summary)."""
    matrix = measure_matrix(per_topic, measure, list(dict.fromkeys(r for p in pairs for r in p)))
    rows = [{"comparison": f"{a} - {b}", "measure": measure,
             "test_of_record": constants.test_of_record, **paired(matrix[a], matrix[b], constants)}
            for a, b in pairs]
    return pd.DataFrame(rows).reindex(columns=COLUMNS["comparisons"])


def difference_bands(per_topic: pd.DataFrame, kind: str, base: int, profiles: Sequence[str],
                     baseline: str, query_types: Sequence[str], ranks: Sequence[int],
                     resamples: int, confidence: float, seed: int) -> pd.DataFrame:
    """The difference figures' paired percentile bootstrap intervals of the mean difference
    (query type − baseline) per rank (Efron & Tibshirani 1993, ch. 13; in IR, Sakai 2006):
    rows (run, profile, kind, base, rank, lo, hi, topics) at those of ``ranks`` for which
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
                lo, hi = paired_bootstrap_ci((pair[qt] - pair[baseline]).to_numpy(),
                                             resamples, confidence, seed)
                rows.append((qt, str(profile), kind, int(base), int(rank), lo, hi, len(pair)))
    return pd.DataFrame(rows, columns=COLUMNS["difference_bands"])
