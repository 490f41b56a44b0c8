"""The paper's four findings, checked against our data by documented rules.

Every finding is a list of :class:`Condition` s, each a yes/no test with its numbers.
The verdict rule is the same for all four (docs/report.md):

    holds         every condition holds
    holds partly  at least one, but not every, condition holds
    does not hold no condition holds

Thresholds come from config (``report.verdict``, ``report.alpha``); published numbers
from the reference file (:mod:`gradedrel.report.published`). Tests are computed here from the
per-topic AvP values with scipy: Friedman's test over the query types per level
(Kendall's W = χ²_F / (n (k − 1)) as its effect size; Tomczak & Tomczak 2014) and a paired
test (Wilcoxon signed-rank or t) of a query type against the baseline.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from gradedrel.evaluation.measures import names, significance
from gradedrel.report.published import Published
from gradedrel.report.reproducibility import effect_ratio, relative_improvement
from gradedrel.report.tables import effort_group, effort_values, structure_of

HOLDS, PARTLY, NOT = "holds", "holds partly", "does not hold"
PROFILE_NAMES = {"3": "level 3", "2+3": "levels 2+3", "all": "all levels"}


@dataclass(frozen=True)
class Condition:
    text: str
    holds: bool
    numbers: str


@dataclass
class Finding:
    number: int
    claim: str
    published: str
    conditions: list[Condition]
    evidence: list[str] = field(default_factory=list)

    @property
    def verdict(self) -> str:
        return verdict(self.conditions)


def verdict(conditions: Sequence[Condition]) -> str:
    """holds if all conditions hold, holds partly if some do, does not hold if none do."""
    if not conditions:
        raise ValueError("a finding needs at least one condition")
    n = sum(c.holds for c in conditions)
    return HOLDS if n == len(conditions) else PARTLY if n else NOT


# --- statistics over per-topic values -------------------------------------------------

def topic_matrix(per_topic: pd.DataFrame, measure: str,
                 query_types: Sequence[str]) -> tuple[pd.DataFrame, list[str]]:
    """Topics × query types for one measure; topics lacking a value for some type are
    left out and returned (never dropped silently)."""
    rows = per_topic[(per_topic["measure"] == measure) & per_topic["run"].isin(query_types)]
    if rows.empty:
        raise ValueError(f"per_topic.tsv: no values for measure {measure!r}")
    wide = rows.pivot_table(index="qid", columns="run", values="value", aggfunc="first")
    wide = wide.reindex(columns=list(query_types))
    incomplete = sorted(wide.index[wide.isna().any(axis=1)].tolist())
    return wide.dropna().sort_index(), incomplete


@dataclass(frozen=True)
class FriedmanResult:
    statistic: float
    p_value: float
    kendall_w: float
    topics: int
    types: int


def friedman(matrix: pd.DataFrame) -> FriedmanResult:
    """Friedman's χ²_F over the columns (tie-corrected, scipy) and Kendall's W."""
    n, k = matrix.shape
    values = matrix.to_numpy(dtype=float)
    if n < 2 or k < 3:
        raise ValueError(f"Friedman's test needs >= 2 topics and >= 3 query types; got {n}, {k}")
    if np.all(values == values[:, :1]):          # every topic ties every type: no evidence
        return FriedmanResult(0.0, 1.0, 0.0, n, k)
    result, _ = significance.friedman(values)
    statistic, p = result.statistic, result.p_value
    return FriedmanResult(float(statistic), float(p), float(statistic) / (n * (k - 1)), n, k)


def paired_p(matrix: pd.DataFrame, a: str, b: str, test: str) -> float:
    """Two-sided p of a paired test of column a against column b."""
    x, y = matrix[a].to_numpy(float), matrix[b].to_numpy(float)
    if np.allclose(x, y):
        return 1.0
    if test == "wilcoxon":
        return significance.wilcoxon(x, y).p_value
    if test == "ttest":
        return significance.paired_t(x, y).p_value
    raise ValueError(f"report.paired_test: expected wilcoxon or ttest; found {test!r}")


# --- the findings ------------------------------------------------------------------------

@dataclass(frozen=True)
class Evidence:
    """What the findings read: mean AvP per (level, type), per-topic matrices per level,
    effort and gain curves (contract frames)."""

    avp: Mapping[tuple[int, str], float]
    matrices: Mapping[int, pd.DataFrame]
    effort: pd.DataFrame
    gain_curves: pd.DataFrame
    tests: "EvaluationTests | None" = None

    def friedman(self, level: int) -> FriedmanResult:
        """Friedman's test at a level: the evaluation's, if given, else scipy's here."""
        if self.tests is None:
            return friedman(self.matrices[level])
        return self.tests.friedman(names.avp(level), len(self.matrices[level].columns))

    def paired_p(self, level: int, a: str, b: str, test: str) -> float:
        if self.tests is None:
            return paired_p(self.matrices[level], a, b, test)
        return self.tests.paired_p(names.avp(level), a, b)


