"""The qualified headline of each testbed (docs/preregistration.md, Amendment 1, A3, A7).

The pre-registered primary comparison keeps its verdict. Beside it the amendment states, by
the same verdict table: **H2q**, the primary comparison with the primary plan set's
``-thesaurus`` plans (request and thesaurus keys only) on the requests the memory probe
clears; the primary comparison on the cleared requests and, as a sensitivity row, on the
remembered ones; and how many of the primary effect's points come from the curators' own
keys (the decomposition, :mod:`gradedrel.integrity.key_provenance`). A curation is called
blind only for the requests the probe clears. Pure functions over the evaluation's
per-topic values, the probe's remembered requests and the decomposition table.

Amendment 3 (docs/preregistration-nfcorpus.md, C2, C3): the headline states **the answer
first** — a paragraph of at most :data:`PARAGRAPH_WORDS` words in plain terms
(:func:`answer_paragraph`) and a table of the deciding rows only (each row's ``role``:
``deciding``, ``record`` for the contaminated record of the 30 drawn requests, or
``qualifies``) — then the qualified rows, grouped under the testbed they qualify, with the
leak diagnostic's flag of the key classes each row holds (:func:`leak_note`).
"""
from __future__ import annotations

from typing import Mapping, Sequence

import pandas as pd

from gradedrel.evaluation.comparisons import paired
from gradedrel.integrity.cited_studies import FRESH_AIM
from gradedrel.report import assessment
from gradedrel.report.assessment import fmt, fmt_ci
from gradedrel.report.design import Design

COLUMNS = ["collection", "role", "row", "plan_set", "requests", "excluded", "estimate", "low",
           "high", "published", "p_value", "verdict", "size", "leak"]
#: The roles of a row (Amendment 3, C2), in the order the headline shows them.
ROLES = ("deciding", "record", "qualifies")
#: At most this many words in the answer paragraph (Amendment 3, C2).
PARAGRAPH_WORDS = 80
#: How the answer names a testbed.
TESTBED_NAMES = {"cranfield": "Cranfield", "nfcorpus": "NFCorpus", "nfcorpus-fresh": "NFCorpus"}
#: What "cleared" means, in one sentence, wherever the word is used (Amendment 3, C2).
CLEARED = ("*Cleared*: a request is cleared when none of the memory probe's answers about it "
           "names a study whose title matches one of its highly relevant (level-3) documents; "
           "the model may still recognise the page itself.")


def _row(collection: str, label: str, plan_set: str, per_topic: pd.DataFrame,
         keep: Sequence[str], excluded: int, paper: assessment.Published,
         study: Design, numbers: Mapping | None = None) -> dict:
    """One row: the primary comparison of ``plan_set`` on the requests ``keep``; on every
    request its numbers are the evaluation's (``numbers``: the primary row of its
    comparisons.tsv), on a subset (cleared, remembered, a split), which no evaluation file
    holds, by the evaluation's paired difference (:func:`comparisons.paired`)."""
    headline = study.finding(2).headline
    first, second = headline.first, headline.second
    matrix = assessment.avp_matrix(per_topic.assign(value=pd.to_numeric(per_topic["value"])),
                                   headline.level, [first, second])
    matrix = matrix[matrix.index.isin(list(keep))]
    if numbers is None or int(numbers["requests"]) != len(matrix):
        numbers = paired(matrix[first], matrix[second], study.constants)
    row = assessment.judged({**numbers, "comparison": f"{first} - {second}",
                             "p_holm": float("nan")}, label, "",
                            paper.difference(first, second, headline.level), False, 2)
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
    # Amendment 3, C3 (exploratory): beside the all-keys row on the cleared requests
    ("fresh, all keys less those marked recalled, requests the probe clears", "unrecalled",
     "cleared"),
    ("fresh, all keys, cleared, 2 or more level-3 documents", "all", "two"),
    ("fresh, all keys, cleared, 3 or more level-3 documents", "all", "three"),
    ("fresh, all keys less those rated page, requests the probe clears", "inferable", "cleared"),
)
#: The key classes beyond request and thesaurus keys that a row's plan set holds, by the
#: role of its plan set (the leak diagnostic flags classes: :func:`leak_note`).
HOLDS = {"all": ("own", "other_concept"), "unrecalled": ("own", "other_concept"),
         "inferable": ("own", "other_concept"), "thesaurus": ()}


