"""The paper's findings assessed under the pre-registered rules of a study design
(:mod:`gradedrel.report.design`; docs/preregistration.md).

The design names every comparison, its test and how the deciding ones combine; the
evaluation computed their numbers (:mod:`gradedrel.evaluation.comparisons`, its
``comparisons.tsv``: effect, interval, raw and Holm-adjusted p of the test of record,
minimum detectable effect) and this module judges them: one row per comparison with its
verdict and whether it decides, and one verdict per finding: the findings report of one
plan set and model. It computes no statistic. :func:`assess_files` takes the evaluation's
files as read, :func:`write_assessment` writes the three verdict tables (every comparison,
one verdict per finding, the primary comparison alone); the rest are pure functions.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Mapping, Sequence

import pandas as pd

from gradedrel.core.io import write_tsv
from gradedrel.report import verdicts as v
from gradedrel.report.design import Comparison, Design, Finding
from gradedrel.evaluation.measures import registry
from gradedrel.evaluation.measures.avp import AvP
from gradedrel.evaluation.comparisons import POINTS, measure_matrix


COMPARISON_COLUMNS = ["finding", "part", "comparison", "measure", "requests", "estimate", "low",
                      "high", "confidence", "published", "p_value", "p_holm", "mde", "verdict",
                      "size", "deciding"]
#: The tests of record, in the words of the reports.
TESTS_OF_RECORD = {"randomisation": "two-sided paired randomisation test",
                   "wilcoxon": "two-sided Wilcoxon signed-rank test",
                   "t": "two-sided paired t-test", "friedman": "Friedman"}


@dataclass(frozen=True)
class Published:
    """The paper's numbers the rules compare against (a query type without a published
    value gives NaN: its comparisons are reported without a verdict)."""
    avp: Mapping[int, Mapping[str, float]]          # level -> query type -> AvP %
    effort_ratio: Mapping[str, float] = field(default_factory=dict)   # profile -> strong/others

    def difference(self, first: str, second: str, level: int) -> float:
        """The paper's AvP of ``first`` minus ``second`` at ``level`` (NaN if it lacks one)."""
        row = self.avp.get(level, {})
        if first not in row or second not in row:
            return math.nan
        return round(row[first] - row[second], 6)

    def spread(self, level: int, query_types: Sequence[str] | None = None) -> float:
        """Largest minus smallest published AvP at ``level`` over the query types (NaN for
        fewer than two)."""
        row = self.avp.get(level, {})
        values = [row[t] for t in (query_types or row) if t in row]
        return round(max(values) - min(values), 6) if len(values) > 1 else math.nan


def avp_matrix(per_topic: pd.DataFrame, level: int, query_types: Sequence[str]) -> pd.DataFrame:
    """Requests × query types of AvP(level) in points, requests where every type has a value."""
    return measure_matrix(per_topic, str(AvP(level=level)), query_types)


def _record(finding: int, part: str, measure: str, numbers: Mapping, published: float,
            verdict: v.Verdict, deciding: bool, tested: Sequence[str] = ()) -> dict:
    """One row of the comparisons table from the evaluation's row ``numbers`` (its columns
    ``tested`` of p_value, p_holm and mde; the others NaN); ``why``: its verdict's reason,
    not written."""
    interval = ("requests", "estimate", "low", "high", "confidence")
    return {"finding": finding, "part": part, "comparison": numbers["comparison"],
            "measure": measure, **{k: numbers[k] for k in interval}, "published": published,
            **{k: numbers[k] if k in tested else math.nan for k in ("p_value", "p_holm", "mde")},
            "verdict": verdict.verdict, "size": verdict.size, "deciding": deciding,
            "why": verdict.reason}


def _interval(numbers: Mapping) -> v.Interval:
    return v.Interval(numbers["estimate"], numbers["low"], numbers["high"], numbers["confidence"])


def judged(numbers: Mapping, part: str, measure: str, published: float, deciding: bool,
           finding: int) -> dict:
    """A paired difference as the evaluation computed it (a row of its ``comparisons.tsv``)
    with, against a published effect, its directional verdict."""
    verdict = v.directional(_interval(numbers), published) \
        if published and not math.isnan(published) \
        else v.Verdict("")   # no published effect (None, NaN or 0): reported, not judged
    return _record(finding, part, measure, numbers, published, verdict, deciding,
                   ("p_value", "p_holm", "mde"))


