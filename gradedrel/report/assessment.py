"""The four findings assessed under the pre-registered rules (docs/preregistration.md).

Input: per-request AvP per level and query type (from the evaluation's ``per_topic.tsv``),
and per-request gain vectors of the runs and of the ideal (for effort and DCG). Output: one
row per comparison (effect, interval, raw and Holm-adjusted p, minimum detectable effect,
verdict, whether it decides) and one verdict per finding. Pure functions: no files.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from gradedrel.report import verdicts as v
from gradedrel.evaluation.measures import names
from gradedrel.evaluation.measures.cumulated_gain import cumulated_gain, discounted_cumulated_gain
from gradedrel.evaluation.measures.significance import adjust, friedman, randomisation

POINTS = 100.0  # AvP in points (percent), as the paper reports it

COMPARISON_COLUMNS = ["finding", "part", "comparison", "measure", "requests", "estimate", "low",
                      "high", "confidence", "published", "p_value", "p_holm", "mde", "verdict",
                      "size", "deciding"]
FINDING_COLUMNS = ["finding", "claim", "verdict", "reason"]


@dataclass(frozen=True)
class Rules:
    """The pre-registered constants (docs/preregistration.md)."""
    alpha: float = 0.05
    margin: float = 5.0                     # AvP points: negligible differences (H1a)
    resamples: int = 10_000
    seed: int = 20000724
    trials: int = 10_000
    power: float = 0.8
    effort_share: float = 0.5               # H4: share of the ideal's maximum
    effort_profile: str = "3"               # H4: deciding profile
    effort_profiles: tuple = ("3", "2+3")
    saturation: float = 0.95                # paper's effort reading: not measurable above
    effort_rank: int = 10                   # paper's effort reading: ideal at rank k
    dcg_rank: int = 50
    dcg_bases: tuple = (2, 10)
    primary: tuple = ("WSYN/e", "SUM/u")
    query_types: tuple = ("SUM/u", "SUM/e", "SSYN-C/u", "SSYN-C/e", "WSYN/u", "WSYN/e")


@dataclass(frozen=True)
class Published:
    """The paper's numbers the rules compare against."""
    avp: Mapping[int, Mapping[str, float]]          # level -> query type -> AvP %
    effort_ratio: Mapping[str, float] = field(default_factory=dict)   # profile -> strong/others

    def difference(self, first: str, second: str, level: int) -> float:
        return round(self.avp[level][first] - self.avp[level][second], 6)

    def spread(self, level: int) -> float:
        values = list(self.avp[level].values())
        return round(max(values) - min(values), 6)


def avp_matrix(per_topic: pd.DataFrame, level: int, query_types: Sequence[str],
               reading: str = "exact") -> pd.DataFrame:
    """Requests × query types of AvP(level) in points, requests where every type has a value."""
    name = names.avp(level, reading)
    rows = per_topic[per_topic["measure"] == name]
    wide = rows.pivot(index="qid", columns="run", values="value").astype(float)
    missing = [t for t in query_types if t not in wide.columns]
    if missing:
        raise ValueError(f"per-topic values of {name} lack the query types {missing}")
    return wide[list(query_types)].dropna() * POINTS


def _row(finding, part, comparison, measure, a, b, published, rules, deciding, confidence=0.95):
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    interval = v.paired_difference(a, b, rules.resamples, confidence, rules.seed)
    p = randomisation(a, b, rules.trials, rules.seed).p_value if len(a) > 1 else math.nan
    sd = float(np.std(a - b, ddof=1)) if len(a) > 1 else math.nan
    verdict = v.directional(interval, published) if published else v.Verdict("")
    return {"finding": finding, "part": part, "comparison": comparison, "measure": measure,
            "requests": len(a), "estimate": interval.estimate, "low": interval.low,
            "high": interval.high, "confidence": confidence, "published": published,
            "p_value": p, "p_holm": math.nan,
            "mde": v.minimum_detectable_effect(sd, len(a), rules.alpha, rules.power),
            "verdict": verdict.verdict, "size": verdict.size, "deciding": deciding}


def _holm(rows: list[dict]) -> None:
    p = np.array([r["p_value"] for r in rows], dtype=np.float64)
    ok = np.isfinite(p)
    adjusted = np.full(len(p), math.nan)
    adjusted[ok] = adjust(p[ok], "holm")
    for row, q in zip(rows, adjusted):
        row["p_holm"] = q


