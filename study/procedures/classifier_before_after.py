"""The classifier correction's record (Amendment 2, B2): before and after, from two results trees.

    python study/procedures/classifier_before_after.py BEFORE AFTER [--commits OLD NEW] > docs/classifier-correction.md

BEFORE and AFTER are the ``results`` folders of the main job with both testbeds before and
after the correction (MeSH's permuted entry terms as labels, Harman's S-stemmer, every sense of
a seed word). Writes Markdown: per collection and plan set whose keys were classified, the
keys per source class before and after and how many changed class; finding 2 (WSYN/e − SUM/u,
AvP(level=3), every model) of every plan set whose keys or plans the correction can move (the
derived and the automatic ones, and their parents for reference); and the decomposition of the
primary effect (Amendment 1, A4). Numbers are read from the two trees' own tables, nothing is
recomputed.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

CLASSES = ("request", "thesaurus", "other_concept", "own")
COLLECTIONS = ("cranfield", "nfcorpus")


def _read(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)


def _num(text: str, signed: bool = True) -> str:
    try:
        x = float(text)
    except ValueError:
        return text or "–"
    return f"{x:+.1f}" if signed else f"{x:.2f}"


def key_classes(before: Path, after: Path, derived: set[str]) -> list[str]:
    """Keys per class, before → after, and the keys that changed class, per plan set that is
    not derived (an automatic plan set's plans are made again: its keys are counted only)."""
    lines = ["## Source classes of the keys, before → after", "",
             "Curated plan sets keep their keys, so each key's class is compared; the automatic "
             "plans are made again by the corrected analysis, so only their counts are.", "",
             "| collection | plan set | keys | " + " | ".join(CLASSES) +
             " | changed class | of which into thesaurus | out of thesaurus |",
             "|---|---|---|" + "---:|" * len(CLASSES) + "---:|---:|---:|"]
    for c in COLLECTIONS:
        for folder in sorted((after / c / "plans").glob("*/key_sources.tsv")):
            plan_set = folder.parent.name
            old_path = before / c / "plans" / plan_set / "key_sources.tsv"
            if plan_set in derived or not old_path.exists():
                continue
            old, new = _read(old_path), _read(folder)
            keys = ["qid", "facet_no", "concept_no", "list", "key_no"]
            joined = old.merge(new, on=keys + ["key"], suffixes=("_b", "_a"))
            counts = [f"{(old['source_class'] == k).sum()} → {(new['source_class'] == k).sum()}"
                      for k in CLASSES]
            if len(joined) == len(old) == len(new):
                moved = joined[joined["source_class_b"] != joined["source_class_a"]]
                changed = [str(len(moved)), str(int((moved["source_class_a"] == "thesaurus").sum())),
                           str(int((moved["source_class_b"] == "thesaurus").sum()))]
            else:
                changed = ["plans made again", "–", "–"]
            lines.append(f"| {c} | {plan_set} | {len(old)} → {len(new)} | " + " | ".join(counts)
                         + " | " + " | ".join(changed) + " |")
    return lines


def finding_two(before: Path, after: Path) -> list[str]:
    """Finding 2 of every plan set of the summaries, before → after (every model)."""
    lines = ["## Finding 2 (WSYN/e − SUM/u, AvP at level 3, points), before → after", "",
             "Every plan set and model of both summaries; rows the correction left exactly as "
             "they were are marked *same*.", "",
             "| collection | plan set | model | before | after | verdict before | verdict after | |",
             "|---|---|---|---|---|---|---|---|"]
    for c in COLLECTIONS:
        old = _read(before / c / "report" / "summary.tsv")
        new = _read(after / c / "report" / "summary.tsv")
        old, new = old[old["finding"] == "2"], new[new["finding"] == "2"]
        joined = old.merge(new, on=["plan_set", "model"], suffixes=("_b", "_a"))
        for r in joined.itertuples(index=False):
            same = (r.effect_b, r.low_b, r.high_b, r.verdict_b) == \
                (r.effect_a, r.low_a, r.high_a, r.verdict_a)
            cell = lambda e, lo, hi: f"{_num(e)} [{_num(lo)}, {_num(hi)}]"
            lines.append(f"| {c} | {r.plan_set} | {r.model} | {cell(r.effect_b, r.low_b, r.high_b)} "
                         f"| {cell(r.effect_a, r.low_a, r.high_a)} | {r.verdict_b} | {r.verdict_a} "
                         f"| {'same' if same else ''} |")
    return lines


def decomposition(before: Path, after: Path) -> list[str]:
    """The decomposition of the primary effect (A4), before → after."""
    lines = ["## Decomposition of the primary effect (Amendment 1, A4), before → after", "",
             "| collection | term | before | after |", "|---|---|---|---|"]
    for c in COLLECTIONS:
        old = _read(before / c / "report" / "key_sources.tsv")
        new = _read(after / c / "report" / "key_sources.tsv")
        for (o, n) in zip(old.itertuples(index=False), new.itertuples(index=False)):
            cell = lambda r: f"{_num(r.mean)} [{_num(r.low)}, {_num(r.high)}]"
            lines.append(f"| {c} | {n.term} | {cell(o)} | {cell(n)} |")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--commits", nargs=2, metavar=("OLD", "NEW"), default=("?", "?"))
    parser.add_argument("--configfile", nargs="+",
                        default=["config/config.yaml", "config/nfcorpus/testbed.yaml"])
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from gradedrel.integrity.claims import derived_plan_sets, load_config

    derived = set(derived_plan_sets(load_config(args.configfile)))
    lines = ["# The key classifier, corrected: before and after (Amendment 2, B2)", "",
             "Generated by `study/procedures/classifier_before_after.py` from the main job with both "
             f"testbeds at {args.commits[0]} (before) and {args.commits[1]} (after: MeSH's "
             "permuted entry terms are labels, Harman's S-stemmer exactly, every sense of a "
             "seed word seeds). The correction moves keys between source classes, hence the "
             "derived plan sets; through the S-stemmer and MeSH's labels it also moves the "
             "automatic analysis, hence the automatic plan sets. Nothing below was chosen by "
             "these numbers (docs/preregistration-nfcorpus.md, Amendment 2, B2).", ""]
    lines += key_classes(args.before, args.after, derived) + [""]
    for part in (finding_two, decomposition):
        lines += part(args.before, args.after) + [""]
    lines += ["A hand-checked sample of the corrected classes: docs/classifier-check.md.", ""]
    sys.stdout.write("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
