"""The qualified headline of each testbed (docs/preregistration.md, Amendment 1, A3, A7).

The pre-registered primary comparison keeps its verdict. Beside it the amendment states, by
the same verdict table: **H2q**, the primary comparison with the primary plan set's
``-thesaurus`` plans (request and thesaurus keys only) on the requests the memory probe
clears; the primary comparison on the cleared requests and, as a sensitivity row, on the
remembered ones; and how many of the primary effect's points come from the curators' own
keys (the decomposition, :mod:`gradedrel.report.key_provenance`). A curation is called
blind only for the requests the probe clears. Pure functions over the evaluation's
per-topic values, the probe's remembered requests and the decomposition table.
"""
from __future__ import annotations

from typing import Mapping, Sequence

import pandas as pd

from gradedrel.report import assessment
from gradedrel.report.assessment import fmt
from gradedrel.report.cited_studies import FRESH_AIM
from gradedrel.report.design import Design

COLUMNS = ["collection", "row", "plan_set", "requests", "excluded", "estimate", "low", "high",
           "published", "p_value", "verdict", "size"]


def _row(collection: str, label: str, plan_set: str, per_topic: pd.DataFrame,
         keep: Sequence[str], excluded: int, paper: assessment.Published,
         study: Design) -> dict:
    headline = study.finding(2).headline
    first, second = headline.first, headline.second
    matrix = assessment.avp_matrix(per_topic.assign(value=pd.to_numeric(per_topic["value"])),
                                   headline.level, [first, second])
    matrix = matrix[matrix.index.isin(list(keep))]
    row = assessment._row(2, label, f"{first} - {second}", "", matrix[first], matrix[second],
                          paper.difference(first, second, headline.level), study.constants,
                          False)
    # beside the columns (not written to headline.tsv): the minimum detectable effect and
    # how many requests have the second type at AvP 100 already (no gain possible)
    return {"collection": collection, "row": label, "plan_set": plan_set,
            "requests": len(matrix), "excluded": excluded, "published": row["published"],
            "ceiling": int((matrix[second] >= assessment.POINTS - 1e-9).sum()),
            **{k: row[k] for k in ("estimate", "low", "high", "p_value", "size", "mde")},
            "verdict": row["verdict"] if len(matrix) else ""}


#: The rows of a testbed's headline (Amendment 1, A3), in order: (label, which plan set: the
#: primary's "thesaurus" derivation or its full plans, which requests).
HEADLINE_ROWS = (
    ("primary (pre-registered), every request", "all", "every"),
    ("H2q: request and thesaurus keys, requests the probe clears", "thesaurus", "cleared"),
    ("primary, requests the probe clears", "all", "cleared"),
    ("primary, requests the probe calls remembered (sensitivity)", "all", "remembered"),
)
#: Amendment 2's rows of the fresh requests (docs/preregistration-nfcorpus.md, B8, B9), in
#: the same form; the first decides the amendment's verdict.
FRESH_PRIMARY = "Amendment 2 primary: request and thesaurus keys, fresh requests the probe clears"
FRESH_ROWS = (
    (FRESH_PRIMARY, "thesaurus", "cleared"),
    ("fresh, all keys, requests the probe clears", "all", "cleared"),
    ("fresh, request and thesaurus keys, requests the probe calls remembered", "thesaurus",
     "remembered"),
    ("fresh, all keys, requests the probe calls remembered", "all", "remembered"),
    ("fresh, request and thesaurus keys, cleared, test split only", "thesaurus", "test"),
    ("fresh, request and thesaurus keys, cleared, development split only", "thesaurus", "dev"),
    ("fresh, request and thesaurus keys, cleared, 3 or more level-3 documents", "thesaurus",
     "three"),
)