def finding1(avp: Mapping[int, pd.DataFrame], published: Published, rules: Rules):
    """Negligible differences at level 1 (equivalence), large and significant at level 3."""
    rows, parts = [], []
    m1 = avp[1]
    intervals = []
    for x, y in itertools.combinations(rules.query_types, 2):
        row = _row(1, "a: level 1 negligible", f"{y} - {x}", names.avp(1), m1[y], m1[x],
                   0.0, rules, True, confidence=0.90)
        intervals.append(v.Interval(row["estimate"], row["low"], row["high"], 0.90))
        rows.append(row)
    part_a = v.equivalence(intervals, rules.margin)
    for row in rows:
        row["verdict"] = part_a.verdict
        row["published"] = published.difference(row["comparison"].split(" - ")[0],
                                                 row["comparison"].split(" - ")[1], 1)
    _holm(rows)
    m3 = avp[3]
    values = m3.to_numpy()
    spread = v.spread(values, rules.resamples, 0.95, rules.seed)
    test = friedman(values)
    p = test[0].p_value if test else math.nan
    part_b = v.large_spread(spread, p, rules.margin, published.spread(3), rules.alpha)
    rows.append({"finding": 1, "part": "b: level 3 large", "comparison": "spread (max - min)",
                 "measure": names.avp(3), "requests": len(m3), "estimate": spread.estimate,
                 "low": spread.low, "high": spread.high, "confidence": 0.95,
                 "published": published.spread(3), "p_value": p, "p_holm": p,
                 "mde": math.nan, "verdict": part_b.verdict, "size": "", "deciding": True})
    m1spread = v.spread(m1.to_numpy(), rules.resamples, 0.95, rules.seed)
    test1 = friedman(m1.to_numpy())
    rows.append({"finding": 1, "part": "level 1 spread (reported)", "comparison": "spread (max - min)",
                 "measure": names.avp(1), "requests": len(m1), "estimate": m1spread.estimate,
                 "low": m1spread.low, "high": m1spread.high, "confidence": 0.95,
                 "published": published.spread(1), "p_value": test1[0].p_value if test1 else math.nan,
                 "p_holm": test1[0].p_value if test1 else math.nan, "mde": math.nan,
                 "verdict": "", "size": "", "deciding": False})
    overall = v.all_of([part_a, part_b])
    reason = f"level 1: {part_a.verdict} ({part_a.reason}); level 3: {part_b.verdict} ({part_b.reason})"
    return rows, overall, reason


def finding2(avp, published: Published, rules: Rules):
    """The primary comparison decides; the other expanded-strong comparisons are reported."""
    first, second = rules.primary
    m3 = avp[3]
    primary = _row(2, "primary", f"{first} - {second}", names.avp(3), m3[first], m3[second],
                   published.difference(first, second, 3), rules, True)
    rows = [primary]
    for x, y in (("SSYN-C/e", "SUM/u"), ("WSYN/e", "SUM/e"), ("SSYN-C/e", "SUM/e")):
        rows.append(_row(2, "secondary", f"{x} - {y}", names.avp(3), m3[x], m3[y],
                         published.difference(x, y, 3), rules, False))
    _holm(rows)
    verdict = v.Verdict(primary["verdict"], primary["size"])
    reason = (f"{first} - {second} at level 3: {primary['estimate']:+.1f} points, 95 % CI "
              f"[{primary['low']:+.1f}, {primary['high']:+.1f}] against the paper's "
              f"{primary['published']:+.1f}")
    return rows, verdict, reason


def finding3(avp, published: Published, rules: Rules):
    """Expansion hurts SUM at every level, helps SSYN-C and WSYN at levels 2 and 3."""
    rows = []
    for level in (1, 2, 3):
        m = avp[level]
        rows.append(_row(3, "weak", "SUM/e - SUM/u", names.avp(level), m["SUM/e"], m["SUM/u"],
                         published.difference("SUM/e", "SUM/u", level), rules, True))
        for s in ("SSYN-C", "WSYN"):
            rows.append(_row(3, "strong", f"{s}/e - {s}/u", names.avp(level), m[f"{s}/e"],
                             m[f"{s}/u"], published.difference(f"{s}/e", f"{s}/u", level),
                             rules, level in (2, 3)))
    _holm(rows)
    parts = {}
    for part in ("weak", "strong"):
        parts[part] = v.all_of([v.Verdict(r["verdict"]) for r in rows
                                if r["part"] == part and r["deciding"]])
    overall = v.all_of(parts.values())
    reason = f"weak: {parts['weak'].verdict}; strong: {parts['strong'].verdict}"
    return rows, overall, reason


