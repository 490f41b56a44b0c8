"""The leak diagnostic: do a class of keys, or a curator's keys, pick out the documents a
request's page cites rather than its topic? (Amendment 1, A6: a flag, not a verdict.)

Over the (request, key) pairs of a group (a source class, or a curator), with df_R(k) the
number of documents of set R that contain every term of key k (after the term pipeline: a
document *contains* a key when it holds each of its terms, anywhere), L3 and L2 the
request's documents judged exactly 3 and exactly 2, and N the collection:

    level-3 lift        = Σ df_L3(k)/|L3|  ÷  Σ df_N(k)/N
    level-3/2 selectivity = Σ df_L3(k)/|L3| ÷  Σ df_L2(k)/|L2|

(the pairs of requests without level-2 documents are left out of the selectivity). Intervals:
the requests of the group are resampled with replacement (a request with all its keys), the
study design's resamples and seed (its ``constants``;
:func:`gradedrel.evaluation.measures.significance.resample_counts`, the evaluation's
resamples), 95 % percentile intervals of both ratios. A group is **flagged**
when its selectivity interval lies entirely above that of the same plan set's ``thesaurus``
class.

Choices where the amendment is silent (reported to the lead):

- a pair is a request and a key's term set, once (the same key under two concepts of a plan
  counts once; its class and curator are the request's and the key's, so they agree);
- keys without an indexed term (they match nothing in the queries) and requests without a
  level-3 document (no |L3| to divide by) are left out of every ratio and counted;
- a group's requests are those with at least one of its pairs; the selectivity's are those
  of them with level-2 documents, resampled on their own; a resample whose denominator is 0
  gives +inf (numerator > 0) or is undefined (0/0: left out, counted in ``undefined_lift``,
  ``undefined_selectivity``), and the percentiles are numpy's linear ones, +inf where they
  touch an infinite value;
- a group without a pair with level-2 documents is not flagged (``flagged`` empty), nor is
  any group when the thesaurus class has none (``no``).
"""
from __future__ import annotations

import math
from typing import Mapping

import numpy as np
import pandas as pd

from gradedrel.collection.matches import every_term_documents
from gradedrel.collection.postings import PostingArrays
from gradedrel.evaluation.measures.significance import resample_counts
from gradedrel.plans.key_sources import SOURCE_CLASSES
from gradedrel.report.design import Constants
from gradedrel.report.tables import Table

PAIR_COLUMNS = ["qid", "terms", "source_class", "curator", "df_N", "df_L3", "df_L2", "n_L3",
                "n_L2"]
LEAK_COLUMNS = ["group_by", "group", "requests", "pairs", "lift", "lift_low", "lift_high",
                "selectivity", "selectivity_low", "selectivity_high", "selectivity_requests",
                "undefined_lift", "undefined_selectivity", "flagged"]
REFERENCE = "thesaurus"


class Documents:
    """Docno → internal id of the posting arrays, and the documents containing a key."""

    def __init__(self, arrays: PostingArrays):
        self.arrays, self.N = arrays, arrays.N   # N: the number of documents in the index
        self.ids = {str(d): i for i, d in enumerate(arrays.docnos.tolist())}
        self._cache: dict[tuple[str, ...], np.ndarray] = {}

    def containing(self, terms: tuple[str, ...]) -> np.ndarray:
        """Ids of the documents holding every term of ``terms`` (memoised; none for no term)."""
        if terms not in self._cache:
            self._cache[terms] = every_term_documents(self.arrays, terms)
        return self._cache[terms]

    def id_set(self, docnos, where: str) -> np.ndarray:
        """Sorted document ids of ``docnos``; ValueError naming those not in the index."""
        missing = [d for d in docnos if d not in self.ids]
        if missing:
            raise ValueError(f"{where}: documents {missing[:5]} are not in the index")
        return np.array(sorted(self.ids[d] for d in docnos), dtype=np.int64)