@dataclass(frozen=True)
class EvaluationTests:
    """p-values as the evaluation step computed them (its significance files), so that
    the findings quote the same numbers as the significance tables. ``columns`` names the
    p column of each file (config ``report.significance_columns``)."""

    friedman_table: pd.DataFrame
    posthoc: pd.DataFrame
    vs_baseline: pd.DataFrame
    columns: Mapping[str, str]

    def friedman(self, measure: str, types: int) -> FriedmanResult:
        row = self.friedman_table[self.friedman_table["measure"] == measure]
        if len(row) == 0:
            # the evaluation writes no Friedman row where the test is undefined (fewer than
            # 2 topics with a recall base at this level): a condition on it cannot hold
            return FriedmanResult(math.nan, math.nan, math.nan, 0, types)
        if len(row) != 1:
            raise ValueError(f"significance_friedman.tsv: expected one row for {measure!r}; "
                             f"found {len(row)}")
        statistic, n = float(row["statistic"].iloc[0]), int(row["topics"].iloc[0])
        return FriedmanResult(statistic, float(row[self.columns["friedman"]].iloc[0]),
                              statistic / (n * (types - 1)), n, types)

    def paired_p(self, measure: str, a: str, b: str) -> float:
        vb = self.vs_baseline
        row = vb[(vb["measure"] == measure) & (((vb["run"] == a) & (vb["baseline"] == b))
                                              | ((vb["run"] == b) & (vb["baseline"] == a)))]
        column = self.columns["vs_baseline"]
        if row.empty:
            ph = self.posthoc
            row = ph[(ph["measure"] == measure) & (((ph["run_a"] == a) & (ph["run_b"] == b))
                                                  | ((ph["run_a"] == b) & (ph["run_b"] == a)))]
            column = self.columns["posthoc"]
        if len(row) != 1:
            raise ValueError(f"significance files: expected one test of {a} against {b} on "
                             f"{measure!r}; found {len(row)}")
        return float(row[column].iloc[0])


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _p(p: float) -> str:
    return "p not computable (fewer than 2 topics)" if math.isnan(p) else f"p = {p:.3g}"


def finding1(ev: Evidence, levels: Sequence[int], query_types: Sequence[str], alpha: float,
             spread_ratio_min: float, kendall_w_min: float, published: Published) -> Finding:
    lo, hi = min(levels), max(levels)
    spread = {lv: max(ev.avp[(lv, q)] for q in query_types) - min(ev.avp[(lv, q)]
                                                                  for q in query_types)
              for lv in levels}
    paper_spread = {lv: max(published.avp_of(lv, q) for q in query_types)
                    - min(published.avp_of(lv, q) for q in query_types) for lv in levels}
    tests = {lv: ev.friedman(lv) for lv in levels}
    t = tests[hi]
    ratio = spread[hi] / spread[lo] if spread[lo] > 0 else math.inf
    conditions = [
        Condition(f"Friedman's test over the query types is significant at level {hi} "
                  f"(p < {alpha})", t.p_value < alpha,
                  f"χ²_F = {t.statistic:.2f}, {_p(t.p_value)}, n = {t.topics} topics"),
        Condition(f"the effect is at least small at level {hi}: Kendall's W ≥ {kendall_w_min}",
                  t.kendall_w >= kendall_w_min, f"W = {t.kendall_w:.3f}"),
        Condition(f"the spread of mean AvP over query types at level {hi} is at least "
                  f"{spread_ratio_min}× that at level {lo}", ratio >= spread_ratio_min,
                  f"spread {_pct(spread[hi])} vs {_pct(spread[lo])} AvP points "
                  f"(ratio {ratio:.2f}; paper {_pct(paper_spread[hi])} vs "
                  f"{_pct(paper_spread[lo])})"),
    ]
    evidence = [f"level {lv}: Friedman χ²_F = {tests[lv].statistic:.2f}, {_p(tests[lv].p_value)},"
                f" W = {tests[lv].kendall_w:.3f}, n = {tests[lv].topics}; spread of means "
                f"{_pct(spread[lv])} points (paper {_pct(paper_spread[lv])})" for lv in levels]
    return Finding(1, "Differences between query types are negligible at level 1 and large, "
                   "and significant (Friedman), at level 3.",
                   f"spread of AvP over the six types: {_pct(paper_spread[lo])} points at level "
                   f"{lo}, {_pct(paper_spread[hi])} at level {hi}", conditions, evidence)