def finding4(curves: Mapping[str, Mapping[str, np.ndarray]], ideal: Mapping[str, np.ndarray],
             published: Published, rules: Rules):
    """Proportional effort (deciding), the paper's effort reading and the DCG advantage.

    ``curves[profile][query type]`` and ``ideal[profile]`` are per-request *gain* vectors
    ``(requests, depth)`` (not cumulated).
    """
    first, second = rules.primary
    rows, verdict = [], v.Verdict(v.INCONCLUSIVE, reason="no deciding profile")
    notes = []
    for profile in rules.effort_profiles:
        g1, g2, gi = curves[profile][first], curves[profile][second], ideal[profile]
        cg1, cg2, cgi = cumulated_gain(g1), cumulated_gain(g2), cumulated_gain(gi)
        effort = v.effort_ratio(cg1, cg2, cgi, rules.effort_share, rules.resamples, 0.95,
                                rules.seed)
        paper = published.effort_ratio.get(profile)
        deciding = profile == rules.effort_profile
        pv = v.ratio_verdict(effort.ratio, paper) if paper else v.Verdict("")
        rows.append({"finding": 4, "part": f"proportional effort, profile {profile}",
                     "comparison": f"effort {first} / effort {second}",
                     "measure": f"rank reaching {rules.effort_share:.0%} of the ideal's CG@{cgi.shape[1]}",
                     "requests": len(g1), "estimate": effort.ratio.estimate,
                     "low": effort.ratio.low, "high": effort.ratio.high, "confidence": 0.95,
                     "published": paper if paper else math.nan, "p_value": math.nan,
                     "p_holm": math.nan, "mde": math.nan, "verdict": pv.verdict,
                     "size": pv.size, "deciding": deciding,
                     "ranks": f"{effort.first} vs {effort.second}" +
                              (" (censored)" if effort.censored else "")})
        if deciding:
            verdict = pv
        ideal_mean = cgi.mean(axis=0)
        if v.saturated(ideal_mean, rules.effort_rank, rules.saturation):
            notes.append(f"profile {profile}: the paper's effort reading is not measurable "
                         f"(the mean ideal CG at rank {rules.effort_rank} is "
                         f"{ideal_mean[rules.effort_rank - 1] / ideal_mean[-1]:.0%} of its value "
                         f"at rank {len(ideal_mean)})")
        else:
            target = ideal_mean[rules.effort_rank - 1]
            r1 = v.effort_rank(cg1.mean(axis=0), target)
            r2 = v.effort_rank(cg2.mean(axis=0), target)
            fmt = lambda r: str(r) if r <= len(ideal_mean) else f"not reached by {len(ideal_mean)}"
            notes.append(f"profile {profile}: the paper's effort reading (reach the ideal's CG "
                         f"at rank {rules.effort_rank}): {first} {fmt(r1)}, {second} {fmt(r2)}")
    for base in rules.dcg_bases:
        g1, g2 = curves["2+3"][first], curves["2+3"][second]
        rank = min(rules.dcg_rank, g1.shape[1])   # the curves' depth, if shorter
        d1 = discounted_cumulated_gain(g1, base)[:, rank - 1]
        d2 = discounted_cumulated_gain(g2, base)[:, rank - 1]
        row = _row(4, f"DCG advantage at rank {rank} (reported)", f"{first} - {second}",
                   names.cumulated_gain("DCG", "2+3", base, rank), d1, d2, 0.0,
                   rules, False)
        row["size"] = (f"{row['estimate'] / d2.mean():+.1%} relative" if d2.mean() > 0 else "")
        row["published"] = math.nan
        rows.append(row)
    reason = "; ".join([f"proportional effort (profile {rules.effort_profile}): {verdict}"] + notes)
    return rows, verdict, reason


CLAIMS = {
    1: "differences between query types are negligible at level 1, large and significant at level 3",
    2: "expanded strong structures are best for highly relevant documents (WSYN/e vs SUM/u, level 3)",
    3: "expansion hurts the weak structure (every level) and helps the strong ones (levels 2, 3)",
    4: "expanded strong queries reach a given share of the ideal gain after fewer documents",
}