def judged(qrels: pd.DataFrame, grade: int) -> dict[str, list[str]]:
    """qid → the docnos judged exactly ``grade`` (columns qid, docno, grade)."""
    chosen = qrels[pd.to_numeric(qrels["grade"]) == grade]
    return {q: list(g["docno"]) for q, g in chosen.groupby("qid", sort=False)}


def pairs(key_sources: pd.DataFrame, documents: Documents,
          qrels: pd.DataFrame) -> tuple[pd.DataFrame, dict]:
    """One row per (request, key terms) with its class, curator and frequencies; and what was
    left out (``keys_without_terms``, ``requests_without_level3`` and their pairs)."""
    l3s, l2s = judged(qrels, 3), judged(qrels, 2)
    rows, left = [], {"keys_without_terms": 0, "requests_without_level3": set(),
                      "pairs_without_level3": 0}
    seen = set()
    for row in key_sources.itertuples(index=False):
        terms = tuple(str(row.terms).split()) if row.terms else ()
        if not terms:
            left["keys_without_terms"] += 1
            continue
        if (row.qid, frozenset(terms)) in seen:
            continue
        seen.add((row.qid, frozenset(terms)))
        l3 = l3s.get(row.qid, [])
        if not l3:
            left["requests_without_level3"].add(row.qid)
            left["pairs_without_level3"] += 1
            continue
        l3_ids = documents.id_set(l3, f"request {row.qid}")
        l2_ids = documents.id_set(l2s.get(row.qid, []), f"request {row.qid}")
        found = documents.containing(terms)
        rows.append({"qid": row.qid, "terms": " ".join(terms), "source_class": row.source_class,
                     "curator": row.curator, "df_N": len(found),
                     "df_L3": int(np.isin(found, l3_ids, assume_unique=True).sum()),
                     "df_L2": int(np.isin(found, l2_ids, assume_unique=True).sum()),
                     "n_L3": len(l3_ids), "n_L2": len(l2_ids)})
    left["requests_without_level3"] = sorted(left["requests_without_level3"])
    return pd.DataFrame(rows, columns=PAIR_COLUMNS), left


def linear_percentile(values: np.ndarray, q: float) -> float:
    """numpy's default (linear) percentile, also where an infinite value is touched (numpy
    gives NaN there; here the infinite neighbour wins)."""
    values = np.asarray(values, dtype=np.float64)
    if np.all(np.isfinite(values)):
        return float(np.percentile(values, q))
    ordered = np.sort(values)
    h = (len(ordered) - 1) * q / 100.0
    lo = int(math.floor(h))
    a, b = float(ordered[lo]), float(ordered[math.ceil(h)])
    if math.isinf(a) and not math.isinf(b):
        return a
    return a if a == b else a + (h - lo) * (b - a)   # −∞ and +∞: NaN; a finite a, +∞: +∞


def _percentiles(values: np.ndarray, confidence: float) -> tuple[float, float]:
    """The interval of the defined (not NaN) resampled values."""
    values = values[~np.isnan(values)]
    if values.size == 0:
        return math.nan, math.nan
    tail = (1.0 - confidence) / 2.0 * 100.0
    return linear_percentile(values, tail), linear_percentile(values, 100.0 - tail)


def _bootstrap(sums: pd.DataFrame, numerator: str, denominator: str,
               rules: Constants) -> tuple[float, float, float, int]:
    """Ratio of sums over requests (rows), its 95 % percentile interval over resampled
    requests, and the number of undefined (0/0) resamples."""
    n = len(sums)
    if n == 0:
        return math.nan, math.nan, math.nan, 0
    numerator, denominator = (sums[c].to_numpy(np.float64) for c in (numerator, denominator))
    counts = resample_counts(n, rules.resamples, rules.seed)
    with np.errstate(divide="ignore", invalid="ignore"):   # sums ≥ 0: x/0 is +inf, 0/0 NaN
        estimate = numerator.sum() / denominator.sum()
        resampled = (counts @ numerator) / (counts @ denominator)
    low, high = _percentiles(resampled, 0.95)
    return float(estimate), low, high, int(np.isnan(resampled).sum())


