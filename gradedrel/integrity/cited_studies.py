"""Probe v2's amended cited-study rule: which requests does the curators' model remember?

Protocol: docs/memory-probe.md, "Probe v2"; rules: docs/preregistration-nfcorpus.md,
Amendment 2, B5–B6 (fixed before any v2 answer was scored). Every real request has several
answers (:class:`Given`: framings ``page`` and ``claim``, samples; framing ``v1`` for the 30
curated requests' probe-v1 answer). Terms: as in :mod:`gradedrel.integrity.memory_probe`.

- A claimed title T **matches** a document title D at θ when Dice(T, D) ≥ θ and |T ∩ D| ≥ 2;
  a request's *best similarity* to a document is the highest such Dice over all titles its
  answers claim (pooled over samples and framings): :func:`best_similarity`.
- **θ** is the smallest of :data:`THETAS` at which both null rates are at most 5 %
  (:func:`choose_theta`): the *placebo rate* (placebos whose answers match a level-3 title
  of the real request assigned to them: :func:`memory_probe.placebo_assignment`) and the
  *permutation rate* (over :data:`DERANGEMENTS` derangements of the real requests, the
  (request, partner) pairs whose answers match a level-3 title of the partner, less the
  documents judged for the request itself). If none does, θ = 1.00.
- A real request is **remembered** if its answers match one of its own level-3 titles at θ;
  otherwise **cleared**.
- **Cranfield's low matches, checked** (Amendment 3, C5): on Cranfield a document matched
  only at Dice below :data:`CHECKED_BELOW` counts only where a separate checker said that a
  claimed study naming it is that paper (``confirmed``: the (qid, docno) pairs it confirmed;
  :func:`confirmed_matches`). The count before the check is kept in the decisions.

Reported beside the verdicts: the null rates at every θ, the Cranfield permutation rate, the
*level-1 hit rate* (answers matching a title judged exactly 1: a topical hit, not a
page-specific one), and the ``known`` answers and match rates per source, pool and framing.

Choices where the amendment is silent (reported with the code):

- the null baselines use the v2 answers only (probe v1 had other placebos and one sample);
  the v1 answers of the curated requests count for their own verdicts only;
- a (request, partner) pair whose partner has no level-3 document left after the request's
  own judged documents are left out is not counted (it cannot match);
- a derangement is drawn as ``numpy.random.default_rng(seed).permutation(n)`` (seed: the
  study design's ``constants.seed``), drawn again
  until no request is its own partner; the placebos' real requests and the real requests'
  partners are in probe-id order;
- a claimed title without a term, or with fewer than two, matches nothing.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from gradedrel.core.errors import InputError
from gradedrel.integrity import memory_probe
from gradedrel.integrity.memory_probe import (CLAIMS, PLACEBO, REAL, REFERENCE, Answer,
                                           best_similarity, parse_answers, placebo_assignment)
from gradedrel.report.tables import Table

#: The grid θ is chosen from (Amendment 2, B5).
THETAS = (0.60, 0.65, 0.70, 0.75, 0.80, 0.85, 0.90, 0.95, 1.00)
NULL_BOUND = 0.05
MIN_SHARED = 2
DERANGEMENTS = 20
#: Amendment 3, C5: a Cranfield match below this Dice counts only when a checker confirms it.
CHECKED_BELOW = 0.70
CHECK_VERDICTS = ("same", "different", "unsure")
#: B3/B8: the extension pool is called in when fewer fresh video requests are cleared.
FRESH_AIM = 50
FRAMINGS = ("page", "claim")
V1 = "v1"
REQUEST_COLUMNS = ["probe_id", "source", "qid", "pool", "text"]
_FILE = re.compile(r"^(page|claim)-(\d+)-([A-Za-z0-9]+)\.ya?ml$")


# ---------------------------------------------------------------- reading

def read_requests(path: str | Path) -> pd.DataFrame:
    """``config/probe/v2/requests.tsv``, checked as v1's are, in probe-id order."""
    frame = memory_probe.read_requests(path, REQUEST_COLUMNS)
    return frame.sort_values("probe_id").reset_index(drop=True)


