"""Evaluating a set of runs with the paper's measures, into the tidy tables of the contract.

``evaluate`` takes ranked runs (label → :class:`~gradedrel.runs.RankedRun`) and
graded :class:`~gradedrel.measures.judgements.Judgements` and returns the tables
that :func:`write_tables` writes to ``results/{c}/evaluation/{planset}/{model}/``:

- ``per_topic.tsv``  run, qid, measure, value (a measure undefined for a topic —
  empty recall base, ideal 0 — has no row);
- ``means.tsv``      run, measure, mean, topics (the topics the mean covers);
- ``pr_curves.tsv``  run, level, reading, recall, precision, topics;
- ``pr_per_topic.tsv`` run, qid, level, reading, recall, precision (defined topics only);
- ``gain_curves.tsv`` run, profile, kind, base, rank, value, ideal;
- ``effort.tsv``     run, profile, kind, base, k, ideal_at_k, rank_reached, reached;
- ``significance_friedman.tsv``, ``significance_posthoc.tsv``,
  ``significance_vs_baseline.tsv``, ``bootstrap_ci.tsv``;
- ``coverage.tsv``   what was evaluated, missing or ignored, per run.

Measures and conventions: docs/measures.md.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Mapping

import numpy as np
import pandas as pd

from . import standard_measures
from .io import sha256_of, write_tsv
from .measures import cumulated_gain as cg
from .measures import effort, names, significance, stratified
from .measures.judgements import Judgements, JudgedRun, judge
from .runs import RankedRun

log = logging.getLogger("gradedrel")

TABLES = ("per_topic", "means", "pr_curves", "pr_per_topic", "gain_curves", "effort",
          "significance_friedman", "significance_posthoc", "significance_vs_baseline",
          "bootstrap_ci", "coverage")


@dataclass(frozen=True)
class Settings:
    """What to compute; defaults are the paper's (config section ``evaluation``)."""

    levels: tuple[int, ...] = (1, 2, 3)
    readings: tuple[str, ...] = ("exact", "atleast")
    recall_points: tuple[float, ...] = stratified.RECALL_POINTS
    gains: Mapping[int, float] = field(default_factory=lambda: dict(cg.DEFAULT_GAINS))
    profiles: Mapping[str, tuple[int, ...]] = field(
        default_factory=lambda: dict(cg.DEFAULT_PROFILES))
    dcg_bases: tuple[int, ...] = (2, 10)
    depth: int = 100
    cutoffs: tuple[int, ...] = (10, 50, 100)
    effort_ranks: tuple[int, ...] = (10,)
    ndcg_log2_cutoffs: tuple[int, ...] = (10,)
    ndcg_log2_gains: tuple[str, ...] = ("linear", "exp")
    missing_topics: str = "zero"
    significance_measures: tuple[str, ...] | None = None  # None: AvP per level, exact
    baseline_run: str | None = "SUM/u"
    correction: str = "holm"
    randomisation_trials: int = 10000
    bootstrap_resamples: int = 1000
    confidence: float = 0.95
    seed: int = 20000724
    standard_measures: tuple[str, ...] = ()

    @classmethod
    def from_config(cls, section: Mapping | None,
                    standard: list[str] | None = None) -> "Settings":
        s = dict(section or {})
        sig = dict(s.get("significance", {}))
        boot = dict(s.get("bootstrap", {}))
        modern = dict(s.get("ndcg_log2", {}))
        d = cls()
        settings = cls(
            levels=tuple(int(x) for x in s.get("levels", d.levels)),
            readings=tuple(s.get("readings", d.readings)),
            recall_points=tuple(float(x) for x in s.get("recall_points", d.recall_points)),
            gains={int(k): float(v) for k, v in s.get("gains", d.gains).items()},
            profiles={str(k): tuple(int(x) for x in v)
                      for k, v in s.get("profiles", d.profiles).items()},
            dcg_bases=tuple(int(x) for x in s.get("dcg_bases", d.dcg_bases)),
            depth=int(s.get("depth", d.depth)),
            cutoffs=tuple(int(x) for x in s.get("cutoffs", d.cutoffs)),
            effort_ranks=tuple(int(x) for x in s.get("effort_ranks", d.effort_ranks)),
            ndcg_log2_cutoffs=tuple(int(x) for x in modern.get("cutoffs", d.ndcg_log2_cutoffs)),
            ndcg_log2_gains=tuple(modern.get("gains", d.ndcg_log2_gains)),
            missing_topics=s.get("missing_topics", d.missing_topics),
            significance_measures=(tuple(sig["measures"]) if sig.get("measures") else None),
            baseline_run=sig.get("baseline_run", d.baseline_run),
            correction=sig.get("correction", d.correction),
            randomisation_trials=int(sig.get("randomisation_trials", d.randomisation_trials)),
            bootstrap_resamples=int(boot.get("resamples", d.bootstrap_resamples)),
            confidence=float(boot.get("confidence", d.confidence)),
            seed=int(s.get("seed", d.seed)),
            standard_measures=tuple(standard or ()),
        )
        settings.check()
        return settings

    def check(self) -> None:
        """Settings that cannot work are a ValueError naming the key."""
        where = "config: evaluation"
        for level in self.levels:
            if level not in (1, 2, 3):
                raise ValueError(f"{where}.levels: {level} is not a relevance level 1-3")
        for reading in self.readings:
            if reading not in stratified.READINGS:
                raise ValueError(f"{where}.readings: {reading!r} not in {stratified.READINGS}")
        for name, levels in self.profiles.items():
            missing = [lv for lv in levels if lv not in self.gains]
            if missing or not levels:
                raise ValueError(f"{where}.profiles.{name}: levels {missing or '[]'} have no gain")
        if any(b < 2 for b in self.dcg_bases):
            raise ValueError(f"{where}.dcg_bases: every base must be >= 2")
        too_deep = [k for k in (*self.cutoffs, *self.effort_ranks) if not 1 <= k <= self.depth]
        if too_deep:
            raise ValueError(f"{where}: cutoffs/effort_ranks {too_deep} outside 1..depth "
                             f"({self.depth})")
        if self.missing_topics not in ("zero", "skip"):
            raise ValueError(f"{where}.missing_topics: 'zero' or 'skip', not "
                             f"{self.missing_topics!r}")
        for gain in self.ndcg_log2_gains:
            if gain not in cg.MODERN_GAINS:
                raise ValueError(f"{where}.ndcg_log2.gains: {gain!r} not in "
                                 f"{sorted(cg.MODERN_GAINS)}")
        significance.adjust(np.array([0.5]), self.correction)

    @property
    def kinds(self) -> list[tuple[str, int]]:
        """(kind, base) of the un-normalised curves: CG (base 0), then DCG per base."""
        return [("CG", 0)] + [("DCG", b) for b in self.dcg_bases]

    def default_significance_measures(self) -> tuple[str, ...]:
        return self.significance_measures or tuple(names.avp(lv) for lv in self.levels)