def assess(avp: Mapping[int, pd.DataFrame], curves, ideal, published: Published,
           rules: Rules = Rules()) -> tuple[pd.DataFrame, pd.DataFrame]:
    """All four findings: (comparisons, findings) tables."""
    rows, findings = [], []
    for number, result in ((1, finding1(avp, published, rules)),
                           (2, finding2(avp, published, rules)),
                           (3, finding3(avp, published, rules)),
                           (4, finding4(curves, ideal, published, rules))):
        part_rows, verdict, reason = result
        rows.extend(part_rows)
        findings.append({"finding": number, "claim": CLAIMS[number], "verdict": str(verdict),
                         "reason": reason})
    comparisons = pd.DataFrame(rows)
    extra = [c for c in comparisons.columns if c not in COMPARISON_COLUMNS]
    return comparisons[COMPARISON_COLUMNS + extra], pd.DataFrame(findings, columns=FINDING_COLUMNS)


# --- from the evaluation's files ----------------------------------------------------------

def published_from(paper) -> Published:
    """The assessment's view of :class:`gradedrel.published.Published` (AvP in points; the
    effort ratio strong / others of each CG effort row, by gain profile)."""
    avp = {int(level): {t: round(float(x) * POINTS, 6) for t, x in row.items()}
           for level, row in paper.avp.items()}
    ratios = {e.profile: e.strong / e.others for e in paper.effort
              if e.kind == "CG" and e.others}
    return Published(avp, ratios)


def gain_vectors_of_runs(runs: Mapping, qrels: pd.DataFrame, topics: Sequence[str],
                         profiles: Mapping[str, Sequence[int]], gains: Mapping[int, float],
                         depth: int):
    """Per-request gain vectors ``(requests, depth)`` of each run and of the ideal, per gain
    profile, over ``topics`` in that order (a topic a run did not rank has zero gain).

    ``runs`` maps query type -> :class:`gradedrel.runs.RankedRun`; ``qrels`` has columns
    ``qid, docno, grade``. Returns (curves[profile][type], ideal[profile]).
    """
    from gradedrel.evaluation.measures.cumulated_gain import GainProfile, gain_vectors, ideal_vectors
    from gradedrel.evaluation.measures.judgements import Judgements, judge

    judgements = Judgements.from_qrels(qrels, list(topics))
    judged = {name: judge(run, judgements) for name, run in runs.items()}
    curves, ideal = {}, {}
    for name, levels in profiles.items():
        table = GainProfile(name, tuple(int(x) for x in levels),
                            {int(k): float(x) for k, x in gains.items()}).gain_by_grade
        ideal[name] = ideal_vectors(judgements, table, depth)
        curves[name] = {t: gain_vectors(j, table, depth) for t, j in judged.items()}
    return curves, ideal


# --- tables for the report ----------------------------------------------------------------

def _fmt(x, digits=1, signed=True):
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "–"
    return f"{x:+.{digits}f}" if signed else f"{x:.{digits}f}"


def _p(x):
    if x is None or not math.isfinite(x):
        return "–"
    return f"{x:.4f}" if x >= 0.0001 else "<0.0001"


def comparisons_markdown(comparisons: pd.DataFrame) -> str:
    """One Markdown table of every comparison: effect, interval, raw and Holm p, MDE, verdict."""
    lines = ["| finding | part | comparison | measure | n | effect | interval | paper | p (raw) | "
             "p (Holm) | MDE | verdict | deciding |",
             "|---|---|---|---|---:|---:|---|---:|---:|---:|---:|---|---|"]
    for r in comparisons.to_dict("records"):
        ratio = r["finding"] == 4 and str(r["part"]).startswith("proportional")
        d = 2 if ratio else 1
        conf = f"{r['confidence']:.0%}"
        interval = f"{conf} [{_fmt(r['low'], d, not ratio)}, {_fmt(r['high'], d, not ratio)}]"
        if r["verdict"]:
            verdict = r["verdict"] + (f" ({r['size']})" if r["size"] else "")
        else:
            verdict = r["size"]
        lines.append(
            f"| {r['finding']} | {r['part']} | {r['comparison']} | `{r['measure']}` | "
            f"{r['requests']} | {_fmt(r['estimate'], d, not ratio)} | {interval} | "
            f"{_fmt(r['published'], d, not ratio)} | {_p(r['p_value'])} | {_p(r['p_holm'])} | "
            f"{_fmt(r['mde'], 1, False)} | {verdict or '–'} | {'yes' if r['deciding'] else 'no'} |")
    return "\n".join(lines) + "\n"