@dataclass(frozen=True)
class Given:
    """One answer to one text: which framing and sample gave it."""

    probe_id: str
    framing: str      # page | claim | v1
    sample: int
    answer: Answer

    @property
    def label(self) -> str:
        """``page-1``, ``claim-3``, ``v1``."""
        return V1 if self.framing == V1 else f"{self.framing}-{self.sample}"


def read_answers(paths: Iterable[str | Path], requests: pd.DataFrame,
                 batches: pd.DataFrame) -> list[Given]:
    """Every v2 answer file (named ``<framing>-<sample>-<batch>.yaml``): an id outside the
    file's batch, a second answer of one sample, or a text of ``batches`` without its answer
    is an error naming the file."""
    wanted: dict[tuple[str, int, str], set] = {}
    for r in batches.itertuples():
        wanted.setdefault((r.framing, int(r.sample), r.batch), set()).add(r.probe_id)
    known = set(requests["probe_id"])
    out: list[Given] = []
    seen: dict[tuple[str, str, int], str] = {}
    covered: set[tuple[str, int, str]] = set()
    for path in sorted(Path(p) for p in paths):
        found = _FILE.match(path.name)
        if not found:
            raise InputError(path, None, "an answer file named <framing>-<sample>-<batch>.yaml",
                             path.name)
        framing, sample, batch = found.group(1), int(found.group(2)), found.group(3)
        ids = wanted.get((framing, sample, batch))
        if ids is None:
            raise InputError(path, None, "a batch of config/probe/v2/batches.tsv",
                             f"{framing} {sample} {batch}")
        covered.add((framing, sample, batch))
        for answer in parse_answers(path.read_text(encoding="utf-8"), path, version=2):
            if answer.probe_id not in known or answer.probe_id not in ids:
                raise InputError(answer.where, None, f"an id of batch {batch}", answer.probe_id)
            key = (answer.probe_id, framing, sample)
            if key in seen:
                raise InputError(answer.where, None, f"one answer per id (first at {seen[key]})",
                                 answer.probe_id)
            seen[key] = answer.where
            out.append(Given(answer.probe_id, framing, sample, answer))
    missing = sorted(set(wanted) - covered)
    if missing:
        raise ValueError(f"probe v2: no answer file for {len(missing)} batches: {missing[:5]}")
    unanswered = sorted((p, f, s) for (f, s, b), ids in wanted.items() for p in ids
                        if (p, f, s) not in seen)
    if unanswered:
        raise ValueError(f"probe v2: {len(unanswered)} texts without an answer: {unanswered[:5]}")
    return out


def v1_answers(requests_v1: pd.DataFrame, answers_v1: Mapping[str, Answer],
               requests: pd.DataFrame) -> list[Given]:
    """The probe-v1 answers of the real NutritionFacts requests probed again in v2 (the 30
    curated: Amendment 2, B6), as answers of framing ``v1`` under the v2 probe id. Probe v1's
    Cranfield and placebo answers are not carried over."""
    v2_id = {(r.source, r.qid): r.probe_id for r in requests.itertuples()}
    return [Given(v2_id[r.source, r.qid], V1, 1, answers_v1[r.probe_id])
            for r in requests_v1.itertuples()
            if (r.source, r.qid) in v2_id and r.source == REAL and r.probe_id in answers_v1]


# ---------------------------------------------------------------- matching

@dataclass
class Judged:
    """The judgements one source is scored against: per request its documents by level, and
    every judged document's title as a term set."""

    levels: Mapping[str, Mapping[str, int]]   # qid -> docno -> level
    titles: Mapping[str, frozenset]           # docno -> title terms

    def at(self, qid: str, level: int) -> list[str]:
        """The documents judged exactly ``level`` for ``qid``."""
        return sorted(d for d, g in self.levels.get(qid, {}).items() if g == level)