@dataclass
class RunResult:
    """One run's measures: per-topic values and averaged curves."""

    label: str
    per_topic: dict[str, np.ndarray]          # measure → (T,), NaN = undefined
    pr: list[tuple]                            # level, reading, recall, precision, topics
    pr_topics: dict[tuple[int, str], np.ndarray]  # (level, reading) → (topics, P) defined rows
    pr_topic_index: dict[tuple[int, str], np.ndarray]  # … and which topics those rows are
    gain: list[tuple]                          # profile, kind, base, rank, value, ideal
    gain_topics: dict[tuple[str, str, int], np.ndarray]  # per-topic curves, defined rows
    effort: list[tuple]
    coverage: dict


def evaluate_run(label: str, run: RankedRun, judgements: Judgements, settings: Settings,
                 ) -> RunResult:
    """All of the paper's measures for one run (vectorised over topics and ranks)."""
    judged = judge(run, judgements)
    counted = judged.evaluated(settings.missing_topics)
    per_topic: dict[str, np.ndarray] = {}
    pr, pr_topics, pr_topic_index = [], {}, {}
    for level in settings.levels:
        for reading in settings.readings:
            avp = stratified.average_precision(judged, judgements, level, reading)
            per_topic[names.avp(level, reading)] = np.where(counted, avp, np.nan)
            ip = stratified.interpolated_precision(judged, judgements, level, reading,
                                                   settings.recall_points)
            defined = counted & ~np.isnan(ip[:, 0])
            pr_topics[(level, reading)] = ip[defined]
            pr_topic_index[(level, reading)] = np.flatnonzero(defined)
            means = ip[defined].mean(axis=0) if defined.any() else \
                np.full(len(settings.recall_points), np.nan)
            pr += [(level, reading, point, value, int(defined.sum()))
                   for point, value in zip(settings.recall_points, means)]
    gain, gain_topics, effort_rows = _cumulated_gain(judged, judgements, settings, counted,
                                                     per_topic)
    for gain_name in settings.ndcg_log2_gains:
        for cutoff in settings.ndcg_log2_cutoffs:
            values = cg.ndcg_log2(judged, judgements, cutoff, gain_name)
            per_topic[names.ndcg_log2(gain_name, cutoff)] = np.where(counted, values, np.nan)
    coverage = {"run": label, "evaluated_topics": judgements.n_topics,
                "ranked": int(judged.present.sum()),
                "missing_from_run": int((~judged.present).sum()),
                "missing_topics": settings.missing_topics,
                "ignored_not_in_qrels": len(judged.ignored_topics)}
    if coverage["missing_from_run"]:
        log.warning("run %s: %d evaluated topic(s) not in the run (%s): %s", label,
                    coverage["missing_from_run"], settings.missing_topics,
                    ", ".join(judgements.topics[~judged.present][:10]))
    if judged.ignored_topics:
        log.warning("run %s: %d topic(s) not in the qrels, ignored: %s", label,
                    len(judged.ignored_topics), ", ".join(judged.ignored_topics[:10]))
    return RunResult(label, per_topic, pr, pr_topics, pr_topic_index, gain, gain_topics,
                     effort_rows, coverage)


