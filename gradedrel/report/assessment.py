"""The paper's findings assessed under the pre-registered rules of a study design
(:mod:`gradedrel.report.design`; docs/preregistration.md).

The design names every comparison, its test and how the deciding ones combine; this module
computes them. Input: per-request values of each measure the design names, per query type
(the evaluation's ``per_topic.tsv``), and the evaluation's effort
(:class:`gradedrel.evaluation.measures.effort.RequestCurves`). Output: one row per
comparison (effect, interval, raw and Holm-adjusted p of its test of record, minimum
detectable effect, verdict, whether it decides) and one verdict per finding: the findings
report of one plan set and model. :func:`assess_files` takes the evaluation's files as read,
:func:`write_assessment` writes the three verdict tables (every comparison, one verdict per
finding, the primary comparison alone); the rest are pure functions.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from gradedrel.core.io import write_tsv
from gradedrel.report import verdicts as v
from gradedrel.report.design import Comparison, Constants, Design, Finding
from gradedrel.evaluation.measures import registry
from gradedrel.evaluation.measures.avp import AvP
from gradedrel.evaluation.measures.significance import adjust, friedman, randomisation

POINTS = 100.0  # AvP in points (percent), as the paper reports it

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


def p_value(a: np.ndarray, b: np.ndarray, test: str, constants: Constants) -> float:
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


def _record(finding: int, part: str, comparison: str, measure: str, requests: int,
            interval: v.Interval, published: float, verdict: v.Verdict, deciding: bool,
            p: float = math.nan, mde: float = math.nan) -> dict:
    """One row of the comparisons table (``why``: its verdict's reason, not written)."""
    return {"finding": finding, "part": part, "comparison": comparison, "measure": measure,
            "requests": requests, "estimate": interval.estimate, "low": interval.low,
            "high": interval.high, "confidence": interval.confidence, "published": published,
            "p_value": p, "p_holm": math.nan, "mde": mde, "verdict": verdict.verdict,
            "size": verdict.size, "deciding": deciding, "why": verdict.reason}


def _row(finding, part, comparison, measure, a, b, published, constants: Constants, deciding,
         confidence=0.95, test: str | None = None):
    """A paired difference ``a`` − ``b`` with its interval, the p of its test of record, its
    minimum detectable effect and, against a published effect, its directional verdict."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    interval = v.paired_difference(a, b, constants.resamples, confidence, constants.seed)
    sd = float(np.std(a - b, ddof=1)) if len(a) > 1 else math.nan
    verdict = v.directional(interval, published) if published and not math.isnan(published) \
        else v.Verdict("")   # no published effect (None, NaN or 0): reported, not judged
    return _record(finding, part, comparison, measure, len(a), interval, published, verdict,
                   deciding, p_value(a, b, test or constants.test_of_record, constants),
                   v.minimum_detectable_effect(sd, len(a), constants.alpha, constants.power))


# --- the tests a design names: one function per test, its rows and its verdict each ---------

def _equivalence(finding, c: Comparison, values, effort, published, design: Design, notes):
    """Every pair of the design's query types at one level, TOST intervals; the part's
    verdict on every row (Schuirmann 1987; docs/preregistration.md, H1a)."""
    m = values[c.measure]
    rows = [_row(finding.number, c.part, f"{y} - {x}", c.measure, m[y], m[x], 0.0,
                 design.constants, c.deciding, confidence=c.confidence, test=c.test_of_record)
            for x, y in design.pairs()]
    verdict = v.equivalence([v.Interval(r["estimate"], r["low"], r["high"], c.confidence)
                             for r in rows], design.constants.margin)
    for row, (x, y) in zip(rows, design.pairs()):
        row.update(verdict=verdict.verdict, published=published.difference(y, x, c.level))
    return rows, verdict


def _spread(finding, c: Comparison, values, effort, published, design: Design, notes):
    """The spread of the query types' means with Friedman's p; judged when ``large_spread``
    (finding 1b), else reported."""
    m = values[c.measure].to_numpy()
    k = design.constants
    spread = v.spread(m, k.resamples, 0.95, k.seed)
    test = friedman(m)
    p = test[0].p_value if test else math.nan
    paper = published.spread(c.level, design.query_types)
    verdict = v.large_spread(spread, p, k.margin, paper, k.alpha) \
        if c.test == "large_spread" else v.Verdict("")
    row = _record(finding.number, c.part, "spread (max - min)", c.measure, len(m), spread,
                  paper, verdict, c.deciding, p)
    row["p_holm"] = p
    return [row], verdict


def _directional(finding, c: Comparison, values, effort, published, design: Design, notes):
    m = values[c.measure]
    row = _row(finding.number, c.part, f"{c.first} - {c.second}", c.measure,
               m[c.first], m[c.second], published.difference(c.first, c.second, c.level),
               design.constants, c.deciding, confidence=c.confidence, test=c.test_of_record)
    return [row], v.Verdict(row["verdict"], row["size"], row["why"])


def _effort_ratio(finding, c: Comparison, values, effort, published, design: Design, notes):
    """Proportional effort of two query types, computed by the evaluation (``effort``: a
    :class:`gradedrel.evaluation.measures.effort.RequestCurves`), judged on the log scale;
    the paper's own effort reading (the design's ``effort_reading``) noted beside it."""
    k = design.constants
    profile = c.parameter("profile")
    found = effort.ratio(profile, c.first, c.second, c.share, k.resamples, 0.95, k.seed)
    ratio = v.Interval(found.estimate, found.low, found.high, 0.95)
    paper = published.effort_ratio.get(profile)
    verdict = v.ratio_verdict(ratio, paper) if paper else v.Verdict("")
    row = _record(finding.number, c.part, f"effort {c.first} / effort {c.second}",
                  f"rank reaching {c.share:.0%} of the ideal's CG@{effort.depth(profile)}",
                  effort.requests(profile), ratio, paper if paper else math.nan, verdict,
                  c.deciding)
    row["ranks"] = f"{found.first} vs {found.second}" + (" (censored)" if found.censored else "")
    reading = finding.effort_reading
    if reading:
        r = effort.reading(profile, c.first, c.second, int(reading["rank"]),
                           float(reading["saturation"]))
        if r.saturated:
            notes.append(f"profile {profile}: the paper's effort reading is not measurable "
                         f"(the mean ideal CG at rank {r.rank} is {r.ideal_share:.0%} of its "
                         f"value at rank {r.depth})")
        else:
            fmt = lambda x: str(x) if x is not None else f"not reached by {r.depth}"
            notes.append(f"profile {profile}: the paper's effort reading (reach the ideal's CG "
                         f"at rank {r.rank}): {c.first} {fmt(r.first)}, {c.second} "
                         f"{fmt(r.second)}")
    return [row], verdict


def _difference(finding, c: Comparison, values, effort, published, design: Design, notes):
    """A paired difference of any measure, reported with its size relative to ``second``
    (the part is labelled with the measure's cutoff, where it has one)."""
    m = values[c.measure]
    measure = registry.parse(c.measure)
    at = getattr(measure, "AT_PARAM", None)
    cutoff = measure.params.get(at) if at else None
    part = f"{c.part} at rank {cutoff} (reported)" if cutoff else f"{c.part} (reported)"
    row = _row(finding.number, part, f"{c.first} - {c.second}", c.measure, m[c.first],
               m[c.second], 0.0, design.constants, c.deciding, test=c.test_of_record)
    second = float(m[c.second].mean())
    row["size"] = (f"{row['estimate'] / second:+.1%} relative" if second > 0 else "")
    row["published"] = math.nan
    return [row], v.Verdict("")


TESTS = {"equivalence": _equivalence, "large_spread": _spread, "spread": _spread,
         "directional": _directional, "effort_ratio": _effort_ratio, "difference": _difference}


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


def assess_finding(finding: Finding, values, effort, published: Published,
                   design: Design) -> tuple[list[dict], v.Verdict, str]:
    """One finding's rows (in the design's order), its verdict (its ``reason``: what decided
    it, in a few words) and the reason in full: ``values`` maps each measure the design names
    to its requests × query types matrix (:func:`measure_matrix`), ``effort`` is the
    evaluation's effort (:class:`~gradedrel.evaluation.measures.effort.RequestCurves`)."""
    rows, parts, notes, holm = [], [], [], []
    for c in finding.comparisons:
        found, verdict = TESTS[c.test](finding, c, values, effort, published, design, notes)
        for row in found:
            row["test_of_record"] = c.test_of_record or ""
        rows.extend(found)
        holm.extend(found if c.holm else [])
        parts.append((c, verdict))
    p = np.array([r["p_value"] for r in holm], dtype=np.float64)
    if np.isfinite(p).any():   # Holm within the finding, over the rows with a p
        p[np.isfinite(p)] = adjust(p[np.isfinite(p)], "holm")
        for row, q in zip(holm, p):
            row["p_holm"] = q
    return (rows, *RULES[finding.rule](finding, parts, rows, notes))


def assess(values: Mapping[str, pd.DataFrame], effort, published: Published,
           design: Design) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every finding of the design: (comparisons, findings) tables (arguments as
    :func:`assess_finding`'s); the test of record of each row's p in the last column."""
    rows, findings = [], []
    for finding in design.findings:
        part_rows, verdict, reason = assess_finding(finding, values, effort, published,
                                                    design)
        rows.extend(part_rows)
        findings.append({"finding": finding.number, "claim": finding.claim,
                         "verdict": str(verdict), "reason": reason, "why": verdict.reason})
    comparisons = pd.DataFrame(rows)
    known = COMPARISON_COLUMNS + ["why", "test_of_record"]
    extra = [c for c in comparisons.columns if c not in known]
    return (comparisons[COMPARISON_COLUMNS + extra + ["test_of_record"]],
            pd.DataFrame(findings))


# --- from and to the evaluation's files ---------------------------------------------------

def avp_means(means: pd.DataFrame, levels: Sequence[int],
              query_types: Sequence[str]) -> dict[tuple[int, str], float]:
    """Mean AvP (0..1) per (level, query type) from a means.tsv frame."""
    from gradedrel.report.tables import mean_of

    return {(lv, q): mean_of(means, q, str(AvP(level=lv)))[0] for lv in levels for q in query_types}


def assess_files(per_topic: pd.DataFrame, effort, paper, design: Design):
    """(comparisons, findings) for one plan set and model under ``design``, from the
    evaluation's per-topic values (every measure the design names), its effort
    (``effort``: :class:`gradedrel.evaluation.measures.effort.RequestCurves` of the
    evaluation's requests, for the gain profiles the design's effort comparisons name) and
    the paper's numbers (``paper``: :class:`gradedrel.report.published.Published`)."""
    per_topic = per_topic.assign(value=pd.to_numeric(per_topic["value"]))
    values = {name: measure_matrix(per_topic, name, design.query_types)
              for name in design.measures()}
    return assess(values, effort, published_from(paper), design)


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
        d, signed = (2, False) if r["finding"] == 4 else (1, True)
        try:
            effect = fmt(float(r["effect"]), d, signed)
            interval = fmt_ci(r["low"], r["high"], d, signed)
        except ValueError:   # "2 of 7 hold"
            effect, interval = r["effect"], "–"
        paper = fmt(_number(r.get("published")), d, signed)
        lines.append(f"| {r['finding']} | {r['plan_set']} | {r['model']} | {r['requests']} | "
                     f"{effect} | {interval} | {paper} | {_p(_number(r.get('p_value')))} | "
                     f"{r['verdict']} | {r.get('why') or '–'} |")
    return "\n".join(lines) + "\n"


def _number(x) -> float:
    try:
        return float(x)
    except (TypeError, ValueError):
        return math.nan