def similarities(claimed: Sequence[frozenset], docnos: Iterable[str],
                 judged: Judged) -> dict[str, float]:
    """docno → best similarity of the claimed titles to its title."""
    return {d: best_similarity(claimed, judged.titles[d], MIN_SHARED) for d in docnos}


def _titles(given: Given, terms: Callable[[str], tuple[str, ...]]) -> list[frozenset]:
    return [t for s in given.answer.cited_studies if (t := frozenset(terms(s.title)))]


def _matches(given: Given, terms, docnos: Iterable[str], judged: Judged, theta: float) -> bool:
    return any(reaches(v, theta) for v in similarities(_titles(given, terms), docnos,
                                                        judged).values())


def derangements(n: int, count: int, seed: int) -> list[np.ndarray]:
    """``count`` seeded permutations of range(n) without a fixed point (module docstring)."""
    if n < 2:
        return []
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        order = rng.permutation(n)
        if not (order == np.arange(n)).any():
            out.append(order)
    return out


def permutation_best(claimed: Mapping[str, Sequence[frozenset]], qids: Mapping[str, str],
                     order: Sequence[str], judged: Judged, seed: int,
                     count: int = DERANGEMENTS) -> list[float]:
    """Per (request, partner) pair of ``count`` derangements of ``order`` (probe ids): the
    best similarity of the request's claimed titles to the partner's level-3 titles, less the
    documents judged for the request itself; pairs with nothing left are not counted."""
    out = []
    for perm in derangements(len(order), count, seed):
        for i, j in enumerate(perm):
            own = judged.levels.get(qids[order[i]], {})
            targets = [d for d in judged.at(qids[order[j]], 3) if d not in own]
            if targets:
                out.append(max(similarities(claimed[order[i]], targets, judged).values()))
    return out


def reaches(similarity, theta: float):
    """``similarity`` (a number or an array) at or above ``theta``, up to rounding."""
    return similarity >= theta - 1e-12


def rate(values: Sequence[float], theta: float) -> float:
    """The share of ``values`` at or above ``theta`` (NaN for none)."""
    return float(np.mean(reaches(np.asarray(values), theta))) if len(values) else math.nan


def choose_theta(placebo: Sequence[float], permutation: Sequence[float]) -> float:
    """The smallest θ of :data:`THETAS` at which both null rates are at most
    :data:`NULL_BOUND` (the last θ if none)."""
    return next((theta for theta in THETAS if rate(placebo, theta) <= NULL_BOUND
                 and rate(permutation, theta) <= NULL_BOUND), THETAS[-1])


# ---------------------------------------------------------------- scoring

PER_REQUEST_COLUMNS = ["probe_id", "source", "pool", "qid", "answers", "claimed_titles",
                       "known_page", "known_claim", "known_v1", "level3", "best_level3",
                       "matched", "matched_documents", "matched_by", "level1", "level1_hits",
                       "remembered"]
NULL_COLUMNS = ["theta", "placebo_rate", "placebos", "permutation_rate", "permutation_pairs",
                "cranfield_permutation_rate", "cranfield_pairs", "level1_rate",
                "level1_requests"]