def _cumulated_gain(judged: JudgedRun, judgements: Judgements, settings: Settings,
                    counted: np.ndarray, per_topic: dict):
    depth = settings.depth
    ranks = np.arange(1, depth + 1)
    gain_rows, gain_topics, effort_rows = [], {}, []
    grades = judged.topk_grades(depth)
    for profile in cg.profiles_from(settings.profiles, settings.gains):
        table = profile.gain_by_grade
        actual_gains = table[grades][counted]
        ideal_gains = cg.ideal_vectors(judgements, table, depth)[counted]
        custom = settings.gains
        for kind, base in settings.kinds:
            actual = cg.curve(actual_gains, base)
            ideal = cg.curve(ideal_gains, base)
            norm = cg.normalised(actual, ideal)
            has_ideal = ideal[:, 0] > 0 if len(ideal) else np.zeros(0, bool)
            norm_kind = "n" + kind
            mean_actual = actual.mean(axis=0) if len(actual) else np.full(depth, np.nan)
            mean_ideal = ideal.mean(axis=0) if len(ideal) else np.full(depth, np.nan)
            mean_norm = norm[has_ideal].mean(axis=0) if has_ideal.any() else \
                np.full(depth, np.nan)
            gain_rows += [(profile.name, kind, base, int(r), v, i)
                          for r, v, i in zip(ranks, mean_actual, mean_ideal)]
            gain_rows += [(profile.name, norm_kind, base, int(r), v, 1.0)
                          for r, v in zip(ranks, mean_norm)]
            gain_topics[(profile.name, kind, base)] = actual
            gain_topics[(profile.name, norm_kind, base)] = norm[has_ideal]
            for cutoff in settings.cutoffs:
                for k_name, matrix in ((kind, actual), (norm_kind, norm)):
                    full = np.full(judgements.n_topics, np.nan)
                    full[counted] = matrix[:, cutoff - 1]
                    per_topic[names.cumulated_gain(k_name, profile.name, base, cutoff,
                                                   custom)] = full
            for k in settings.effort_ranks:
                target = float(mean_ideal[k - 1])
                reached = effort.rank_reached(mean_actual, target) if target > 0 else None
                effort_rows.append((profile.name, kind, base, k, target, reached,
                                    reached is not None))
    return gain_rows, gain_topics, effort_rows