def headline_rows(collection: str, primary: str, thesaurus: str,
                  per_topic: Mapping[str, pd.DataFrame], remembered: Sequence[str],
                  paper: assessment.Published, study: Design,
                  split: Mapping[str, str] | None = None,
                  level3: Mapping[str, int] | None = None,
                  extra: Mapping[str, str] | None = None,
                  numbers: Mapping[str, Mapping] | None = None) -> list[dict]:
    """The rows of one testbed, each on its plan set and its requests. Without ``split``:
    :data:`HEADLINE_ROWS` (the primary comparison on every request, H2q: the ``-thesaurus``
    plans on the cleared requests, the primary on the cleared and on the remembered
    requests). With it, Amendment 2's :data:`FRESH_ROWS` of the fresh requests (those of the
    ``thesaurus`` plan set), with each request's ``split`` (``test``, ``dev``) and its number
    of level-3 documents (``level3``). ``per_topic`` maps the plan sets to their per-topic
    values (the primary model's); ``remembered`` are the requests the probe calls
    remembered; ``extra``: the plan sets of Amendment 3's rows by role (``unrecalled``,
    ``inferable``; a row whose plan set is not given is left out); ``numbers``: per plan set
    the evaluation's primary comparison on every request (:func:`primary_numbers`). Each row
    keeps the role of its plan set (``holds``: the key classes it holds beyond request and
    thesaurus keys)."""
    requests = set(per_topic[primary if split is None else thesaurus]["qid"])
    remembered = set(remembered) & requests
    cleared = requests - remembered
    chosen = {"every": requests, "cleared": cleared, "remembered": remembered}
    if split is not None:
        chosen.update(test={q for q in cleared if split.get(q) == "test"},
                      dev={q for q in cleared if split.get(q) == "dev"},
                      two={q for q in cleared if level3.get(q, 0) >= 2},
                      three={q for q in cleared if level3.get(q, 0) >= 3})
    plan_sets = {"all": primary, "thesaurus": thesaurus, **(extra or {})}
    out = []
    for label, which, subset in HEADLINE_ROWS if split is None else FRESH_ROWS:
        if which not in plan_sets:
            continue
        plan_set = plan_sets[which]
        keep = sorted(chosen[subset])
        given = (numbers or {}).get(plan_set) if subset == "every" else None
        out.append({**_row(collection, label, plan_set, per_topic[plan_set], keep,
                           len(requests) - len(keep), paper, study, given),
                    "role": "qualifies", "holds": HOLDS.get(which, ())})
    return out


def primary_numbers(comparisons: pd.DataFrame) -> dict:
    """The primary comparison's row of the evaluation's comparisons.tsv (finding 2's
    headline part)."""
    rows = comparisons[(comparisons["finding"].astype(int) == 2)
                       & (comparisons["part"] == "primary")]
    if rows.empty:
        raise ValueError("comparisons.tsv: no primary comparison (finding 2, part primary)")
    return rows.iloc[0].to_dict()


def primary_row(collection: str, primary: str, per_topic: pd.DataFrame,
                paper: assessment.Published, study: Design,
                numbers: Mapping | None = None) -> dict:
    """The pre-registered primary comparison on every request, where no memory probe
    qualifies it (the Cranfield main job alone): the testbed's deciding row (``numbers``:
    the evaluation's, :func:`primary_numbers`)."""
    requests = sorted(set(per_topic["qid"]))
    return {**_row(collection, HEADLINE_ROWS[0][0], primary, per_topic, requests, 0, paper,
                   study, numbers), "role": "deciding", "holds": HOLDS["all"]}


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
    interval = f"{fmt(p['estimate'])} AvP points at level 3 (95 % CI " \
               f"{fmt_ci(p['low'], p['high'])}, n = {n})"
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
             f"{fmt_ci(full['low'], full['high'])} ({_said(full, ', {}') or '–'})")
    test = by["fresh, request and thesaurus keys, cleared, test split only"]["requests"]
    dev = by["fresh, request and thesaurus keys, cleared, development split only"]["requests"]
    rests = (f"it rests on {n} of the {pool} fresh requests ({test} test, {dev} development; "
             f"the extension pool {'called in' if extension else 'not needed'}), "
             f"{p['ceiling']} of them with SUM/u already at AvP 100; on the {remembered['requests']} "
             f"the probe calls remembered the full plans give {fmt(remembered['estimate'])} "
             f"{fmt_ci(remembered['low'], remembered['high'])} "
             f"({_said(remembered, ', {}') or '–'})")
    if curated is not None:
        rests += (f"; the curation of the {curated['requests'] + curated['excluded']} drawn "
                  f"requests is blind only for the {curated['requests']} the amended probe "
                  "clears")
    return f"{said}; {rests}"