def confirmed_matches(items: pd.DataFrame, checks: pd.DataFrame,
                      items_path: str = "<items>", checks_path: str = "<checks>") -> set:
    """The (qid, docno) pairs a checker confirmed (Amendment 3, C5): ``checks`` (``check_id,
    verdict``) joined to ``items`` (``check_id, qid, docno``); every item checked exactly once,
    each verdict one of :data:`CHECK_VERDICTS`; an error names the file and line."""
    if not {"check_id", "verdict"} <= set(checks.columns):
        raise InputError(checks_path, 1, "a header with columns check_id and verdict",
                         list(checks.columns))
    where = {c: (str(q), str(d)) for c, q, d in zip(items["check_id"], items["qid"],
                                                   items["docno"])}
    seen: dict[str, int] = {}
    for line, (check, verdict) in enumerate(zip(checks["check_id"], checks["verdict"]), start=2):
        if check not in where:
            raise InputError(checks_path, line, f"a check id of {items_path}", check)
        if check in seen:
            raise InputError(checks_path, line, f"one verdict per item (first on line "
                                                f"{seen[check]})", check)
        if verdict not in CHECK_VERDICTS:
            raise InputError(checks_path, line, f"a verdict, one of {list(CHECK_VERDICTS)}",
                             verdict)
        seen[check] = line
    missing = sorted(set(where) - set(seen))
    if missing:
        raise InputError(checks_path, None, f"a verdict for every item of {items_path}",
                         f"{len(missing)} unchecked: {missing[:5]}")
    return {where[c] for c, v in zip(checks["check_id"], checks["verdict"]) if v == "same"}


def score(requests: pd.DataFrame, given: Sequence[Given], judged: Mapping[str, Judged],
          terms: Callable[[str], tuple[str, ...]], seed: int,
          confirmed: set | None = None) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """Per real request its answers, matches and verdict; the null rates at every θ; the
    decisions (θ and its rates). ``judged`` maps ``nfcorpus`` and ``cranfield`` to their
    judgements (a placebo is scored against a real NutritionFacts request's); ``seed``: the
    study design's; ``confirmed``: the Cranfield (qid, docno) matches below
    :data:`CHECKED_BELOW` a checker confirmed (None: no check, every match counts)."""
    by_id = {r.probe_id: r for r in requests.itertuples(index=False)}
    answered: dict[str, list[Given]] = {p: [] for p in by_id}
    for g in given:
        answered[g.probe_id].append(g)
    titles_of = {p: [t for g in gs for t in _titles(g, terms)] for p, gs in answered.items()}
    v2_titles = {p: [t for g in gs if g.framing != V1 for t in _titles(g, terms)]
                 for p, gs in answered.items()}
    real, reference, placebos = ([p for p in sorted(by_id) if by_id[p].source == source]
                                 for source in (REAL, REFERENCE, PLACEBO))
    qids = {p: by_id[p].qid for p in by_id}
    nf, cran = judged.get(REAL), judged.get(REFERENCE)

    assigned = placebo_assignment(placebos, real, seed)
    placebo_best = [max(similarities(v2_titles[p], nf.at(qids[assigned[p]], 3), nf).values(),
                        default=0.0) for p in placebos]
    permutation = permutation_best(v2_titles, qids, real, nf, seed)
    cranfield_permutation = permutation_best(v2_titles, qids, reference, cran, seed)

    theta = choose_theta(placebo_best, permutation)
    rows, level1_best, unchecked = [], [], 0
    below = {REAL: 0, REFERENCE: 0}
    for p in real + reference:
        r, source = by_id[p], by_id[p].source
        mine = judged[source]
        own3 = similarities(titles_of[p], mine.at(r.qid, 3), mine)
        own1 = similarities(titles_of[p], mine.at(r.qid, 1), mine)
        best1 = max(own1.values(), default=0.0)
        if own1:
            level1_best.append(best1)
        matched = {d: s for d, s in own3.items() if reaches(s, theta)}
        below[source] += sum(s < CHECKED_BELOW for s in matched.values())
        if source == REFERENCE and confirmed is not None:
            unchecked += bool(matched)
            matched = {d: s for d, s in matched.items()
                       if s >= CHECKED_BELOW or (str(r.qid), d) in confirmed}
        by = sorted({g.label for g in answered[p] if _matches(g, terms, matched, mine, theta)})
        rows.append({"probe_id": p, "source": source, "pool": r.pool, "qid": r.qid,
                     "answers": len(answered[p]), "claimed_titles": len(titles_of[p]),
                     **{f"known_{f}": ",".join(g.answer.remembers_page for g in sorted(
                         answered[p], key=lambda g: g.sample) if g.framing == f)
                        for f in (*FRAMINGS, V1)},
                     "level3": len(own3), "best_level3": max(own3.values(), default=0.0),
                     "matched": len(matched), "matched_by": " ".join(by),
                     "matched_documents": " ".join(f"{d}:{s:.3f}"
                                                   for d, s in sorted(matched.items())),
                     "level1": len(own1), "level1_hits": "yes" if reaches(best1, theta) else "no",
                     "remembered": "yes" if matched else "no"})

    null_rows = [{"theta": t, "placebo_rate": rate(placebo_best, t), "placebos": len(placebos),
                  "permutation_rate": rate(permutation, t), "permutation_pairs": len(permutation),
                  "cranfield_permutation_rate": rate(cranfield_permutation, t),
                  "cranfield_pairs": len(cranfield_permutation),
                  "level1_rate": rate(level1_best, t), "level1_requests": len(level1_best)}
                 for t in THETAS]
    table = pd.DataFrame(rows, columns=PER_REQUEST_COLUMNS)
    at = next(r for r in null_rows if r["theta"] == theta)
    fresh = table[(table["source"] == REAL) & (table["pool"] == "fresh")]
    decisions = {"theta": theta, "placebo_rate": at["placebo_rate"],
                 "permutation_rate": at["permutation_rate"],
                 "cranfield_permutation_rate": at["cranfield_permutation_rate"],
                 "null_bound": NULL_BOUND, "min_shared_terms": MIN_SHARED,
                 "derangements": DERANGEMENTS, "seed": seed,
                 "fresh_cleared": int((fresh["remembered"] == "no").sum()),
                 "fresh_requests": int(len(fresh)),
                 "extension_used": bool((fresh["remembered"] == "no").sum() < FRESH_AIM),
                 "nfcorpus_matches_below_0.70": below[REAL],
                 "cranfield_matches_below_0.70": below[REFERENCE]}
    if confirmed is not None:   # Amendment 3, C5: Cranfield's remembered before the check
        decisions["cranfield_remembered_unchecked"] = unchecked
        decisions["cranfield_remembered"] = int(
            (table.loc[table["source"] == REFERENCE, "remembered"] == "yes").sum())
    return table, pd.DataFrame(null_rows, columns=NULL_COLUMNS), decisions