def pooled(group: pd.DataFrame, N: int, rules: Constants) -> dict:
    """Lift and selectivity of one group's pairs, with their bootstrap intervals: the lift
    over the group's requests, the selectivity over those of them with level-2 documents
    (each resampled on its own, the evaluation's resamples for that number of requests);
    ``rules``: the study design's constants (resamples, seed)."""
    per = group.assign(a=group["df_L3"] / group["n_L3"], b=group["df_N"] / N,
                       c=group["df_L2"] / group["n_L2"].where(group["n_L2"] > 0))
    sums = per.groupby("qid", sort=True).agg(a=("a", "sum"), b=("b", "sum"),
                                             c=("c", "sum"), l2=("n_L2", "max"))
    with_l2 = sums[sums["l2"] > 0]
    out = {"requests": len(sums), "pairs": len(group), "selectivity_requests": len(with_l2)}
    for name, part, denominator in (("lift", sums, "b"), ("selectivity", with_l2, "c")):
        values = _bootstrap(part, "a", denominator, rules)
        out |= dict(zip((name, f"{name}_low", f"{name}_high", f"undefined_{name}"), values))
    return out


def diagnostic(pair_table: pd.DataFrame, N: int, rules: Constants) -> pd.DataFrame:
    """One row per source class and per curator (and one over all pairs), flagged when the
    selectivity interval lies entirely above the ``thesaurus`` class's (A6)."""
    groups = [("all", "all")] + [("source_class", name) for name in SOURCE_CLASSES] \
        + [("curator", curator) for curator in sorted(set(pair_table["curator"]))]
    rows = [{"group_by": by, "group": group, **pooled(
        pair_table if by == "all" else pair_table[pair_table[by] == group], N, rules)}
        for by, group in groups]
    reference = next(r for r in rows if r["group_by"] == "source_class" and r["group"] == REFERENCE)
    high = reference["selectivity_high"]   # NaN or +∞: no group lies above it
    for row in rows:
        unflagged = row["group_by"] == "all" or row is reference or not row["selectivity_requests"]
        above = math.isfinite(high) and row["selectivity_low"] > high   # False for a NaN low
        row["flagged"] = "" if unflagged else "yes" if above else "no"
    return pd.DataFrame(rows, columns=LEAK_COLUMNS)


def leak_table(table: pd.DataFrame, title: str, rules: Constants, left_out: Mapping) -> Table:
    """The level-3 lift and selectivity table by key class, as a report table (``rules``: the
    constants :func:`diagnostic` drew with; ``left_out``: what :func:`pairs` left out)."""
    shown = table.rename(columns={"group_by": "by", "selectivity_requests": "requests (L2)",
                                  "undefined_lift": "undefined (lift)",
                                  "undefined_selectivity": "undefined (sel.)"})
    notes = ["Level-3 lift = Σ df_L3/|L3| ÷ Σ df_N/N and level-3/level-2 selectivity = "
             "Σ df_L3/|L3| ÷ Σ df_L2/|L2| over the group's (request, key) pairs; a document "
             "contains a key when it holds every term of it. 95 % intervals: requests "
             f"resampled, {rules.resamples:,} resamples, seed {rules.seed}. Flagged: the "
             "selectivity interval lies entirely above the thesaurus class's (Amendment 1, "
             "A6): a flag, not a verdict.",
             f"Left out: {left_out['keys_without_terms']} keys without an indexed term; "
             f"{left_out['pairs_without_level3']} pairs of "
             f"{len(left_out['requests_without_level3'])} requests without a level-3 document."]
    digits = {c: 2 for c in ("lift", "lift_low", "lift_high", "selectivity", "selectivity_low",
                             "selectivity_high")}
    return Table(shown, title, notes, digits, infinite="∞")