# --- the tests a design names: one function per test, its rows and its verdict each ---------
# ``numbers(c, comparison)``: the evaluation's row of comparison ``c`` (comparisons.tsv)

def _equivalence(finding, c: Comparison, numbers, reading, published, design: Design, notes):
    """Every pair of the design's query types at one level, TOST intervals; the part's
    verdict on every row (Schuirmann 1987; docs/preregistration.md, H1a)."""
    rows = [judged(numbers(c, f"{y} - {x}"), c.part, c.measure, 0.0, c.deciding, finding.number)
            for x, y in design.pairs()]
    verdict = v.equivalence(map(_interval, rows), design.constants.margin)
    for row, (x, y) in zip(rows, design.pairs()):
        row.update(verdict=verdict.verdict, published=published.difference(y, x, c.level))
    return rows, verdict


def _spread(finding, c: Comparison, numbers, reading, published, design: Design, notes):
    """The spread of the query types' means with Friedman's p; judged when ``large_spread``
    (finding 1b), else reported."""
    n = numbers(c, "spread (max - min)")
    k = design.constants
    paper = published.spread(c.level, design.query_types)
    verdict = v.large_spread(_interval(n), n["p_value"], k.margin, paper, k.alpha) \
        if c.test == "large_spread" else v.Verdict("")
    return [_record(finding.number, c.part, c.measure, n, paper, verdict, c.deciding,
                    ("p_value", "p_holm"))], verdict


def _directional(finding, c: Comparison, numbers, reading, published, design: Design, notes):
    row = judged(numbers(c, f"{c.first} - {c.second}"), c.part, c.measure,
                 published.difference(c.first, c.second, c.level), c.deciding, finding.number)
    return [row], v.Verdict(row["verdict"], row["size"], row["why"])


def _effort_ratio(finding, c: Comparison, numbers, reading, published, design: Design, notes):
    """Proportional effort of two query types, computed by the evaluation, judged on the log
    scale; the paper's own effort reading (the design's ``effort_reading``, read from the
    evaluation's ``effort.tsv``: :func:`effort_reading`) noted beside it."""
    profile = c.parameter("profile")
    n = numbers(c, f"effort {c.first} / effort {c.second}")
    paper = published.effort_ratio.get(profile)
    verdict = v.ratio_verdict(_interval(n), paper) if paper else v.Verdict("")
    row = _record(finding.number, c.part,
                  f"rank reaching {c.share:.0%} of the ideal's CG@{int(n['depth'])}", n,
                  paper if paper else math.nan, verdict, c.deciding)
    row["ranks"] = f"{int(n['first_rank'])} vs {int(n['second_rank'])}" + \
        (" (censored)" if _true(n["censored"]) else "")
    if finding.effort_reading:
        notes.append(reading(profile, c.first, c.second, int(finding.effort_reading["rank"]),
                             float(finding.effort_reading["saturation"])))
    return [row], verdict


def _difference(finding, c: Comparison, numbers, reading, published, design: Design, notes):
    """A paired difference of any measure, reported with its size relative to ``second``
    (the part is labelled with the measure's cutoff, where it has one)."""
    measure = registry.parse(c.measure)
    at = getattr(measure, "AT_PARAM", None)
    cutoff = measure.params.get(at) if at else None
    part = f"{c.part} at rank {cutoff} (reported)" if cutoff else f"{c.part} (reported)"
    n = numbers(c, f"{c.first} - {c.second}")
    row = judged(n, part, c.measure, math.nan, c.deciding, finding.number)
    second = float(n["mean_second"])
    row["size"] = (f"{row['estimate'] / second:+.1%} relative" if second > 0 else "")
    return [row], v.Verdict("")


def _true(x) -> bool:
    return x is True or str(x).lower() in ("true", "1", "1.0")


TESTS = {"equivalence": _equivalence, "large_spread": _spread, "spread": _spread,
         "directional": _directional, "effort_ratio": _effort_ratio, "difference": _difference}