RATE_COLUMNS = ["source", "pool", "framing", "requests", "answers", *(f"known_{c}" for c in CLAIMS),
                "titles_per_answer", "with_match", "remembered"]


def rates(table: pd.DataFrame, given: Sequence[Given], requests: pd.DataFrame,
          judged: Mapping[str, Judged], terms: Callable[[str], tuple[str, ...]],
          theta: float, seed: int) -> pd.DataFrame:
    """Per source, pool and framing: the ``known`` answers (shares of answers), titles named
    per answer, the share of requests that framing's answers match at θ (own level-3 titles),
    and the share remembered (any framing); placebos: against their assigned request
    (``seed``: the study design's)."""
    pool_of, source_of, qid_of = (dict(zip(requests["probe_id"], requests[c]))
                                  for c in ("pool", "source", "qid"))
    assigned = placebo_assignment([p for p, s in source_of.items() if s == PLACEBO],
                                  [p for p, s in source_of.items() if s == REAL], seed)
    remembered = dict(zip(table["probe_id"], table["remembered"]))
    groups: dict[tuple[str, str, str], list[Given]] = {}
    for g in given:
        groups.setdefault((source_of[g.probe_id], pool_of[g.probe_id], g.framing), []).append(g)
    rows = []
    for (source, pool, framing), items in sorted(groups.items()):
        ids = sorted({g.probe_id for g in items})
        mine = judged[REAL if source == PLACEBO else source]   # a placebo: its assigned request
        matched = {g.probe_id for g in items if _matches(
            g, terms, mine.at(qid_of[assigned.get(g.probe_id, g.probe_id)], 3), mine, theta)}
        n = len(items)
        rows.append({"source": source, "pool": pool, "framing": framing, "requests": len(ids),
                     "answers": n,
                     **{f"known_{c}": sum(g.answer.remembers_page == c for g in items) / n
                        for c in CLAIMS},
                     "titles_per_answer": sum(len(g.answer.cited_studies) for g in items) / n,
                     "with_match": len(matched) / len(ids),
                     "remembered": (sum(remembered.get(p) == "yes" for p in ids) / len(ids))
                     if source != PLACEBO else math.nan})
    return pd.DataFrame(rows, columns=RATE_COLUMNS)