#: Which requests a headline row takes, for its label in the forest figure (in this order).
_SUBSETS = (("test split", "cleared, test split"), ("development split", "cleared, dev split"),
            ("3 or more", "cleared, 3+ level-3 documents"),
            ("2 or more", "cleared, 2+ level-3 documents"), ("remembered", "remembered by the probe"),
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
                     "thesaurus": thesaurus, "mark": MARKS.get(r.get("role"), "")})
    return pd.DataFrame(rows)


#: How the forest figure marks a row by its role (Amendment 3, C2: the deciding rows first).
MARKS = {"deciding": "deciding", "record": "contaminated record"}


def primary_mark(table: pd.DataFrame, collection: str) -> str:
    """The forest mark of ``collection``'s pre-registered primary condition (every request):
    its role in the headline table, "deciding" where the table has no such row."""
    mine = table[(table["collection"] == collection)
                 & (table["row"] == HEADLINE_ROWS[0][0])]
    if mine.empty:
        return "" if (table["collection"] == collection).any() else MARKS["deciding"]
    return MARKS.get(mine.iloc[0]["role"], "")


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
            f"({fmt(primary['estimate'])} points, 95 % CI "
            f"{fmt_ci(primary['low'], primary['high'])}, n = {primary['requests']}); with "
            f"request and thesaurus keys only, on the requests the probe clears, it "
            f"{_said(h2q)} ({fmt(h2q['estimate'])} {fmt_ci(h2q['low'], h2q['high'])}, "
            f"n = {h2q['requests']}); {own_statement}; {blind}")


def leak_note(leak: pd.DataFrame | None, plan_set: str, holds: Sequence[str]) -> str:
    """The leak diagnostic's result (Amendment 1, A6) for the key classes a row holds:
    "own: flagged, 3.74 [2.81, 5.19] vs thesaurus 2.09 [1.68, 2.60]; other_concept: not
    flagged, …" (level-3/level-2 selectivity); "" where the row holds none or the diagnostic
    did not look at ``plan_set``."""
    if leak is None or not holds:
        return ""
    mine = leak[(leak["plan_set"] == plan_set) & (leak["group_by"] == "source_class")]
    by = {r["group"]: r for r in mine.to_dict("records")}
    if "thesaurus" not in by:
        return ""
    sel = lambda r: (f"{float(r['selectivity']):.2f} "
                     f"{fmt_ci(float(r['selectivity_low']), float(r['selectivity_high']), 2, False)}")
    parts = [f"{c}: {'flagged' if by[c]['flagged'] == 'yes' else 'not flagged'}, {sel(by[c])}"
             for c in holds if c in by]
    return "; ".join(parts) + f" (thesaurus keys {sel(by['thesaurus'])})" if parts else ""


def _phrase(row: Mapping) -> str:
    """The verdict in the words of the verdict table (Amendment 3, C2)."""
    if row["verdict"] == "holds":
        return f"the effect holds, {row['size']}" if row.get("size") else "the effect holds"
    if row["verdict"] == "does not hold":
        return "the effect does not hold"
    return "the data cannot tell"


def _deciding(rows: pd.DataFrame) -> list[dict]:
    """The deciding rows, then the contaminated record; Cranfield first within each."""
    chosen = rows[rows["role"].isin(["deciding", "record"])].to_dict("records")
    return sorted(chosen, key=lambda r: (ROLES.index(r["role"]), r["collection"] != "cranfield"))