def effort_reading(effort: pd.DataFrame, gain_curves: pd.DataFrame):
    """The paper's effort reading (reach the mean ideal CG at ``rank``) as the evaluation's
    ``effort.tsv`` holds it, ``reading(profile, first, second, rank, saturation)`` -> its
    note; not measurable where the mean ideal CG at ``rank`` is already ``saturation`` of its
    value at the last rank (``gain_curves.tsv``'s ideal)."""
    def reading(profile, first, second, rank, saturation):
        cg = gain_curves[(gain_curves["profile"].astype(str) == str(profile))
                         & (gain_curves["kind"] == "CG") & (gain_curves["run"] == first)]
        ideal = cg.set_index(cg["rank"].astype(int))["ideal"].astype(float).sort_index()
        depth, top, at = int(ideal.index[-1]), float(ideal.iloc[-1]), float(ideal.loc[rank])
        share = at / top if top else math.nan
        if top > 0 and at >= saturation * top:
            return (f"profile {profile}: the paper's effort reading is not measurable "
                    f"(the mean ideal CG at rank {rank} is {share:.0%} of its "
                    f"value at rank {depth})")
        mine = effort[(effort["profile"].astype(str) == str(profile)) & (effort["kind"] == "CG")
                      & (effort["k"].astype(int) == rank)].set_index("run")
        if mine.empty:
            raise ValueError(f"effort.tsv: no CG row of profile {profile} at rank {rank} "
                             "(evaluation.effort_ranks)")
        fmt = lambda run: (str(int(mine.loc[run, "rank_reached"]))
                           if _true(mine.loc[run, "reached"]) else f"not reached by {depth}")
        return (f"profile {profile}: the paper's effort reading (reach the ideal's CG "
                f"at rank {rank}): {first} {fmt(first)}, {second} {fmt(second)}")
    return reading


# --- how the deciding rows make a finding's verdict: one function per rule -----------------
# Each gives the verdict, whose reason says in a few words what decided it (the summaries'
# "why": the parts of a composite finding, which one failed; else why the deciding interval
# has its verdict against 0 and the paper's value), and the findings table's reason.

def _level1_negligible_level3_large(finding, parts, rows, notes):
    deciding = [(c, verdict) for c, verdict in parts if c.deciding]
    reason = "; ".join(f"level {c.level}: {x.verdict} ({x.reason})" for c, x in deciding)
    why = "; ".join(f"{c.part.split(': ', 1)[-1]}: {x.verdict}" for c, x in deciding)
    return replace(v.all_of(x for _, x in deciding), reason=why), reason


def _primary(finding, parts, rows, notes):
    row = next(r for r in rows if r["part"] == finding.headline.part)
    first, second = finding.headline.first, finding.headline.second
    reason = (f"{first} - {second} at level {finding.headline.level}: {row['estimate']:+.1f} "
              f"points, 95 % CI {fmt_ci(row['low'], row['high'])} against the paper's "
              f"{row['published']:+.1f}")
    return v.Verdict(row["verdict"], row["size"], row["why"]), reason


def _parts_all_of(finding, parts, rows, notes):
    groups = {}
    for row in rows:
        if row["deciding"]:
            groups.setdefault(row["part"], []).append(row["verdict"])
    verdicts = {part: v.all_of(map(v.Verdict, found)) for part, found in groups.items()}
    reason = "; ".join(f"{p}: {x.verdict}" for p, x in verdicts.items())
    why = "; ".join(f"{p}: {verdicts[p].verdict} ({found.count(v.HOLDS)} of {len(found)} hold)"
                    for p, found in groups.items())
    return replace(v.all_of(verdicts.values()), reason=why), reason


def _deciding_row(finding, parts, rows, notes):
    c, verdict = next((c, verdict) for c, verdict in parts if c.deciding)
    named = f"proportional effort (profile {c.parameter('profile')})" \
        if c.test == "effort_ratio" else c.part
    return verdict, "; ".join([f"{named}: {verdict}", *notes])


RULES = {"level1_negligible_level3_large": _level1_negligible_level3_large,
         "primary": _primary, "parts_all_of": _parts_all_of, "deciding_row": _deciding_row}


def assess_finding(finding: Finding, numbers, reading, published: Published,
                   design: Design) -> tuple[list[dict], v.Verdict, str]:
    """One finding's rows (in the design's order), its verdict (its ``reason``: what decided
    it, in a few words) and the reason in full: ``numbers(c, comparison)`` is the evaluation's
    row of a comparison (:func:`numbers_of`), ``reading`` the paper's effort reading in words
    (:func:`effort_reading`)."""
    rows, parts, notes = [], [], []
    for c in finding.comparisons:
        found, verdict = TESTS[c.test](finding, c, numbers, reading, published, design, notes)
        for row in found:
            row["test_of_record"] = c.test_of_record or ""
        rows.extend(found)
        parts.append((c, verdict))
    return (rows, *RULES[finding.rule](finding, parts, rows, notes))