def remembered(table: pd.DataFrame) -> pd.DataFrame:
    """The remembered real requests, with the answers that named a level-3 title."""
    chosen = table[table["remembered"] == "yes"]
    return chosen[["source", "qid", "probe_id", "pool", "matched_by"]].reset_index(drop=True)


def markdown(table: pd.DataFrame, nulls: pd.DataFrame, by_framing: pd.DataFrame,
             decisions: Mapping) -> str:
    """The probe's report: the null rates and θ, the rates per source, pool and framing, the
    cleared and remembered counts."""
    lines = ["# Memory probe v2 (Amendment 2, B4–B6; docs/memory-probe.md)", "",
             f"- θ = **{decisions['theta']:.2f}**: the smallest of the grid at which the placebo "
             f"rate ({decisions['placebo_rate']:.1%}) and the permutation rate "
             f"({decisions['permutation_rate']:.1%}) are both at most "
             f"{decisions['null_bound']:.0%}; a match also needs {decisions['min_shared_terms']} "
             "shared terms. Cranfield's permutation rate at θ: "
             f"{decisions['cranfield_permutation_rate']:.1%}.",
             f"- Fresh video requests cleared: **{decisions['fresh_cleared']} of "
             f"{decisions['fresh_requests']}**; the extension pool "
             + (f"**is** used (fewer than {FRESH_AIM} cleared)." if decisions["extension_used"]
                else f"is not used ({FRESH_AIM} or more cleared).")]
    if "cranfield_remembered" in decisions:
        lines.append(f"- Cranfield's matches below Dice {CHECKED_BELOW:.2f}, checked "
                     "(Amendment 3, C5): a separate checker read each against the document's "
                     "title; Cranfield requests called remembered: "
                     f"**{decisions['cranfield_remembered_unchecked']} before the check → "
                     f"{decisions['cranfield_remembered']} after**. NutritionFacts matches "
                     f"below {CHECKED_BELOW:.2f} (not checked; Amendment 2's cleared set stands): "
                     f"{decisions['nfcorpus_matches_below_0.70']}.")
    lines.append("")
    lines.append(Table(nulls, "Null rates at every θ",
                       ["Placebo: answers to placebos against the level-3 titles of the real "
                        "request assigned to each; permutation: (request, partner) pairs of "
                        f"{decisions['derangements']} derangements; level 1: requests whose "
                        "answers match a title of their own level-1 documents (a topical hit)."],
                       {c: 3 for c in NULL_COLUMNS if c.endswith("rate")} | {"theta": 2}
                       ).to_markdown())
    lines.append(Table(by_framing, "Answers and matches per source, pool and framing",
                       ["known_*: shares of the answers; with_match: share of the requests "
                        "whose answers in that framing name one of their level-3 titles at θ "
                        "(placebos: of the assigned request); remembered: by any answer."],
                       {c: 3 for c in RATE_COLUMNS[5:]}).to_markdown())
    counts = table.groupby(["source", "pool"])["remembered"].agg(
        requests="size", remembered=lambda s: int((s == "yes").sum())).reset_index()
    counts["cleared"] = counts["requests"] - counts["remembered"]
    lines.append(Table(counts, "Remembered and cleared requests", []).to_markdown())
    return "\n".join(lines) + "\n"
