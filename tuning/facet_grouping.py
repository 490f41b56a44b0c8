"""Choose ``analysis.facet_grouping`` on the development split (docs/preregistration.md).

The pre-registered procedure: for each candidate value, run the automatic analysis, the six
query types and InQuery on the development requests (config/expert/dev_requests.txt: not
candidates, at least one highly relevant document, never reported), and pick the value with
the highest mean over the six query types of mean AvP(level=3), ties to the earlier value.

    python tuning/facet_grouping.py            # writes tuning/facet_grouping.tsv and .md

Each value runs in its own results directory under .tuning/ (ignored by git); the Terrier
index of the first is reused by the others (hard links), so only plans, queries, runs and
evaluation are recomputed.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import yaml

ROOT = Path(__file__).resolve().parent.parent
CANDIDATES = [["thesaurus"], ["thesaurus", "phrase"], []]
TYPES = ["SUM/u", "SUM/e", "SSYN-C/u", "SSYN-C/e", "WSYN/u", "WSYN/e"]


def name(value: list[str]) -> str:
    return "+".join(value) or "none"


def run(value: list[str], work: Path, index_from: Path | None) -> pd.DataFrame:
    results = work / name(value)
    (results).mkdir(parents=True, exist_ok=True)
    topics = work / "dev_requests.tsv"
    qids = (ROOT / "config" / "expert" / "dev_requests.txt").read_text().split()
    topics.write_text("qid\n" + "\n".join(qids) + "\n")
    overlay = {"results_dir": str(results), "analysis": {"facet_grouping": value},
               "retrieval": {"grid": ["InQuery"]},
               "collections": {"cranfield": {"plan_sets": {"dev": {
                   "topics": str(topics),
                   "description": "development split: automatic plans, never reported"}}}}}
    configfile = work / f"{name(value)}.yaml"
    configfile.write_text(yaml.safe_dump(overlay))
    if index_from is not None and not (results / "cranfield" / "index").exists():
        (results / "cranfield").mkdir(parents=True, exist_ok=True)
        for item in ("index", "index_arrays", "docnos.txt", "documents.json"):
            src = index_from / "cranfield" / item
            if src.is_dir():
                shutil.copytree(src, results / "cranfield" / item, copy_function=os.link)
            elif src.exists():
                os.link(src, results / "cranfield" / item)
    target = results / "cranfield" / "evaluation" / "dev" / "InQuery" / "per_topic.tsv"
    subprocess.run([sys.executable, "-m", "snakemake", str(target),
                    "--snakefile", str(ROOT / "Snakefile"), "--cores", "2",
                    "--configfile", str(ROOT / "config" / "config.yaml"), str(configfile),
                    "--rerun-triggers", "mtime", "--quiet", "rules"], check=True, cwd=ROOT)
    per_topic = pd.read_csv(target, sep="\t", dtype={"qid": str})
    level3 = per_topic[per_topic["measure"] == "AvP(level=3)"]
    means = level3.groupby("run")["value"].mean().reindex(TYPES)
    return pd.DataFrame({"facet_grouping": name(value), "query_type": TYPES,
                         "avp3": means.to_numpy(), "requests": level3["qid"].nunique()})


def main() -> int:
    work = ROOT / ".tuning" / "facet_grouping"
    work.mkdir(parents=True, exist_ok=True)
    frames, first = [], None
    for value in CANDIDATES:
        frames.append(run(value, work, first))
        first = first or work / name(value)
    table = pd.concat(frames)
    wide = table.pivot(index="facet_grouping", columns="query_type", values="avp3")[TYPES]
    wide = wide.reindex([name(v) for v in CANDIDATES])
    wide["mean of six"] = wide[TYPES].mean(axis=1)
    best = wide["mean of six"].idxmax()  # idxmax keeps the first of equal maxima
    out = ROOT / "tuning"
    (wide * 100).round(2).to_csv(out / "facet_grouping.tsv", sep="\t")
    lines = ["# facet_grouping chosen on the development split", "",
             f"Development requests: {int(table['requests'].iloc[0])} "
             "(config/expert/dev_requests.txt; never reported). InQuery, automatic plans, "
             "mean AvP(level=3) in points, exact reading. Rule (docs/preregistration.md): the "
             "highest mean over the six query types; ties to the earlier value.", "",
             "| facet_grouping | " + " | ".join(TYPES) + " | mean of six |",
             "|---|" + "---:|" * (len(TYPES) + 1)]
    for label, row in (wide * 100).iterrows():
        lines.append(f"| `{label}` | " + " | ".join(f"{row[t]:.2f}" for t in TYPES) +
                     f" | {row['mean of six']:.2f} |")
    lines += ["", f"Chosen: `{best}`."]
    (out / "facet_grouping.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