def headline_rows(collection: str, primary: str, thesaurus: str,
                  per_topic: Mapping[str, pd.DataFrame], remembered: Sequence[str],
                  paper: assessment.Published, study: Design,
                  split: Mapping[str, str] | None = None,
                  level3: Mapping[str, int] | None = None) -> list[dict]:
    """The rows of one testbed, each on its plan set and its requests. Without ``split``:
    :data:`HEADLINE_ROWS` (the primary comparison on every request, H2q: the ``-thesaurus``
    plans on the cleared requests, the primary on the cleared and on the remembered
    requests). With it, Amendment 2's :data:`FRESH_ROWS` of the fresh requests (those of the
    ``thesaurus`` plan set), with each request's ``split`` (``test``, ``dev``) and its number
    of level-3 documents (``level3``). ``per_topic`` maps the two plan sets to their
    per-topic values (the primary model's); ``remembered`` are the requests the probe calls
    remembered."""
    requests = set(per_topic[primary if split is None else thesaurus]["qid"])
    remembered = set(remembered) & requests
    cleared = requests - remembered
    chosen = {"every": requests, "cleared": cleared, "remembered": remembered}
    if split is not None:
        chosen.update(test={q for q in cleared if split.get(q) == "test"},
                      dev={q for q in cleared if split.get(q) == "dev"},
                      three={q for q in cleared if level3.get(q, 0) >= 3})
    out = []
    for label, which, subset in HEADLINE_ROWS if split is None else FRESH_ROWS:
        plan_set = thesaurus if which == "thesaurus" else primary
        keep = sorted(chosen[subset])
        out.append(_row(collection, label, plan_set, per_topic[plan_set], keep,
                        len(requests) - len(keep), paper, study))
    return out


def fresh_sentence(rows: pd.DataFrame, collection: str, pool: int, extension: bool,
                   curated: Mapping[str, object] | None) -> str:
    """Amendment 2's verdict in words (B10), from its rows: the form its verdict takes, then
    what it rests on. ``pool``: the fresh requests curated; ``extension``: whether the
    extension pool was called in; ``curated``: the H2q row of the curated requests,
    re-scored (``requests``: the cleared ones, ``excluded``: the remembered; None: none)."""
    by = {r["row"]: r for r in rows.to_dict("records") if r["collection"] == collection}
    p = by[FRESH_PRIMARY]
    remembered = by["fresh, all keys, requests the probe calls remembered"]
    n = p["requests"]
    interval = f"{fmt(p['estimate'])} AvP points at level 3 (95 % CI [{fmt(p['low'])}, " \
               f"{fmt(p['high'])}], n = {n})"
    lead = (f"On only {n} fresh requests (fewer than the {FRESH_AIM} planned; MDE "
            f"{fmt(p['mde'], 1, False)} points) the memory probe clears" if n < FRESH_AIM else
            f"On {n} fresh requests the memory probe clears")
    lead += ", curated from the request and MeSH alone,"
    if p["verdict"] == "holds":
        said = f"{lead} the J&K effect holds: WSYN/e − SUM/u = {interval}, {p['size']}"
    elif p["verdict"] == "does not hold":
        said = (f"{lead} the J&K effect does not hold: WSYN/e − SUM/u = {interval} excludes "
                f"the paper's {fmt(p['published'])} and shows no effect in its direction")
    else:
        said = (f"{lead} the data cannot tell: WSYN/e − SUM/u = {interval} contains both 0 "
                f"and the paper's {fmt(p['published'])} (MDE {fmt(p['mde'], 1, False)})")
    full = by["fresh, all keys, requests the probe clears"]
    said += (f"; with all the curators' keys the same requests give {fmt(full['estimate'])} "
             f"[{fmt(full['low'])}, {fmt(full['high'])}] ({_said(full, ', {}') or '–'})")
    test = by["fresh, request and thesaurus keys, cleared, test split only"]["requests"]
    dev = by["fresh, request and thesaurus keys, cleared, development split only"]["requests"]
    rests = (f"it rests on {n} of the {pool} fresh requests ({test} test, {dev} development; "
             f"the extension pool {'called in' if extension else 'not needed'}), "
             f"{p['ceiling']} of them with SUM/u already at AvP 100; on the {remembered['requests']} "
             f"the probe calls remembered the full plans give {fmt(remembered['estimate'])} "
             f"[{fmt(remembered['low'])}, {fmt(remembered['high'])}] "
             f"({_said(remembered, ', {}') or '–'})")
    if curated is not None:
        rests += (f"; the curation of the {curated['requests'] + curated['excluded']} drawn "
                  f"requests is blind only for the {curated['requests']} the amended probe "
                  "clears")
    return f"{said}; {rests}"


