"""The primary comparison without requests named in advance (gradedrel.integrity.sensitivity).

    python tools/primary_sensitivity.py --collection nfcorpus --plan-set expert-mesh \
        --exclude PLAIN-3372 --reason "..." [--models InQuery BM25 DirichletLM] \
        --out docs/sensitivity/nfcorpus_expert-mesh

Reads each model's ``results/<collection>/evaluation/<plan set>/<model>/per_topic.tsv`` of a
finished main job and writes ``<out>.tsv`` and ``<out>.md`` (the pre-registered rules and
published values of config/published/jk2000.yaml).
"""
from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from gradedrel.core.io import read_tsv, write_text, write_tsv
from gradedrel.report import assessment, design, published
from gradedrel.integrity import sensitivity


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collection", required=True)
    parser.add_argument("--plan-set", required=True)
    parser.add_argument("--exclude", nargs="+", required=True)
    parser.add_argument("--reason", required=True)
    parser.add_argument("--models", nargs="+", default=["InQuery", "BM25", "DirichletLM"])
    parser.add_argument("--results", type=Path, default=Path("results"))
    parser.add_argument("--published", type=Path, default=Path("config/published/jk2000.yaml"))
    parser.add_argument("--design", type=Path, default=Path("config/design/jk2000.yaml"),
                        help="the study design (config/design/*.yaml) of the collection")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    paper = assessment.published_from(published.load(str(args.published)))
    study = design.load(args.design)
    tables = []
    for model in args.models:
        path = args.results / args.collection / "evaluation" / args.plan_set / model / "per_topic.tsv"
        table = sensitivity.primary_without(read_tsv(path), args.exclude, args.reason, paper,
                                            study)
        tables.append(table.assign(model=model))
    both = pd.concat(tables, ignore_index=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_tsv(both, f"{args.out}.tsv")
    text = "\n".join(sensitivity.markdown(t, f"{args.collection}, {args.plan_set} plans, {m}")
                     for t, m in zip(tables, args.models))
    write_text(text, f"{args.out}.md")
    print(text)


if __name__ == "__main__":
    main()