def best_published_strong(published: Published, strong: Sequence[str], level: int) -> str:
    """The expanded strong type the paper's claim names: its best at the level (WSYN/e)."""
    return max(strong, key=lambda q: published.avp_of(level, q))


def finding2(ev: Evidence, level: int, query_types: Sequence[str], strong: Sequence[str],
             baseline: str, alpha: float, test: str, effect_ratio_min: float,
             published: Published) -> Finding:
    target = best_published_strong(published, strong, level)
    ours_t, ours_b = ev.avp[(level, target)], ev.avp[(level, baseline)]
    paper_t, paper_b = published.avp_of(level, target), published.avp_of(level, baseline)
    best = max(query_types, key=lambda q: (ev.avp[(level, q)], q))
    p = ev.paired_p(level, target, baseline, test)
    er = effect_ratio(ours_t, ours_b, paper_t, paper_b)
    ri_paper, ri_ours = relative_improvement(paper_t, paper_b), relative_improvement(ours_t, ours_b)
    conditions = [
        Condition(f"the best query type at level {level} is an expanded strong one "
                  f"({', '.join(strong)})", best in strong,
                  f"best: {best} ({_pct(ev.avp[(level, best)])})"),
        Condition(f"{target} beats {baseline} at level {level}, significantly "
                  f"({test}, p < {alpha})", ours_t > ours_b and p < alpha,
                  f"{_pct(ours_t)} vs {_pct(ours_b)}, {_p(p)}"),
        Condition(f"the improvement is reproduced at least in part: effect ratio ≥ "
                  f"{effect_ratio_min}", not math.isnan(er) and er >= effect_ratio_min,
                  f"ER = {er:.2f}; relative improvement {100 * ri_ours:+.1f} % "
                  f"(paper {100 * ri_paper:+.1f} %)"),
    ]
    return Finding(2, "Expanded strong structures are best for highly relevant documents.",
                   f"{target} {_pct(paper_t)} vs {baseline} {_pct(paper_b)} at level {level} "
                   f"({100 * ri_paper:+.1f} %)", conditions)


def finding3(ev: Evidence, levels: Sequence[int], query_types: Sequence[str],
             weak: Sequence[str], alpha: float, test: str, min_difference: float,
             published: Published) -> Finding:
    structures = list(dict.fromkeys(structure_of(q)[0] for q in query_types))
    weak_structures = list(dict.fromkeys(structure_of(q)[0] for q in weak))
    conditions, evidence, paper = [], [], []
    for s in structures:
        paper.append(f"{s}/e − {s}/u " + ", ".join(
            f"{100 * (published.avp_of(lv, s + '/e') - published.avp_of(lv, s + '/u')):+.1f}"
            for lv in levels))
        u, e = f"{s}/u", f"{s}/e"
        hurts = s in weak_structures
        diffs = {lv: ev.avp[(lv, e)] - ev.avp[(lv, u)] for lv in levels}
        ps = {lv: ev.paired_p(lv, e, u, test) for lv in levels}
        ok = all((d < -min_difference) if hurts else (d > min_difference)
                 for d in diffs.values())
        numbers = "; ".join(
            f"level {lv}: {100 * diffs[lv]:+.1f} ({_p(ps[lv])}; paper "
            f"{100 * (published.avp_of(lv, e) - published.avp_of(lv, u)):+.1f})" for lv in levels)
        word = "below" if hurts else "above"
        conditions.append(Condition(f"{e} {word} {u} at every level "
                                    f"(by more than {100 * min_difference:.1f} points)",
                                    ok, numbers))
        evidence.append(f"{s}: {sum(p < alpha for p in ps.values())} of {len(levels)} "
                        f"expansion differences significant ({test}, p < {alpha})")
    return Finding(3, "Expansion hurts the weak structure (SUM/e below SUM/u at every level) "
                   "and helps the strong ones.",
                   f"AvP points at levels {', '.join(map(str, levels))}: " + "; ".join(paper),
                   conditions, evidence)