def findings_markdown(findings: pd.DataFrame) -> str:
    lines = ["| finding | claim | verdict | why |", "|---|---|---|---|"]
    for r in findings.to_dict("records"):
        lines.append(f"| {r['finding']} | {r['claim']} | **{r['verdict']}** | {r['reason']} |")
    return "\n".join(lines) + "\n"


SUMMARY_COLUMNS = ["finding", "collection", "plan_set", "model", "effect", "low", "high",
                   "requests", "verdict"]


def summary_rows(collection: str, plan_set: str, model: str, comparisons: pd.DataFrame,
                 findings: pd.DataFrame) -> list[dict]:
    """One row per finding: the deciding effect (finding 1: level-3 spread; 2: the primary
    comparison; 3: how many deciding components hold; 4: the effort ratio) and the verdict."""
    rows = []
    for f in findings.to_dict("records"):
        n = f["finding"]
        sub = comparisons[(comparisons["finding"] == n) & comparisons["deciding"].astype(bool)]
        if n == 1:
            pick = sub[sub["part"].str.startswith("b:")]
        elif n == 2:
            pick = sub[sub["part"] == "primary"]
        elif n == 4:
            pick = sub[sub["part"].str.startswith("proportional")]
        else:
            pick = sub.iloc[0:0]
        if len(pick):
            r = pick.iloc[0]
            effect, low, high, requests = r["estimate"], r["low"], r["high"], int(r["requests"])
        else:
            held = int((sub["verdict"] == v.HOLDS).sum())
            effect, low, high = f"{held} of {len(sub)} hold", math.nan, math.nan
            requests = int(sub["requests"].max()) if len(sub) else 0
        if not isinstance(effect, str):  # one column of text: numbers as the tables print them
            effect = f"{effect:.6f}"
        rows.append({"finding": n, "collection": collection, "plan_set": plan_set,
                     "model": model, "effect": effect, "low": low, "high": high,
                     "requests": requests, "verdict": f["verdict"]})
    return rows


def verdicts_markdown(title: str, comparisons: pd.DataFrame, findings: pd.DataFrame) -> str:
    """The verdict section of a findings report: verdicts, then every comparison."""
    return "\n".join([
        f"## {title}", "",
        "Rules fixed in advance: docs/preregistration.md. Effects in AvP points (finding 4: a "
        "ratio of ranks); intervals are paired bootstrap percentile intervals over requests; "
        "p = two-sided paired randomisation test (Friedman for the level-3 spread), raw and "
        "Holm-adjusted within the finding; MDE = the smallest difference detectable at "
        "α = 0.05 with power 0.8 for this n.", "",
        findings_markdown(findings),
        comparisons_markdown(comparisons)])


def summary_markdown(summary: pd.DataFrame, title: str) -> str:
    """Finding × plan set × model: effect, interval and verdict, one line each."""
    lines = [f"# {title}", "",
             "Effect: finding 1 — level-3 spread of mean AvP over the six query types (points); "
             "2 — WSYN/e − SUM/u at level 3 (points); 3 — deciding components that hold; "
             "4 — proportional effort ratio WSYN/e / SUM/u (profile 3). Rules: "
             "docs/preregistration.md.", "",
             "| finding | plan set | model | requests | effect | 95 % interval | verdict |",
             "|---|---|---|---:|---:|---|---|"]
    for r in summary.to_dict("records"):
        try:
            r["effect"] = float(r["effect"])
        except ValueError:
            pass
        if isinstance(r["effect"], str):
            effect, interval = r["effect"], "–"
        else:
            d = 2 if r["finding"] == 4 else 1
            signed = r["finding"] != 4
            effect = _fmt(r["effect"], d, signed)
            interval = f"[{_fmt(r['low'], d, signed)}, {_fmt(r['high'], d, signed)}]"
        lines.append(f"| {r['finding']} | {r['plan_set']} | {r['model']} | {r['requests']} | "
                     f"{effect} | {interval} | {r['verdict']} |")
    return "\n".join(lines) + "\n"