def answer_paragraph(rows: pd.DataFrame) -> str:
    """The answer in at most :data:`PARAGRAPH_WORDS` words, from the deciding rows and the
    contaminated record: per testbed what was decided and on what (no amendment codes)."""
    said, defined = [], False
    for r in _deciding(rows):
        name = TESTBED_NAMES.get(r["collection"], r["collection"])
        number = f"{fmt(r['estimate'])} {fmt_ci(r['low'], r['high'])}"
        if r["role"] == "record":
            said.append(f"The {r['requests'] + r['excluded']} {name} requests drawn first give "
                        f"{number}, but the model names studies of {int(r['remembered'])}.")
            continue
        what = (f"{r['requests']} fresh requests whose studies the curators' model could not "
                f"name, curated from request and MeSH only" if r["row"] == FRESH_PRIMARY
                else f"{r['requests']} requests")
        if not defined:
            said.append(f"{name}, {what}: {_phrase(r)}: WSYN/e − SUM/u (structured, expanded "
                        f"queries minus flat ones) = {fmt(r['estimate'])} AvP points at level 3, "
                        f"95 % CI {fmt_ci(r['low'], r['high'])}; paper {fmt(r['published'])}.")
            defined = True
        else:
            said.append(f"{name}, {what}: {_phrase(r)}, {number}.")
    return " ".join(said)


def _deciding_table(rows: pd.DataFrame) -> list[str]:
    lines = ["| testbed | what it rests on | requests | WSYN/e − SUM/u, AvP points at level 3 | "
             "95 % CI | the paper | p | verdict |", "|---|---|---:|---:|---|---:|---:|---|"]
    for r in _deciding(rows):
        name = TESTBED_NAMES.get(r["collection"], r["collection"])
        if r["role"] == "record":
            name += ", the contaminated record"
            what = (f"the requests drawn first, every key (`{r['plan_set']}`); the probe names "
                    f"studies of {int(r['remembered'])} of them")
        elif r["row"] == FRESH_PRIMARY:
            what = (f"fresh requests the probe clears, request and thesaurus keys only "
                    f"(`{r['plan_set']}`)")
        else:
            what = f"the pre-registered primary comparison, every request (`{r['plan_set']}`)"
        lines.append(f"| {name} | {what} | {r['requests']} | {_cells(r)} |")
    return lines


def _cells(r: Mapping) -> str:
    """A row's effect, interval, the paper's effect, p and verdict: Markdown table cells."""
    return (f"{fmt(r['estimate'])} | {fmt_ci(r['low'], r['high'])} | {fmt(r['published'])} | "
            f"{fmt(r['p_value'], 4, False)} | {_said(r) or '–'}")


def markdown(rows: pd.DataFrame, sentences: Mapping[str, str]) -> str:
    """The headline as Markdown: the answer (a paragraph and the deciding rows), then the
    qualified rows under the testbed they qualify, each testbed's sentence first."""
    lines = ["# The answer", "", answer_paragraph(rows), "", "## The deciding rows", "",
             *_deciding_table(rows), "",
             "Intervals: 95 % paired bootstrap; p: paired randomisation test; verdicts by the "
             "pre-registered table (docs/preregistration.md)."]
    qualified = rows[rows["role"] == "qualifies"]
    if not len(qualified):
        return "\n".join(lines) + "\n"
    lines += ["", CLEARED, "", "## What qualifies each row", "",
              "By the rules of docs/preregistration.md and docs/preregistration-nfcorpus.md "
              "(Amendments 1–3): H2q is the primary comparison with request and thesaurus keys "
              "only on the requests the memory probe clears; Amendment 2's primary is its "
              "version on fresh requests; the rows of Amendment 3 are exploratory. Leak: the "
              "diagnostic's flag (Amendment 1, A6; level-3/level-2 selectivity) for the key "
              "classes beyond request and thesaurus keys that a row's plan set holds."]
    fresh = set(rows.loc[rows["row"] == FRESH_PRIMARY, "collection"])
    for c in dict.fromkeys(qualified["collection"]):
        title = "the fresh requests" if c in fresh else TESTBED_NAMES.get(c, c)
        lines += ["", f"### {title} ({c})", ""]
        if c in sentences:
            lines += [f"- {sentences[c]}.", ""]
        lines += ["| row | plan set | requests | left out | effect | 95 % CI | paper | p | "
                  "verdict | leak |", "|---|---|---:|---:|---:|---|---:|---:|---|---|"]
        for r in qualified[qualified["collection"] == c].to_dict("records"):
            lines.append(f"| {r['row']} | {r['plan_set']} | {r['requests']} | {r['excluded']} "
                         f"| {_cells(r)} | {r.get('leak') or '–'} |")
    return "\n".join(lines) + "\n"
