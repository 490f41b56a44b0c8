"""Derived plan sets: another plan set's plans with only some of their keys (Amendment 1, A2).

A derived plan set keeps the parent's requests and structure and only the keys whose source
class (:mod:`gradedrel.plans.key_sources`) it keeps — ``P-thesaurus``: request and thesaurus
keys; ``P-no-own``: every key but ``own``; ``P-request``: request keys only — or every key
but those the blinded rater rated ``page`` (``P-inferable``, A8). Then:

- a concept left without keys (neither ``keys`` nor ``expansion``) is dropped, and a facet
  left without concepts; both are counted. A concept that keeps only expansion keys stays
  (it adds nothing to the unexpanded query types) and its facet is marked ``may_be_empty``,
  which a plan file needs for such a concept (docs/plans.md);
- a plan left with no key is kept as a plan without facets and counted: it compiles to no
  query, and the evaluation scores its request 0, as for any request a query type cannot
  run; it is never dropped;
- every derived plan has ``source: derived`` (a plan the reader accepts without facets),
  keeps its parent's note and records its parent's curator in ``curator:`` (``auto`` for an
  automatic plan); an emptied plan's note says so;
- only the plans of the requests in ``key_sources`` (the parent plan set's requests) are
  derived; the parent file's other plans (automatic plans of requests outside the plan set)
  are left out and counted.

The keys of a plan are matched to the rows of ``key_sources`` by position (facet, concept,
list, key) and text: a mismatch means the key sources were computed from other plans, and
is an error. Ratings (A8) are read per request and key text (``qid``, ``key``, ``rating``:
``inferable`` or ``page``); a key of class ``own`` or ``other_concept`` of a curated plan
without a rating is an error (the rating covers every such key), as is a rating of a key the
plans do not hold.
The share of the parent's rated keys the rater judged ``page``, per curator
(:func:`page_shares`), is written beside a derived plan set that reads ratings
(``page_shares.tsv``; A8 reports it per curator and plan set).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Iterable, Mapping

from gradedrel.core import lazy

pd = lazy.module("pandas")

from gradedrel.core.errors import InputError
from gradedrel.plans.key_sources import LISTS, SOURCE_CLASSES
from gradedrel.plans.model import Plan

RATINGS = ("inferable", "page")
RATED_CLASSES = ("own", "other_concept")


@dataclass(frozen=True)
class Derivation:
    """Which keys a derived plan set keeps: those of classes ``keep``, less the keys rated
    ``without_rating`` (None: no rating used), less the keys their curator marked
    ``recalled`` when ``without_recalled`` (Amendment 2, B7)."""

    keep: frozenset[str] = frozenset(SOURCE_CLASSES)
    without_rating: str | None = None
    name: str = ""
    without_recalled: bool = False

    @classmethod
    def from_config(cls, spec: Mapping, name: str = "") -> "Derivation":
        """``{keep: [request, thesaurus]}``, ``{without_rating: page}`` and/or
        ``{without_recalled: true}``, as the config schema checked them."""
        return cls(frozenset(spec.get("keep") or SOURCE_CLASSES), spec.get("without_rating"),
                   name, spec.get("without_recalled", False))

    def describe(self) -> str:
        """The derivation in words: which key classes are kept, less which rated keys."""
        kept = [c for c in SOURCE_CLASSES if c in self.keep]
        text = "keys of class " + ", ".join(kept) if len(kept) < len(SOURCE_CLASSES) \
            else "every key"
        if self.without_rating:
            text += f", less those rated '{self.without_rating}'"
        if self.without_recalled:
            text += ", less those marked recalled"
        return text


@dataclass
class Derived:
    """A derived plan set: its plans, the key-source rows it kept and a per-request summary."""

    plans: list[Plan]
    key_sources: pd.DataFrame         # the kept rows, positions in the derived plans
    summary: pd.DataFrame             # one row per request: what was kept and left out
    left_out_plans: list[str] = field(default_factory=list)  # plans outside key_sources


SUMMARY_COLUMNS = ["qid", "curator", "keys", "kept", *(f"dropped_{c}" for c in SOURCE_CLASSES),
                   "dropped_rated", "dropped_recalled", "concepts_dropped", "facets_dropped",
                   "empty"]


def join_ratings(items: pd.DataFrame, answers: Mapping[str, pd.DataFrame],
                 items_path: str = "<items>") -> pd.DataFrame:
    """The raters' answers (batch file -> ``item_id, rating``) joined to the rated items
    (``item_id, plan_set, qid, key``): ``plan_set, qid, key, rating``, every item rated
    exactly once (docs/key-rating.md); an unknown, repeated or missing item is an error
    naming the file and line."""
    known = set(items["item_id"])
    seen: dict[str, str] = {}
    ratings = {}
    for path, frame in answers.items():
        if not {"item_id", "rating"} <= set(frame.columns):
            raise InputError(path, 1, "a header with columns item_id and rating",
                             list(frame.columns))
        for line, (item, rating) in enumerate(zip(frame["item_id"], frame["rating"]), start=2):
            if item not in known:
                raise InputError(path, line, "an item id of the rated items", item)
            if item in seen:
                raise InputError(path, line, f"one rating per item; first in {seen[item]}", item)
            if rating not in RATINGS:
                raise InputError(path, line, f"a rating, one of {list(RATINGS)}", rating)
            seen[item] = path
            ratings[item] = rating
    missing = sorted(known - set(ratings))
    if missing:
        raise InputError(items_path, None, "a rating of every item", f"{len(missing)} "
                         f"unrated: {missing[:5]}")
    return items.assign(rating=items["item_id"].map(ratings))[
        ["plan_set", "qid", "key", "rating"]]


def ratings_table(frame: pd.DataFrame, path: str = "<ratings>",
                  plan_set: str | None = None) -> dict[tuple[str, str], str]:
    """(qid, key) → rating from :func:`join_ratings`' table (its columns and ratings checked
    there), one rating per key. A table rating the keys of several plan sets has a column
    ``plan_set``: only ``plan_set``'s rows are read."""
    lines = pd.Series(range(2, len(frame) + 2), index=frame.index)
    if "plan_set" in frame.columns and plan_set is not None:
        chosen = frame["plan_set"] == plan_set
        frame, lines = frame[chosen], lines[chosen]
    out: dict[tuple[str, str], str] = {}
    for line, qid, key, rating in zip(lines, frame["qid"], frame["key"], frame["rating"]):
        if out.get((qid, key), rating) != rating:
            raise InputError(path, line, f"one rating of key {key!r} of request {qid}", rating)
        out[(qid, key)] = rating
    return out