def evaluate(runs: Mapping[str, RankedRun], judgements: Judgements,
             settings: Settings) -> dict[str, pd.DataFrame]:
    """Every table of the contract for a set of runs (label → ranked run)."""
    results = [evaluate_run(label, run, judgements, settings) for label, run in runs.items()]
    if settings.standard_measures:
        _add_standard_measures(results, runs, judgements, settings)
    tables = tidy_tables(results, judgements)
    tables.update(significance_tables(results, judgements, settings))
    tables["bootstrap_ci"] = bootstrap_table(results, settings)
    return tables


def _add_standard_measures(results, runs, judgements, settings) -> None:
    qrels = judgements.qrels
    for result, run in zip(results, runs.values()):
        frame = run.to_frame()
        values = standard_measures.per_topic(qrels, frame, list(judgements.topics),
                                             list(settings.standard_measures))
        counted = np.ones(judgements.n_topics, bool) if settings.missing_topics == "zero" \
            else pd.Index(judgements.topics).isin(pd.unique(frame["qid"]))
        for name in settings.standard_measures:
            column = values[values["measure"] == name].set_index("qid")["value"]
            vector = column.reindex(judgements.topics).to_numpy(dtype=np.float64)
            result.per_topic[name] = np.where(counted, vector, np.nan)


def tidy_tables(results: list[RunResult], judgements: Judgements) -> dict[str, pd.DataFrame]:
    """per_topic, means, pr_curves, gain_curves, effort and coverage tables."""
    topics = judgements.topics
    per_topic, means = [], []
    for result in results:
        measures = list(result.per_topic)
        matrix = np.vstack([result.per_topic[m] for m in measures]).T  # (T, M)
        defined = ~np.isnan(matrix)
        t_idx, m_idx = np.nonzero(defined)  # row-major: topic by topic, measures in order
        per_topic.append(pd.DataFrame({"run": result.label, "qid": topics[t_idx],
                                       "measure": np.asarray(measures, dtype=object)[m_idx],
                                       "value": matrix[t_idx, m_idx]}))
        counts = defined.sum(axis=0)
        with np.errstate(invalid="ignore"):
            mean = np.where(counts > 0, np.nansum(matrix, axis=0) / np.maximum(counts, 1),
                            np.nan)
        means.append(pd.DataFrame({"run": result.label, "measure": measures, "mean": mean,
                                   "topics": counts.astype(np.int64)}))
    pr = pd.DataFrame([(r.label, *row) for r in results for row in r.pr],
                      columns=["run", "level", "reading", "recall", "precision", "topics"])
    gain = pd.DataFrame([(r.label, *row) for r in results for row in r.gain],
                        columns=["run", "profile", "kind", "base", "rank", "value", "ideal"])
    eff = pd.DataFrame([(r.label, *row) for r in results for row in r.effort],
                       columns=["run", "profile", "kind", "base", "k", "ideal_at_k",
                                "rank_reached", "reached"])
    eff["rank_reached"] = eff["rank_reached"].astype("Int64")
    coverage = pd.DataFrame([r.coverage for r in results])
    return {"per_topic": pd.concat(per_topic, ignore_index=True) if per_topic else
            pd.DataFrame(columns=["run", "qid", "measure", "value"]),
            "means": pd.concat(means, ignore_index=True) if means else
            pd.DataFrame(columns=["run", "measure", "mean", "topics"]),
            "pr_curves": pr, "pr_per_topic": pr_per_topic_table(results, judgements),
            "gain_curves": gain, "effort": eff, "coverage": coverage}