def numbers_of(comparisons: pd.DataFrame, finding: int):
    """``numbers(c, comparison)``: the row of the evaluation's ``comparisons.tsv`` of finding
    ``finding``'s comparison ``c`` labelled ``comparison`` (a KeyError naming it where the
    evaluation has none: it was computed for another design)."""
    rows = {(r["part"], r["comparison"], r["measure"]): r
            for r in comparisons[comparisons["finding"].astype(int) == finding].to_dict("records")}

    def numbers(c: Comparison, comparison: str) -> dict:
        key = (c.part, comparison, c.measure)
        if key not in rows:
            raise KeyError(f"comparisons.tsv: no row of finding {finding} {key}")
        return rows[key]
    return numbers


def assess(comparisons: pd.DataFrame, reading, published: Published,
           design: Design) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every finding of the design: (comparisons, findings) tables from the evaluation's
    numbers (``comparisons``: its comparisons.tsv; ``reading``: :func:`effort_reading`); the
    test of record of each row's p in the last column."""
    rows, findings = [], []
    for finding in design.findings:
        part_rows, verdict, reason = assess_finding(
            finding, numbers_of(comparisons, finding.number), reading, published, design)
        rows.extend(part_rows)
        findings.append({"finding": finding.number, "claim": finding.claim,
                         "verdict": str(verdict), "reason": reason, "why": verdict.reason})
    table = pd.DataFrame(rows)
    known = COMPARISON_COLUMNS + ["why", "test_of_record"]
    extra = [c for c in table.columns if c not in known]
    return (table[COMPARISON_COLUMNS + extra + ["test_of_record"]], pd.DataFrame(findings))


# --- from and to the evaluation's files ---------------------------------------------------

def avp_means(means: pd.DataFrame, levels: Sequence[int],
              query_types: Sequence[str]) -> dict[tuple[int, str], float]:
    """Mean AvP (0..1) per (level, query type) from a means.tsv frame."""
    from gradedrel.report.tables import mean_of

    return {(lv, q): mean_of(means, q, str(AvP(level=lv)))[0] for lv in levels for q in query_types}


def assess_files(comparisons: pd.DataFrame, effort: pd.DataFrame, gain_curves: pd.DataFrame,
                 paper, design: Design):
    """(comparisons, findings) for one plan set and model under ``design``, from the
    evaluation's files: its ``comparisons.tsv`` (the numbers of every comparison the design
    names), ``effort.tsv`` and ``gain_curves.tsv`` (the paper's effort reading), and the
    paper's numbers (``paper``: :class:`gradedrel.report.published.Published`)."""
    return assess(comparisons, effort_reading(effort, gain_curves), published_from(paper),
                  design)


def write_assessment(comparisons: pd.DataFrame, findings: pd.DataFrame, verdicts: str,
                     findings_path: str, primary: str) -> None:
    """The verdict tables: every comparison, each finding's verdict, the primary comparison."""
    write_tsv(comparisons, verdicts)
    write_tsv(findings, findings_path)
    write_tsv(comparisons[comparisons["part"] == "primary"], primary)


def published_from(paper) -> Published:
    """The assessment's view of :class:`gradedrel.published.Published` (AvP in points; the
    effort ratio strong / others of each CG effort row, by gain profile)."""
    avp = {int(level): {t: round(float(x) * POINTS, 6) for t, x in row.items()}
           for level, row in paper.avp.items()}
    ratios = {e.profile: e.strong / e.others for e in paper.effort
              if e.kind == "CG" and e.others}
    return Published(avp, ratios)


# --- tables for the report ----------------------------------------------------------------

def fmt(x, digits: int = 1, signed: bool = True) -> str:
    """A number as the report tables print it (``+1.2``; ``–`` for none or NaN)."""
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "–"
    return f"{x:+.{digits}f}" if signed else f"{x:.{digits}f}"


def interval_digits(*bounds, digits: int = 1, most: int = 6) -> int:
    """The fewest decimals, from ``digits`` up to ``most``, at which no bound that is not zero
    prints as zero, so that a printed interval shows the signs of its bounds (+0.03, not +0.0;
    Amendment 3, C2)."""
    for d in range(digits, most):
        if all(b is None or not math.isfinite(b) or b == 0 or round(abs(b), d) > 0
               for b in map(lambda x: None if x is None else float(x), bounds)):
            return d
    return most