def derive(plans: Iterable[Plan], key_sources: pd.DataFrame, derivation: Derivation,
           ratings: Mapping[tuple[str, str], str] | None = None, parent: str = "") -> Derived:
    """The derived plans (see the module docstring)."""
    if derivation.without_rating and ratings is None:
        raise ValueError(f"derivation {derivation.name or derivation.describe()}: needs ratings")
    ratings = ratings or {}
    by_qid = {p.qid: p for p in plans}
    requests = list(dict.fromkeys(key_sources["qid"]))
    missing = [q for q in requests if q not in by_qid]
    if missing:
        raise ValueError(f"key sources name requests without a plan: {missing[:10]}")
    rows = {(r.qid, int(r.facet_no), int(r.concept_no), r.list, int(r.key_no)): r
            for r in key_sources.itertuples(index=False)}
    used: set = set()
    rated_seen: set = set()
    out_plans, kept_rows, summary, unrated = [], [], [], []
    for qid in requests:
        plan = by_qid[qid]
        counts = dict.fromkeys(SUMMARY_COLUMNS[2:-1], 0)  # keys … facets_dropped
        curator = ""
        facets = []
        for f, facet in enumerate(plan.facets):
            concepts = []
            for c, concept in enumerate(facet.concepts):
                lists = {}
                for kind in LISTS:
                    kept = []
                    for k, key in enumerate(getattr(concept, kind)):
                        where = (qid, f, c, kind, k)
                        row = rows.get(where)
                        if row is None or row.key != key.key:
                            raise ValueError(
                                f"key sources do not match the plans: request {qid}, facet "
                                f"{f}, concept {c}, {kind} {k} is {key.key!r} in the plans, "
                                f"{getattr(row, 'key', None)!r} in the key sources")
                        used.add(where)
                        curator = row.curator
                        counts["keys"] += 1
                        rating = ratings.get((qid, key.key))
                        if rating is not None:
                            rated_seen.add((qid, key.key))
                        elif derivation.without_rating and row.source_class in RATED_CLASSES \
                                and plan.source != "auto":
                            unrated.append((qid, key.key))
                        if row.source_class not in derivation.keep:
                            counts[f"dropped_{row.source_class}"] += 1
                        elif derivation.without_rating and rating == derivation.without_rating:
                            counts["dropped_rated"] += 1
                        elif derivation.without_recalled and key.recalled:
                            counts["dropped_recalled"] += 1
                        else:
                            counts["kept"] += 1
                            kept.append(key)  # the row at its place in the derived plan
                            kept_rows.append(row._replace(facet_no=len(facets),
                                                          concept_no=len(concepts),
                                                          key_no=len(kept) - 1))
                    lists[kind] = kept
                if lists["keys"] or lists["expansion"]:
                    concepts.append(replace(concept, keys=lists["keys"],
                                            expansion=lists["expansion"]))
                else:
                    counts["concepts_dropped"] += 1
            if concepts:
                # its flags too; a concept left with expansion keys only adds nothing to the
                # unexpanded query types, and the derived plan says so (may_be_empty)
                facets.append(replace(facet, concepts=concepts, may_be_empty=facet.may_be_empty
                                      or any(not c.keys for c in concepts)))
            else:
                counts["facets_dropped"] += 1
        note = plan.note
        if not facets:
            said = f"Derived{' from ' + parent if parent else ''} ({derivation.describe()}): " \
                   "no key left; runs as no query."
            note = f"{note}\n{said}" if note else said
        out_plans.append(Plan(plan.qid, plan.request, facets, "derived", note,
                              plan.curator or curator or None, plan.version))
        summary.append({"qid": qid, "curator": curator, **counts, "empty": int(not facets)})
    stale = sorted(set(rows) - used)
    if stale:
        raise ValueError(f"key sources hold {len(stale)} keys the plans do not, first "
                         f"{stale[0]}: computed from other plans")
    if unrated:
        raise ValueError(f"{len(unrated)} keys of class own/other_concept have no rating, "
                         f"first {unrated[0]}")
    unknown = sorted(set(ratings) - rated_seen)
    if unknown:
        raise ValueError(f"ratings name {len(unknown)} keys the plans do not hold, first "
                         f"{unknown[0]}")
    kept = pd.DataFrame([r._asdict() for r in kept_rows], columns=key_sources.columns)
    return Derived(out_plans, kept.reset_index(drop=True),
                   pd.DataFrame(summary, columns=SUMMARY_COLUMNS),
                   [p for p in by_qid if p not in set(requests)])