def dcg_at(gain_curves: pd.DataFrame, run: str, profile: str, base: int, rank: int) -> float:
    rows = gain_curves[(gain_curves["run"] == run) & (gain_curves["profile"] == profile)
                       & (gain_curves["kind"] == "DCG") & (gain_curves["base"].astype(int) == base)
                       & (gain_curves["rank"].astype(int) == rank)]
    if len(rows) != 1:
        raise ValueError(f"gain_curves.tsv: expected one DCG row for run {run!r}, profile "
                         f"{profile!r}, base {base}, rank {rank}; found {len(rows)}")
    return float(rows["value"].iloc[0])


def finding4(ev: Evidence, query_types: Sequence[str], strong: Sequence[str],
             weak: Sequence[str], published: Published) -> Finding:
    others = [q for q in query_types if q not in strong]
    conditions = []
    for spec in published.effort:
        values = effort_values(ev.effort, spec)
        s, o = effort_group(values, strong), effort_group(values, others)
        name = spec.kind + (f" (b = {spec.base})" if spec.base else "")
        conditions.append(Condition(
            f"{name}, {PROFILE_NAMES.get(spec.profile, spec.profile)}: the expanded strong types need fewer documents "
            f"than the others to reach the ideal gain at rank {spec.k}", s < o,
            f"{_rank(s)} vs {_rank(o)} (paper {spec.strong:.0f} vs {spec.others:.0f})"))
    bases = sorted(published.advantage_points)
    rank, profile = published.advantage_rank, published.advantage_profile
    adv, pct = {}, {}
    for b in bases:
        st = np.mean([dcg_at(ev.gain_curves, q, profile, b, rank) for q in strong])
        wk = np.mean([dcg_at(ev.gain_curves, q, profile, b, rank) for q in weak])
        adv[b], pct[b] = st - wk, relative_improvement(st, wk)
    grows = all(adv[b] > 0 for b in bases) and all(
        adv[b2] > adv[b1] for b1, b2 in zip(bases, bases[1:]))
    conditions.append(Condition(
        f"at rank {rank} ({PROFILE_NAMES.get(profile, profile)}) the DCG advantage of the expanded strong types over "
        f"the weak ones is positive and grows from b = {bases[0]} to b = {bases[-1]}", grows,
        "; ".join(f"b = {b}: {adv[b]:+.2f} points ({100 * pct[b]:+.1f} %; paper "
                  f"{published.advantage_points[b]:+.0f}"
                  + (f", {published.advantage_percent[b]:.0f} %" if b in
                     published.advantage_percent else "") + ")" for b in bases)))
    return Finding(4, "Effort: with the expanded strong structures a user scans fewer documents "
                   "to collect the gain an ideal ranking gives at rank 10.",
                   "; ".join(f"{s.kind}{' (b = ' + str(s.base) + ')' if s.base else ''}, "
                             f"{PROFILE_NAMES.get(s.profile, s.profile)}: {s.strong:.0f} vs "
                             f"{s.others:.0f} documents"
                             for s in published.effort), conditions)


def _rank(x: float) -> str:
    return "not reached" if math.isinf(x) else f"{x:.1f}"


def all_findings(ev: Evidence, cfg: Mapping, published: Published) -> list[Finding]:
    """The four findings with config ``report`` (levels, types, thresholds)."""
    levels, qts = list(cfg["levels"]), list(cfg["query_types"])
    strong, weak, base = list(cfg["expanded_strong"]), list(cfg["weak"]), cfg["baseline"]
    v, alpha, test = cfg["verdict"], cfg["alpha"], cfg["paired_test"]
    return [
        finding1(ev, levels, qts, alpha, v["spread_ratio_min"], v["kendall_w_min"], published),
        finding2(ev, max(levels), qts, strong, base, alpha, test, v["effect_ratio_min"],
                 published),
        finding3(ev, levels, qts, weak, alpha, test, v["min_difference"], published),
        finding4(ev, qts, strong, weak, published),
    ]


def build_evidence(per_topic: pd.DataFrame, means: pd.DataFrame, effort: pd.DataFrame,
                   gain_curves: pd.DataFrame, cfg: Mapping,
                   tests: EvaluationTests | None = None
                   ) -> tuple[Evidence, dict[int, list[str]]]:
    """Evidence from the evaluation's frames; also, per level, the topics left out of the
    tests because some query type lacks a value for them (reported, not dropped silently)."""
    from gradedrel.report.tables import mean_of
    levels, qts = list(cfg["levels"]), list(cfg["query_types"])
    avp = {(lv, q): mean_of(means, q, names.avp(lv))[0] for lv in levels for q in qts}
    matrices, left_out = {}, {}
    for lv in levels:
        matrices[lv], left_out[lv] = topic_matrix(per_topic, names.avp(lv), qts)
    return Evidence(avp, matrices, effort, gain_curves, tests), left_out