def pr_per_topic_table(results: list[RunResult], judgements: Judgements) -> pd.DataFrame:
    """Interpolated precision per topic, level, reading and recall point (defined topics)."""
    frames = []
    for r in results:
        for (level, reading), matrix in r.pr_topics.items():
            if not len(matrix):
                continue
            n_topics, n_points = matrix.shape
            # every (level, reading) uses the same recall points: read them off the curve rows
            points = np.asarray([row[2] for row in r.pr[:n_points]], dtype=np.float64)
            frames.append(pd.DataFrame({
                "run": r.label,
                "qid": np.repeat(judgements.topics[r.pr_topic_index[(level, reading)]],
                                 n_points),
                "level": level, "reading": reading,
                "recall": np.tile(points, n_topics), "precision": matrix.reshape(-1)}))
    columns = ["run", "qid", "level", "reading", "recall", "precision"]
    return pd.concat(frames, ignore_index=True)[columns] if frames else \
        pd.DataFrame(columns=columns)


def _paired(results: list[RunResult], measure: str) -> np.ndarray:
    """``(topics, runs)`` values of ``measure`` over the topics where every run has one."""
    matrix = np.vstack([r.per_topic[measure] for r in results]).T
    return matrix[~np.isnan(matrix).any(axis=1)]


def significance_tables(results: list[RunResult], judgements: Judgements,
                        settings: Settings) -> dict[str, pd.DataFrame]:
    measures = [m for m in settings.default_significance_measures()
                if results and m in results[0].per_topic]
    unknown = [m for m in settings.default_significance_measures()
               if results and m not in results[0].per_topic]
    if unknown:
        raise ValueError(f"config: evaluation.significance.measures: not computed: {unknown}")
    labels = [r.label for r in results]
    friedman_rows, posthoc_rows, baseline_rows = [], [], []
    for measure in measures:
        values = _paired(results, measure)
        outcome = significance.friedman(values)
        if outcome is not None:
            test, df = outcome
            friedman_rows.append((measure, len(labels), len(values), test.statistic, df,
                                  test.p_value))
        pairs = list(combinations(range(len(labels)), 2)) if len(labels) >= 2 else []
        tests = [significance.wilcoxon(values[:, a], values[:, b]) for a, b in pairs]
        adjusted = significance.adjust(np.array([t.p_value for t in tests]),
                                       settings.correction)
        for (a, b), test, p_adj in zip(pairs, tests, adjusted):
            posthoc_rows.append((measure, labels[a], labels[b], len(values),
                                 values[:, a].mean(), values[:, b].mean(),
                                 test.statistic, test.p_value, p_adj, settings.correction))
        base = settings.baseline_run
        if base in labels and len(labels) > 1:
            b = labels.index(base)
            others = [i for i in range(len(labels)) if i != b]
            t_tests = [significance.paired_t(values[:, i], values[:, b]) for i in others]
            r_tests = [significance.randomisation(values[:, i], values[:, b],
                                                  settings.randomisation_trials, settings.seed)
                       for i in others]
            t_adj = significance.adjust(np.nan_to_num(np.array([t.p_value for t in t_tests]),
                                                      nan=1.0), settings.correction)
            r_adj = significance.adjust(np.array([t.p_value for t in r_tests]),
                                        settings.correction)
            for j, i in enumerate(others):
                baseline_rows.append((measure, labels[i], base, len(values),
                                      values[:, i].mean(), values[:, b].mean(),
                                      values[:, i].mean() - values[:, b].mean(),
                                      t_tests[j].statistic, t_tests[j].p_value, t_adj[j],
                                      r_tests[j].p_value, r_adj[j],
                                      settings.randomisation_trials, settings.correction))
    if settings.baseline_run not in labels:
        log.info("baseline run %r not among the runs %s: no tests against a baseline",
                 settings.baseline_run, labels)
    return {
        "significance_friedman": pd.DataFrame(
            friedman_rows, columns=["measure", "runs", "topics", "statistic", "df", "p_value"]),
        "significance_posthoc": pd.DataFrame(
            posthoc_rows, columns=["measure", "run_a", "run_b", "topics", "mean_a", "mean_b",
                                   "statistic", "p_value", "p_adjusted", "correction"]),
        "significance_vs_baseline": pd.DataFrame(
            baseline_rows, columns=["measure", "run", "baseline", "topics", "mean_run",
                                    "mean_baseline", "difference", "t_statistic", "t_p_value",
                                    "t_p_adjusted", "randomisation_p_value",
                                    "randomisation_p_adjusted", "trials", "correction"]),
    }


