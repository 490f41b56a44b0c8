"""How much of the primary effect rests on which keys: the decomposition (Amendment 1, A4)
and the robustness rows (A5) of docs/preregistration.md, and the key source shares' tables.

**Decomposition.** Per request, with P the primary plan set, every run InQuery and AvP at
level 3 in points (``WSYN/e(P-thesaurus)``: the WSYN/e run of the plan set ``P-thesaurus``):
the five terms of :data:`TERMS` (structure, request-word expansion, thesaurus expansion,
other-concept keys, curators' own keys), each a difference of two of the :data:`SERIES`.
They telescope: they add up to the primary effect WSYN/e(P) − SUM/u(P) request by request,
hence in the mean (the order is fixed by the amendment; no other is reported). Each term:
its mean over the requests and its 95 % paired percentile bootstrap interval (10,000
resamples, seed 20000724: the evaluation's resampling,
:func:`gradedrel.evaluation.comparisons.paired_difference`). Every request of P must have a value
in every run (derived plan sets keep the parent's requests; an emptied plan scores 0).

**Robustness.** For the primary comparison of a plan set (per-request WSYN/e − SUM/u): the
mean on every request with its interval; the leave-one-request-out range of the mean and the
request whose removal moves it most; the effect per curator (the first curator of each
request); and on the requests with at least three level-3 documents and on those with fewer.
"""
from __future__ import annotations

import math
from typing import Mapping

import numpy as np
import pandas as pd

from gradedrel.evaluation.measures.avp import AvP
from gradedrel.report.assessment import POINTS, fmt_ci
from gradedrel.report.design import Constants
from gradedrel.report.tables import Table
from gradedrel.evaluation.comparisons import paired_difference

#: Which run of which plan set each series is: (query type, derived suffix; "" = P itself).
SERIES = {"SUM/u(P)": ("SUM/u", ""), "WSYN/u(P)": ("WSYN/u", ""),
          "WSYN/e(P-request)": ("WSYN/e", "request"),
          "WSYN/e(P-thesaurus)": ("WSYN/e", "thesaurus"),
          "WSYN/e(P-no-own)": ("WSYN/e", "no-own"), "WSYN/e(P)": ("WSYN/e", "")}
#: The five terms, in the amendment's order: (name, minuend series, subtrahend series).
TERMS = (("structure", "WSYN/u(P)", "SUM/u(P)"),
         ("request-word expansion", "WSYN/e(P-request)", "WSYN/u(P)"),
         ("thesaurus expansion", "WSYN/e(P-thesaurus)", "WSYN/e(P-request)"),
         ("other-concept keys", "WSYN/e(P-no-own)", "WSYN/e(P-thesaurus)"),
         ("curators' own keys", "WSYN/e(P)", "WSYN/e(P-no-own)"))
PRIMARY = "primary effect"
CONFIDENCE = 0.95   # of every interval (A4, A5)

DECOMPOSITION_COLUMNS = ["term", "computed_as", "requests", "mean", "low", "high",
                         "confidence"]
ROBUSTNESS_COLUMNS = ["plan_set", "row", "group", "requests", "estimate", "low", "high",
                      "interval", "note"]


def level_avp(per_topic: pd.DataFrame, run: str, level: int = 3) -> pd.Series:
    """qid → AvP(level) of one run, in points (the evaluation's ``per_topic.tsv``: one row
    per run, request and measure), requests in the findings' order (sorted by qid as text,
    as the assessment's matrices are), so that the bootstrap resamples the same requests
    and gives the findings' intervals."""
    name = str(AvP(level=level))
    rows = per_topic[(per_topic["run"] == run) & (per_topic["measure"] == name)]
    if rows.empty:
        raise ValueError(f"no per-topic {name} of run {run}")
    return pd.Series(pd.to_numeric(rows["value"]).to_numpy() * POINTS,
                     index=rows["qid"].to_numpy(), name=run).sort_index()


