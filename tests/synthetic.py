"""Synthetic evaluation outputs in the contract shapes (common brief), for tests and for a
throwaway end-to-end check of the report rules before the real evaluation is merged.

Rankings are simulated per topic and query type (relevant documents score higher, more
so for "stronger" types), then evaluated here with straightforward definitions (J&K 2000
stratified AvP, CG/DCG with the i < b clause, ideal vectors). This is test scaffolding,
not the project's evaluation.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from gradedrel.queries import query_types

QUERY_TYPES = list(query_types.LABELS)
STRENGTH = {"SUM/u": 1.0, "SUM/e": 0.85, "SSYN-C/u": 1.0, "SSYN-C/e": 1.6, "WSYN/u": 1.05,
            "WSYN/e": 1.7}
PROFILES = {"3": lambda g: np.where(g == 3, 3, 0), "2+3": lambda g: np.where(g >= 2, g, 0),
            "all": lambda g: g}
RECALL = np.round(np.linspace(0, 1, 11), 1)
CUTOFFS = (10, 50, 100)     # the evaluation's default per-topic cutoffs


def dcg(gains: np.ndarray, base: int) -> np.ndarray:
    """J&K 2000: DCG[i] = CG[i] for i < b, DCG[i-1] + G[i]/log_b(i) for i >= b."""
    out = np.empty(len(gains))
    total = 0.0
    for i, g in enumerate(gains, start=1):
        total += g if i < base else g / math.log(i, base)
        out[i - 1] = total
    return out


def simulate(n_topics=30, depth=100, seed=0, strength=STRENGTH):
    rng = np.random.default_rng(seed)
    topics = {}
    for t in range(1, n_topics + 1):
        counts = {3: int(rng.integers(0, 6)), 2: int(rng.integers(1, 8)),
                  1: int(rng.integers(0, 8))}
        grades = np.array([3] * counts[3] + [2] * counts[2] + [1] * counts[1] + [0] * 300)
        lists = {}
        for qt in QUERY_TYPES:
            boost = np.where(grades > 0, 1.3 * grades * strength[qt] ** (grades / 4), 0.0)
            score = boost + rng.normal(0, 1.6, len(grades))
            lists[qt] = grades[np.argsort(-score, kind="stable")][:depth]
        topics[str(t)] = (grades, lists)
    return topics


def avp(ranked: np.ndarray, grades: np.ndarray, level: int) -> float:
    relevant = ranked == level
    hits = np.cumsum(relevant)
    prec = hits / np.arange(1, len(ranked) + 1)
    return float(prec[relevant].sum() / (grades == level).sum())


def interpolated_pr(ranked, grades, level):
    relevant = ranked == level
    hits = np.cumsum(relevant)
    prec = hits / np.arange(1, len(ranked) + 1)
    rec = hits / (grades == level).sum()
    return np.array([prec[rec >= r].max() if (rec >= r).any() else 0.0 for r in RECALL])


def evaluate(topics, depth=100, seed=1):
    per_topic, pr, curves_topic = [], [], {}
    for qid, (grades, lists) in topics.items():
        for qt, ranked in lists.items():
            for level in (1, 2, 3):
                if (grades == level).any():
                    per_topic.append((qt, qid, f"AvP(level={level})", avp(ranked, grades, level)))
            ideal_all = np.sort(grades)[::-1][:depth]
            ndcg10 = dcg(ranked[:10].astype(float), 2)[-1] / dcg(ideal_all[:10].astype(float), 2)[-1]
            per_topic.append((qt, qid, "nDCG@10", float(ndcg10)))
            per_topic.append((qt, qid, "P@10", float((ranked[:10] > 0).mean())))
            for r in (1, 3):
                rel = ranked >= r
                prec = np.cumsum(rel) / np.arange(1, len(ranked) + 1)
                per_topic.append((qt, qid, f"AP(rel={r})",
                                  float(prec[rel].sum() / max(1, (grades >= r).sum()))))
            for name, profile in PROFILES.items():
                g = profile(ranked).astype(float)
                ideal = np.sort(profile(grades))[::-1][:depth].astype(float)
                vec = {("CG", 0): (np.cumsum(g), np.cumsum(ideal))}
                for b in (2, 10):
                    vec[("DCG", b)] = (dcg(g, b), dcg(ideal, b))
                for (kind, b), (v, iv) in list(vec.items()):
                    with np.errstate(invalid="ignore", divide="ignore"):
                        norm = np.where(iv > 0, v / np.where(iv > 0, iv, 1), 0.0)
                    vec[("n" + kind, b)] = (norm, np.where(iv > 0, 1.0, 0.0))
                for key, pair in vec.items():
                    curves_topic[(qt, name) + key + (qid,)] = pair
                    kind, b = key
                    params = f"b={b},profile={name!r}" if "DCG" in kind else f"profile={name!r}"
                    for cut in CUTOFFS:
                        per_topic.append((qt, qid, f"JK_{kind}({params})@{cut}",
                                          float(pair[0][cut - 1])))
        for level in (1, 2, 3):
            if (grades == level).any():
                for qt, ranked in lists.items():
                    pr.append((qt, level, interpolated_pr(ranked, grades, level)))
    per_topic = pd.DataFrame(per_topic, columns=["run", "qid", "measure", "value"])
    means = (per_topic.groupby(["run", "measure"], sort=False)["value"]
             .agg(mean="mean", topics="size").reset_index())
    pr_rows = []
    for (qt, level), group in pd.DataFrame(pr, columns=["run", "level", "p"]).groupby(
            ["run", "level"], sort=False):
        mean_p = np.mean(np.stack(group["p"].to_list()), axis=0)
        for reading in ("exact", "atleast"):
            for r, p in zip(RECALL, mean_p):
                pr_rows.append((qt, level, reading, r, p, len(group)))
    pr_curves = pd.DataFrame(pr_rows, columns=["run", "level", "reading", "recall", "precision",
                                               "topics"])
    gain_rows, stacks = [], {}
    for key, (v, iv) in curves_topic.items():
        stacks.setdefault(key[:-1], []).append((v, iv))
    for (qt, profile, kind, b), vs in stacks.items():
        v = np.mean([x for x, _ in vs], axis=0)
        iv = np.mean([y for _, y in vs], axis=0)
        for rank in range(1, depth + 1):
            gain_rows.append((qt, profile, kind, b, rank, v[rank - 1], iv[rank - 1]))
    gain_curves = pd.DataFrame(gain_rows, columns=["run", "profile", "kind", "base", "rank",
                                                   "value", "ideal"])
    effort_rows = []
    for (qt, profile, kind, b), vs in stacks.items():
        if kind.startswith("n"):
            continue
        v = np.mean([x for x, _ in vs], axis=0)
        iv = np.mean([y for _, y in vs], axis=0)
        target = iv[9]
        hit = np.nonzero(v >= target - 1e-12)[0]
        effort_rows.append((qt, profile, kind, b, 10, target,
                            int(hit[0] + 1) if len(hit) else None, bool(len(hit))))
    effort = pd.DataFrame(effort_rows, columns=["run", "profile", "kind", "base", "k",
                                                "ideal_at_k", "rank_reached", "reached"])
    effort["rank_reached"] = effort["rank_reached"].astype("Int64")
    # significance, in the evaluation's columns (docs/measures.md on the eval branch)
    fried, vs_base, post = [], [], []
    for level in (1, 2, 3):
        m = f"AvP(level={level})"
        wide = per_topic[per_topic["measure"] == m].pivot(index="qid", columns="run",
                                                          values="value")[QUERY_TYPES]
        s_, p = stats.friedmanchisquare(*wide.to_numpy().T)
        fried.append((m, len(QUERY_TYPES), len(wide), s_, len(QUERY_TYPES) - 1, p))
        for qt in QUERY_TYPES[1:]:
            t = stats.ttest_rel(wide[qt], wide["SUM/u"])
            w = float(stats.wilcoxon(wide[qt], wide["SUM/u"]).pvalue)
            vs_base.append((m, qt, "SUM/u", len(wide), wide[qt].mean(), wide["SUM/u"].mean(),
                            wide[qt].mean() - wide["SUM/u"].mean(), t.statistic, t.pvalue,
                            min(1, 5 * t.pvalue), w, min(1, 5 * w), 1000, "holm"))
        for i, a in enumerate(QUERY_TYPES):
            for bq in QUERY_TYPES[i + 1:]:
                r = stats.wilcoxon(wide[a], wide[bq])
                post.append((m, a, bq, len(wide), wide[a].mean(), wide[bq].mean(), r.statistic,
                             r.pvalue, min(1, 15 * r.pvalue), "holm"))
    recall_base = pd.DataFrame([(qid, int((g == 0).sum()), int((g == 1).sum()),
                                 int((g == 2).sum()), int((g == 3).sum()))
                                for qid, (g, _) in topics.items()],
                               columns=["qid", "n_0", "n_1", "n_2", "n_3"])
    rng2 = np.random.default_rng(seed + 1)
    statistics = pd.DataFrame(
        [(qid, qt, int(rng2.integers(1, 4)), int(rng2.integers(2, 6)),
          int(rng2.integers(3, 8)) * (3 if qt.endswith("/e") else 1))
         for qid in topics for qt in QUERY_TYPES],
        columns=["qid", "query_type", "facets", "concepts", "keys"])
    return {
        "per_topic": per_topic, "means": means, "pr_curves": pr_curves,
        "gain_curves": gain_curves, "effort": effort,
        "significance_friedman": pd.DataFrame(fried, columns=["measure", "runs", "topics",
                                                              "statistic", "df", "p_value"]),
        "significance_posthoc": pd.DataFrame(post, columns=[
            "measure", "run_a", "run_b", "topics", "mean_a", "mean_b", "statistic", "p_value",
            "p_adjusted", "correction"]),
        "significance_vs_baseline": pd.DataFrame(vs_base, columns=[
            "measure", "run", "baseline", "topics", "mean_run", "mean_baseline", "difference",
            "t_statistic", "t_p_value", "t_p_adjusted", "randomisation_p_value",
            "randomisation_p_adjusted", "trials", "correction"]),
        "recall_base": recall_base, "statistics": statistics,
    }


def write(frames: dict, results: Path, collection: str, model: str,
          all_qids: list[str] | None = None, planset: str = "auto") -> None:
    """Write the evaluation TSVs, query statistics and selected topics where the report
    rules read them for one plan set (the recall base comes from the real workflow)."""
    evaluation = Path(results, collection, "evaluation", planset, model)
    evaluation.mkdir(parents=True, exist_ok=True)
    targets = {name: evaluation / f"{name}.tsv" for name in frames
               if name not in ("recall_base", "statistics")}
    targets["statistics"] = Path(results, collection, "queries", planset, "statistics.tsv")
    for name, target in targets.items():
        target.parent.mkdir(parents=True, exist_ok=True)
        frames[name].to_csv(target, sep="\t", index=False, float_format="%.6f",
                            lineterminator="\n")
    used = set(frames["recall_base"]["qid"])
    qids = all_qids or sorted(used, key=int)
    plans = Path(results, collection, "plans", planset)
    plans.mkdir(parents=True, exist_ok=True)
    pd.DataFrame({"qid": qids, "selected": [q in used for q in qids],
                  "reason": ["" if q in used else "synthetic: not simulated" for q in qids]}
                 ).to_csv(plans / "selected_topics.tsv", sep="\t", index=False,
                          lineterminator="\n")


if __name__ == "__main__":   # throwaway e2e: python tests/synthetic.py RESULTS COLLECTION MODEL
    import sys
    results, c, model = sys.argv[1:4]
    topics = Path(results, c, "topics.tsv")
    qids = pd.read_csv(topics, sep="\t", dtype=str)["qid"].tolist() if topics.exists() else None
    write(evaluate(simulate()), Path(results), c, model, qids)


def write_runs(topics: dict, results: Path, collection: str, model: str,
               planset: str = "auto") -> None:
    """Run files, qrels and the plan set's topics for the simulated rankings, where the
    findings rule reads them. A topic's documents at level g are ``{t}-g{g}-{k}``; each
    ranked grade takes the next unused document of its level (so the gain vectors of the
    runs are the simulated ones)."""
    from gradedrel.queries.query_types import slug
    base = Path(results, collection)
    qrels = []
    for t, (grades, _) in topics.items():
        for g in (1, 2, 3):
            qrels += [(t, f"{t}-g{g}-{k}", g, g) for k in range(int((grades == g).sum()))]
    base.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(qrels, columns=["qid", "docno", "label", "grade"]).to_csv(
        base / "qrels.tsv", sep="\t", index=False, lineterminator="\n")
    runs = Path(base, "runs", planset, model)
    runs.mkdir(parents=True, exist_ok=True)
    for qt in QUERY_TYPES:
        lines = []
        for t, (_, lists) in topics.items():
            used = {0: 0, 1: 0, 2: 0, 3: 0}
            for rank, g in enumerate(lists[qt], start=1):
                docno = f"{t}-g{g}-{used[int(g)]}" if g else f"{t}-n-{used[0]}"
                used[int(g)] += 1
                lines.append(f"{t} Q0 {docno} {rank} {1000 - rank} synthetic")
        (runs / f"{slug(qt)}.run").write_text("\n".join(lines) + "\n")
    plans = Path(base, "plans", planset)
    plans.mkdir(parents=True, exist_ok=True)
    pd.DataFrame({"qid": list(topics), "query": [f"request {t}" for t in topics]}).to_csv(
        plans / "topics.tsv", sep="\t", index=False, lineterminator="\n")