def fmt_ci(low, high, digits: int = 1, signed: bool = True) -> str:
    """``[low, high]`` with the decimals its bounds' signs need (:func:`interval_digits`)."""
    d = interval_digits(low, high, digits=digits)
    return f"[{fmt(low, d, signed)}, {fmt(high, d, signed)}]"


def _p(x):
    return "<0.0001" if x is not None and 0 <= x < 0.0001 else fmt(x, 4, False)


def comparisons_markdown(comparisons: pd.DataFrame) -> str:
    """One Markdown table of every comparison: effect, interval, raw and Holm p, MDE, verdict."""
    lines = ["| finding | part | comparison | measure | n | effect | interval | paper | p (raw) | "
             "p (Holm) | MDE | verdict | deciding |",
             "|---|---|---|---|---:|---:|---|---:|---:|---:|---:|---|---|"]
    for r in comparisons.to_dict("records"):
        ratio = r["finding"] == 4 and str(r["part"]).startswith("proportional")
        num = lambda x: fmt(x, 2 if ratio else 1, not ratio)
        interval = f"{r['confidence']:.0%} {fmt_ci(r['low'], r['high'], 2 if ratio else 1, not ratio)}"
        verdict = str(v.Verdict(r["verdict"], r["size"])) if r["verdict"] else r["size"]
        lines.append(
            f"| {r['finding']} | {r['part']} | {r['comparison']} | `{r['measure']}` | "
            f"{r['requests']} | {num(r['estimate'])} | {interval} | "
            f"{num(r['published'])} | {_p(r['p_value'])} | {_p(r['p_holm'])} | "
            f"{fmt(r['mde'], 1, False)} | {verdict or '–'} | {'yes' if r['deciding'] else 'no'} |")
    return "\n".join(lines) + "\n"


SUMMARY_COLUMNS = ["finding", "collection", "plan_set", "model", "effect", "low", "high",
                   "requests", "verdict", "published", "p_value", "why"]


def summary_rows(collection: str, plan_set: str, model: str, comparisons: pd.DataFrame,
                 findings: pd.DataFrame, design: Design) -> list[dict]:
    """One row per finding: its headline comparison in the design (finding 1: the level-3
    spread; 2: the primary comparison; 4: the effort ratio) or, for a finding without one,
    how many deciding comparisons hold; and the verdict."""
    rows = []
    for f in findings.to_dict("records"):
        n = f["finding"]
        sub = comparisons[(comparisons["finding"] == n) & comparisons["deciding"].astype(bool)]
        headline = design.finding(n).headline
        pick = sub[sub["part"] == headline.part] if headline is not None else sub.iloc[0:0]
        if len(pick):
            r = pick.iloc[0]
            effect, low, high, requests = r["estimate"], r["low"], r["high"], int(r["requests"])
            published, p = r["published"], r["p_value"]
        else:
            held = int((sub["verdict"] == v.HOLDS).sum())
            effect, low, high, published, p = f"{held} of {len(sub)} hold", *[math.nan] * 4
            requests = int(sub["requests"].max()) if len(sub) else 0
        if not isinstance(effect, str):  # one column of text: numbers as the tables print them
            effect = f"{effect:.6f}"
        rows.append({"finding": n, "collection": collection, "plan_set": plan_set,
                     "model": model, "effect": effect, "low": low, "high": high,
                     "requests": requests, "verdict": f["verdict"],
                     "published": published, "p_value": p, "why": f.get("why", "")})
    return rows


def verdicts_markdown(title: str, comparisons: pd.DataFrame, findings: pd.DataFrame) -> str:
    """The verdict section of a findings report: the findings table (finding, claim, verdict,
    why), then every comparison."""
    return "\n".join([
        f"## {title}", "",
        "Rules fixed in advance: docs/preregistration.md. Effects in AvP points (finding 4: a "
        "ratio of ranks); intervals are paired bootstrap percentile intervals over requests; "
        f"p = {tests_of_record(comparisons)}, raw and "
        "Holm-adjusted within the finding; MDE = the smallest difference detectable at "
        "α = 0.05 with power 0.8 for this n.", "",
        "| finding | claim | verdict | why |", "|---|---|---|---|",
        *[f"| {r['finding']} | {r['claim']} | **{r['verdict']}** | {r['reason']} |"
          for r in findings.to_dict("records")], "",
        comparisons_markdown(comparisons)])