def bootstrap_table(results: list[RunResult], settings: Settings) -> pd.DataFrame:
    """Bootstrap CIs: means of the significance measures; averaged P–R and gain curves."""
    rows = []
    boot = dict(resamples=settings.bootstrap_resamples, confidence=settings.confidence,
                seed=settings.seed)

    def add(label, measure, at, values):
        mean, low, high = significance.bootstrap_ci(values, **boot)
        for point, m, lo, hi in zip(at, mean, low, high):
            rows.append((label, measure, point, m, lo, hi, settings.confidence,
                         settings.bootstrap_resamples, len(values)))

    for r in results:
        for measure in settings.default_significance_measures():
            values = r.per_topic[measure]
            add(r.label, measure, [""], values[~np.isnan(values)])
        for (level, reading), matrix in r.pr_topics.items():
            name = "iPrec" + names.avp(level, reading)[3:]
            add(r.label, name, [f"{p:g}" for p in settings.recall_points], matrix)
        for (profile, kind, base), matrix in r.gain_topics.items():
            name = names.cumulated_gain(kind, profile, base, None, settings.gains)
            add(r.label, name, [str(i) for i in range(1, settings.depth + 1)], matrix)
    return pd.DataFrame(rows, columns=["run", "measure", "at", "mean", "low", "high",
                                       "confidence", "resamples", "topics"])


SIGNIFICANCE_TABLES = ("significance_friedman", "significance_posthoc",
                       "significance_vs_baseline")


def write_tables(tables: Mapping[str, pd.DataFrame], out_dir: str | Path) -> list[Path]:
    """Write every table as ``<name>.tsv`` (deterministic float format)."""
    out_dir = Path(out_dir)
    written = []
    for name in TABLES:
        path = out_dir / f"{name}.tsv"
        fmt = "%.6g" if name in SIGNIFICANCE_TABLES else "%.6f"
        write_tsv(tables[name], path, float_format=fmt)
        written.append(path)
    return written


def read_runs(paths: Mapping[str, str | Path]) -> dict[str, RankedRun]:
    """Read and rank every run file (label → path), strictly (see :func:`runs.read_run`)."""
    from .runs import read_run

    return {label: read_run(path) for label, path in paths.items()}


def evaluate_files(run_paths: Mapping[str, str | Path], qrels: pd.DataFrame,
                   settings: Settings, out_dir: str | Path, topics: list[str] | None = None,
                   qrels_source: str = "<qrels>") -> dict[str, pd.DataFrame]:
    """Read runs, evaluate them against graded qrels, write every table and provenance.json.

    The one code path behind ``gradedrel evaluate`` and the workflow's evaluation rule.
    """
    from dataclasses import asdict

    from . import provenance
    from .io import write_text

    judgements = Judgements.from_qrels(qrels, topics, source=qrels_source)
    if judgements.n_topics == 0:
        raise ValueError(f"{qrels_source}: no topics to evaluate")
    tables = evaluate(read_runs(run_paths), judgements, settings)
    write_tables(tables, out_dir)
    record = provenance.record(
        "evaluate", {"evaluation": _plain(asdict(settings))},
        runs={label: {"path": str(path), "sha256": sha256_of(path)}
              for label, path in run_paths.items()},
        topics=judgements.n_topics)
    write_text(record, Path(out_dir) / "provenance.json")
    return tables


def _plain(value):
    """Settings as JSON-friendly values (tuples → lists, int keys → text)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