def series(per_topic: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """The six series of the decomposition, one column each (:data:`SERIES`), from the
    per-topic values of P (key ``""``) and its derived plan sets (keys ``request``,
    ``thesaurus``, ``no-own``), on P's requests. A request of P without a value in a
    derived run is an error; so is a derived request that P does not have."""
    missing = sorted({s for _, s in SERIES.values()} - set(per_topic))
    if missing:
        raise ValueError(f"decomposition: no per-topic values of the plan sets {missing}")
    columns = {label: level_avp(per_topic[suffix], run)
               for label, (run, suffix) in SERIES.items()}
    requests = columns["WSYN/e(P)"].index
    for label, values in columns.items():
        if set(values.index) != set(requests):
            lost = sorted(set(requests) ^ set(values.index))
            raise ValueError(f"decomposition: {label} is not over the primary plan set's "
                             f"requests (differ: {lost[:10]})")
    return pd.DataFrame({label: values.reindex(requests) for label, values in columns.items()})


def decompose(values: pd.DataFrame) -> pd.DataFrame:
    """Per request (index) the five terms and the primary effect (:data:`TERMS`, which
    telescope: tests/integrity/test_key_provenance.py)."""
    out = pd.DataFrame({name: values[a] - values[b] for name, a, b in TERMS},
                       index=values.index)
    out[PRIMARY] = values["WSYN/e(P)"] - values["SUM/u(P)"]
    return out


def summary(per_request: pd.DataFrame, rules: Constants = Constants()) -> pd.DataFrame:
    """Each term and the primary effect: mean and paired bootstrap interval (A4)."""
    computed = {name: f"{a} − {b}" for name, a, b in TERMS} | {PRIMARY: "WSYN/e(P) − SUM/u(P)"}
    rows = [{"term": name, "computed_as": how, **_interval_row(per_request[name], rules),
             "confidence": CONFIDENCE} for name, how in computed.items()]
    return pd.DataFrame(rows).rename(columns={"estimate": "mean"})[DECOMPOSITION_COLUMNS]


def own_keys_statement(table: pd.DataFrame) -> str:
    """"x of y points come from curators' own keys" (A4), other-concept keys separately."""
    by = table.set_index("term")
    own, total = by.loc["curators' own keys"], by.loc[PRIMARY]
    other = by.loc["other-concept keys"]
    return (f"{own['mean']:+.1f} of {total['mean']:+.1f} points come from curators' own keys "
            f"(95 % CI {fmt_ci(own['low'], own['high'])}); other-concept keys "
            f"{other['mean']:+.1f} {fmt_ci(other['low'], other['high'])}")


# ---------------------------------------------------------------- robustness (A5)

def primary_differences(per_topic: pd.DataFrame, first: str = "WSYN/e",
                        second: str = "SUM/u") -> pd.Series:
    """qid → the primary comparison's per-request difference (AvP level 3, points)."""
    a, b = level_avp(per_topic, first), level_avp(per_topic, second)   # each sorted by qid
    if not a.index.equals(b.index):
        raise ValueError(f"{first} and {second} are not over the same requests")
    return (a - b).rename("difference")


def _interval_row(differences: pd.Series, rules: Constants) -> dict:
    estimate, low, high = paired_difference(differences.to_numpy(), np.zeros(len(differences)),
                                            rules.resamples, CONFIDENCE, rules.seed)
    return {"requests": len(differences), "estimate": estimate, "low": low, "high": high, "interval": f"{100 * CONFIDENCE:.0f} % bootstrap"}


def leave_one_out(differences: pd.Series) -> dict:
    """The mean without each request in turn: its range, and the request whose removal moves
    the mean most (the first in qid order on a tie)."""
    d = differences.sort_index()
    n = len(d)
    if n < 2:
        return {"low": math.nan, "high": math.nan, "most_influential": "", "mean_without": math.nan}
    without = (d.sum() - d) / (n - 1)
    moved = (without - d.mean()).abs()
    most = moved.idxmax()
    return {"low": float(without.min()), "high": float(without.max()),
            "most_influential": str(most), "mean_without": float(without[most])}


def robustness(differences: Mapping[str, pd.Series], curators: Mapping[str, str],
               level3_documents: Mapping[str, int], rules: Constants = Constants(),
               threshold: int = 3) -> pd.DataFrame:
    """The robustness rows (A5) of each plan set's per-request primary differences.
    A request without a curator or a level-3 count is an error."""
    rows = []
    for plan_set, d in differences.items():
        unknown = [q for q in d.index if q not in curators or q not in level3_documents]
        if unknown:
            raise ValueError(f"robustness of {plan_set}: no curator or level-3 count for "
                             f"requests {unknown[:10]}")
        base = {"plan_set": plan_set, "note": ""}
        rows.append({**base, "row": "all requests", "group": "", **_interval_row(d, rules)})
        loo = leave_one_out(d)
        rows.append({**base, "row": "leave one request out", "group": "", "requests": len(d),
                     "estimate": float(d.mean()) if len(d) else math.nan, "low": loo["low"],
                     "high": loo["high"], "interval": "range of the mean",
                     "note": (f"most influential: {loo['most_influential']} (mean without it "
                              f"{loo['mean_without']:+.1f})") if loo["most_influential"] else ""})
        for curator, part in d.groupby(pd.Series([curators[q] for q in d.index], index=d.index)):
            rows.append({**base, "row": "curator", "group": curator, **_interval_row(part, rules)})
        counts = pd.Series([int(level3_documents[q]) for q in d.index], index=d.index)
        for label, chosen in ((f"at least {threshold} level-3 documents", counts >= threshold),
                              (f"fewer than {threshold} level-3 documents", counts < threshold)):
            row = {**base, "row": "level-3 documents", "group": label}
            rows.append({**row, **_interval_row(d[chosen], rules)} if chosen.any()
                        else {**row, "requests": 0, "interval": "", "note": "no request"})
    return pd.DataFrame(rows, columns=ROBUSTNESS_COLUMNS)


# ---------------------------------------------------------------- tables

def decomposition_table(table: pd.DataFrame, title: str) -> Table:
    """The decomposition of the primary effect by key class, as a report table."""
    shown = table[["term", "computed_as", "requests", "mean", "low", "high"]].rename(
        columns={"computed_as": "computed as", "mean": "mean (points)", "low": "95 % low",
                 "high": "95 % high"})
    notes = ["AvP at level 3 in points, InQuery; P the primary plan set, P-request / "
             "P-thesaurus / P-no-own its derived plan sets (keys of class request; request "
             "and thesaurus; all but own). The five terms add up to the primary effect request "
             "by request (pre-registration, Amendment 1, A4); intervals: paired percentile "
             "bootstrap, 10,000 resamples, seed 20000724."]
    return Table(shown, title, notes, {"mean (points)": 1, "95 % low": 1, "95 % high": 1})


def robustness_table(table: pd.DataFrame, title: str) -> Table:
    """The primary comparison per plan set, curator and subset, as a report table."""
    shown = table.rename(columns={"plan_set": "plan set", "estimate": "effect (points)"})
    notes = ["The primary comparison (WSYN/e − SUM/u, AvP level 3, InQuery) per plan set: on "
             "every request; the range of the mean leaving one request out; per (first) "
             "curator; by the number of level-3 documents (Amendment 1, A5). Reported, not "
             "deciding."]
    return Table(shown, title, notes, {"effect (points)": 1, "low": 1, "high": 1})


def shares_table(shares: pd.DataFrame, by: str, title: str) -> Table:
    """A key-source share table (:func:`gradedrel.plans.key_sources.shares`) for people:
    counts, and shares in percent."""
    from gradedrel.plans.key_sources import SOURCE_CLASSES

    shown = shares.copy()
    for name in SOURCE_CLASSES:
        shown[f"% {name}"] = 100 * shown.pop(f"share_{name}")
    shown = shown.rename(columns={"declared_not_holding": "declared, not holding",
                                  "declared_checked": "declared (checked)"})
    notes = ["Source classes computed by program (Amendment 1, A1): request (every term in "
             "the request), thesaurus (a label within two BT/NT/RT steps of a concept the "
             "request names), other_concept (a label of another concept), own (in no label). "
             "Declared thesaurus relations checked against the thesaurus."]
    return Table(shown, title, notes, {f"% {c}": 1 for c in SOURCE_CLASSES})