def tests_of_record(comparisons: pd.DataFrame) -> str:
    """Whose p the comparisons report, in words, from their ``test_of_record`` column: the
    paired tests, and Friedman for the deciding spreads' levels (:func:`assess` writes the
    column for every row)."""
    tests = [t for t in dict.fromkeys(comparisons["test_of_record"]) if t]
    paired = " or ".join(TESTS_OF_RECORD[t] for t in tests if t != "friedman")
    spreads = comparisons[(comparisons["test_of_record"] == "friedman")
                          & comparisons["deciding"].astype(bool)]
    levels = [str(registry.parse(m)["level"]) for m in dict.fromkeys(spreads["measure"])]
    return paired + (f" (Friedman for the level-{' and level-'.join(levels)} spread)"
                     if levels else "")


def rests_on(summary: pd.DataFrame, primary: str, thesaurus: str, model: str,
             own_statement: str = "") -> str:
    """What the primary comparison rests on (docs/preregistration.md, Amendments 1 and 2): its
    verdict, the same comparison with request and thesaurus keys only, and how many of its
    points come from the curators' own keys (where the effect is decomposed:
    ``own_statement``); generated from the tables."""
    def row(plan_set):
        found = summary[(summary["plan_set"] == plan_set) & (summary["model"] == model)
                        & (summary["finding"].astype(int) == 2)]
        return None if found.empty else found.iloc[0]

    def said(r):
        return (f"{r['verdict']}, {fmt(float(r['effect']))} points, 95 % CI "
                f"{fmt_ci(r['low'], r['high'])}, {r['requests']} requests")

    first, second = row(primary), row(thesaurus)
    if first is None or second is None:
        return ""
    parts = (f"{own_statement} (`key_sources.md`). On the requests the memory probe clears: "
             "results/report/headline/ (the main job with NFCorpus)." if own_statement else
             "every request here, remembered or not: Amendment 2's primary comparison, on the "
             "requests the memory probe clears, and what it rests on are in "
             "results/report/headline/.")
    return ("**What the primary comparison rests on** (WSYN/e − SUM/u at level 3, "
            f"{model}; docs/preregistration.md, Amendment{' 1' if own_statement else 's 1 and 2'}): "
            f"with every key of the {primary} plans it {said(first)}; with request and thesaurus "
            f"keys only ({thesaurus}) it {said(second)}; {parts}")


def summary_markdown(summary: pd.DataFrame, title: str, rests_on_text: str = "") -> str:
    """Finding × plan set × model: effect, interval and verdict, one line each; with what
    the primary comparison rests on, where the study decomposes it."""
    lines = [f"# {title}", "", *([rests_on_text, ""] if rests_on_text else []),
             "Effect: finding 1 — level-3 spread of mean AvP over the six query types (points); "
             "2 — WSYN/e − SUM/u at level 3 (points); 3 — deciding components that hold; "
             "4 — proportional effort ratio WSYN/e / SUM/u (profile 3). Rules: "
             "docs/preregistration.md.", "",
             "| finding | plan set | model | requests | effect | 95 % interval | paper | p | "
             "verdict | why |",
             "|---|---|---|---:|---:|---|---:|---:|---|---|"]
    for r in summary.to_dict("records"):
        try:
            effect = float(r["effect"])
        except ValueError:   # "2 of 7 hold"
            effect = None
        lines.append(f"| {r['finding']} | {r['plan_set']} | {r['model']} | {r['requests']} | "
                     f"{effect_cells(r, effect, r['low'], r['high'])} | "
                     f"{r['verdict']} | {r.get('why') or '–'} |")
    return "\n".join(lines) + "\n"


def effect_cells(r: Mapping, effect: float | None, low, high) -> str:
    """A summary row's cells ``effect | interval | paper | p`` as the summaries print them
    (finding 4, a ratio: unsigned, two decimals); ``effect`` None: the row's own text
    ("2 of 7 hold") and no interval."""
    d, signed = (2, False) if r["finding"] == 4 else (1, True)
    shown, interval = (str(r["effect"]), "–") if effect is None else \
        (fmt(effect, d, signed), fmt_ci(low, high, d, signed))
    return (f"{shown} | {interval} | {fmt(_number(r.get('published')), d, signed)} | "
            f"{_p(_number(r.get('p_value')))}")


def _number(x) -> float:
    try:
        return float(x)
    except (TypeError, ValueError):
        return math.nan