#: The columns of ``page_shares.tsv``, written beside a derived plan set that used ratings.
RATING_COLUMNS = ["curator", "rated_keys", "page", "inferable", "share_page"]


def page_shares(key_sources: pd.DataFrame, ratings: Mapping[tuple[str, str], str]) -> pd.DataFrame:
    """Per curator (and ``all``): the keys of class own or other_concept, how many the
    blinded rater rated ``page`` and ``inferable``, and the share rated ``page`` (A8). A key
    counts once per request (the rating is per request and key); a key without a rating is
    an error."""
    rated = key_sources[key_sources["source_class"].isin(RATED_CLASSES)]
    rated = rated.drop_duplicates(["qid", "key"])
    missing = [(q, k) for q, k in zip(rated["qid"], rated["key"]) if (q, k) not in ratings]
    if missing:
        raise ValueError(f"{len(missing)} own/other_concept keys have no rating, first {missing[0]}")
    rated = rated.assign(rating=[ratings[(q, k)] for q, k in zip(rated["qid"], rated["key"])])
    rows = []
    for curator, part in [*rated.groupby("curator"), ("all", rated)]:
        page = int((part["rating"] == "page").sum())
        rows.append({"curator": curator, "rated_keys": len(part), "page": page,
                     "inferable": int((part["rating"] == "inferable").sum()),
                     "share_page": page / len(part) if len(part) else math.nan})
    return pd.DataFrame(rows, columns=RATING_COLUMNS)