#: Which requests a headline row takes, for its label in the forest figure (in this order).
_SUBSETS = (("test split", "cleared, test split"), ("development split", "cleared, dev split"),
            ("3 or more", "cleared, 3+ level-3 documents"), ("remembered", "remembered by the probe"),
            ("clears", "cleared by the probe"))


def forest_rows(table: pd.DataFrame, collection: str, model: str, thesaurus: str) -> pd.DataFrame:
    """The headline's rows of ``collection`` on a subset of the requests (cleared, remembered,
    …) as finding-2 rows of the summary's shape, so that the forest figure shows beside each
    plan set's verdict on every request what it is on the requests the probe clears."""
    rows = []
    for r in table[table["collection"] == collection].to_dict("records"):
        which = next((label for key, label in _SUBSETS if key in r["row"]), None)
        if which is None:
            continue   # every request: the summary's own row
        rows.append({"finding": 2, "collection": collection,
                     "plan_set": f"{r['plan_set']}, {which}", "model": model,
                     "effect": r["estimate"], "low": r["low"], "high": r["high"],
                     "requests": r["requests"], "verdict": _said(r),
                     "published": r["published"], "p_value": r["p_value"], "why": "",
                     "thesaurus": thesaurus})
    return pd.DataFrame(rows)


def _said(row: Mapping, size: str = " ({})") -> str:
    return row["verdict"] + (size.format(row["size"]) if row.get("size") else "")


def sentence(rows: pd.DataFrame, own_statement: str, collection: str) -> str:
    """The headline in words, from the table (the README and summaries quote it)."""
    by = {r["row"]: r for r in rows.to_dict("records") if r["collection"] == collection}
    primary = by["primary (pre-registered), every request"]
    h2q = by["H2q: request and thesaurus keys, requests the probe clears"]
    blind = (f"the probe clears all {h2q['requests']} requests" if not h2q["excluded"] else
             f"the probe calls {h2q['excluded']} of {h2q['requests'] + h2q['excluded']} "
             "requests remembered; the curation is blind only for the other "
             f"{h2q['requests']}")
    return (f"{collection}: the primary comparison {_said(primary)} "
            f"({fmt(primary['estimate'])} points, 95 % CI [{fmt(primary['low'])}, "
            f"{fmt(primary['high'])}], n = {primary['requests']}); with request and thesaurus "
            f"keys only, on the requests the probe clears, it {_said(h2q)} "
            f"({fmt(h2q['estimate'])} [{fmt(h2q['low'])}, {fmt(h2q['high'])}], "
            f"n = {h2q['requests']}); {own_statement}; {blind}")


def markdown(rows: pd.DataFrame, sentences: Mapping[str, str]) -> str:
    """The headline table of each testbed with its sentences, as Markdown."""
    lines = ["# The headline of each testbed, qualified", "",
             "By the rules of docs/preregistration.md, Amendments 1 and 2: the pre-registered "
             "primary comparison (WSYN/e − SUM/u, AvP at level 3, the primary plan set and "
             "model) keeps its verdict; H2q states it with request and thesaurus keys only on "
             "the requests the memory probe clears (probe v2, the amended cited-study rule: "
             "docs/memory-probe.md); on the fresh requests, Amendment 2's primary comparison "
             "decides whether the effect holds where the curator could not remember the "
             "answers. Intervals: 95 % paired bootstrap; p: paired randomisation test.", ""]
    lines += [f"- {text}." for text in sentences.values()]
    lines += ["", "| collection | row | plan set | requests | left out | effect | 95 % CI | "
              "paper | p | verdict |", "|---|---|---|---:|---:|---:|---|---:|---:|---|"]
    for r in rows.to_dict("records"):
        lines.append(f"| {r['collection']} | {r['row']} | {r['plan_set']} | {r['requests']} | "
                     f"{r['excluded']} | {fmt(r['estimate'])} | [{fmt(r['low'])}, "
                     f"{fmt(r['high'])}] | {fmt(r['published'])} | "
                     f"{fmt(r['p_value'], 4, False)} | {_said(r) or '–'} |")
    return "\n".join(lines) + "\n"
