"""Fix the fresh NFCorpus request pool of Amendment 2 (counts only, before any probe or plan).

    python study/procedures/draw_fresh_pool.py [--ir-datasets-home DIR]

The pool (docs/preregistration-nfcorpus.md, Amendment 2, B3): every *video* request of
``nfcorpus/test/video`` and ``nfcorpus/dev/video`` with at least one judged document at level
3 that is not among the 30 requests already curated (``config/nfcorpus/requests.txt``); the
extension pool: the *non-video* pages of ``nfcorpus/{test,dev}/nontopic`` with at least one
level-3 document (used only if the probe clears fewer than 50 fresh video requests). Every
request of those splits that is left out is written with its reason. Curators: the fresh
video requests dealt in the order of SHA-256 of ``"2030:{qid}"`` to twelve curators K … V in
turn; the extension pages (if they are used) in the order of ``"2031:{qid}"`` to the same
twelve. Only the *number* of level-3 judgements per request is read; nothing here prints a
judgement. Writes ``config/nfcorpus/fresh/{pool.tsv, exclusions.tsv, curation_batches.tsv}``.
"""
from __future__ import annotations

import argparse
import csv
import os
from collections import Counter
from pathlib import Path

from request_sample import deal

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "config/nfcorpus/fresh"
SPLITS = ("test", "dev")
CURATORS = list("KLMNOPQRSTUV")
VIDEO_SEED, EXTENSION_SEED = 2030, 2031


def _ids(path: Path) -> list[str]:
    with open(path, encoding="utf-8") as handle:
        return [row[0] for row in csv.reader(handle, delimiter="\t") if row]


def level3_counts(path: Path) -> Counter:
    """qid -> number of documents judged 3 (the data's own label 3 = level 3)."""
    counts: Counter = Counter()
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            qid, _, _, label = line.split()
            counts[qid] += label == "3"
    return counts


def build(home: Path) -> tuple[list[tuple], list[tuple]]:
    curated = set((ROOT / "config/nfcorpus/requests.txt").read_text().split())
    pool, excluded = [], []
    for split in SPLITS:
        base = home / "nfcorpus" / split
        n3 = level3_counts(base / "qrels")
        video = _ids(base / "video" / "queries.titles.tsv")
        for qid in video:
            if qid in curated:
                excluded.append((qid, split, "video", "curated before (expert-mesh, expert-wordnet)"))
            elif n3[qid] < 1:
                excluded.append((qid, split, "video", "no level-3 document"))
            else:
                pool.append((qid, split, "video", n3[qid]))
        for qid in _ids(base / "nontopic" / "queries.tsv"):
            if qid in video:
                continue   # the nontopic subset lists the video pages too
            if n3[qid] < 1:
                excluded.append((qid, split, "nontopic", "no level-3 document"))
            else:
                pool.append((qid, split, "extension", n3[qid]))
    return pool, excluded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ir-datasets-home", type=Path,
                        default=Path(os.environ.get("IR_DATASETS_HOME", "~/.ir_datasets")).expanduser())
    args = parser.parse_args()
    pool, excluded = build(args.ir_datasets_home)
    video = [q for q, _, part, _ in pool if part == "video"]
    extension = [q for q, _, part, _ in pool if part == "extension"]
    batches = {**deal(video, CURATORS, VIDEO_SEED), **deal(extension, CURATORS, EXTENSION_SEED)}
    OUT.mkdir(parents=True, exist_ok=True)
    with open(OUT / "pool.tsv", "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, delimiter="\t", lineterminator="\n")
        writer.writerow(["qid", "split", "part", "level3_documents"])
        writer.writerows(pool)
    with open(OUT / "exclusions.tsv", "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, delimiter="\t", lineterminator="\n")
        writer.writerow(["qid", "split", "subset", "reason"])
        writer.writerows(excluded)
    with open(OUT / "curation_batches.tsv", "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, delimiter="\t", lineterminator="\n")
        writer.writerow(["qid", "part", "curator"])
        writer.writerows((q, part, batches[q]) for q, _, part, _ in pool)
    by = Counter((s, p) for _, s, p, _ in pool)
    print(f"pool: {dict(by)}; excluded: {dict(Counter((s, r) for _, s, _, r in excluded))}; "
          f"curators: {dict(sorted(Counter(batches[q] for q in video).items()))}")


if __name__ == "__main__":
    main()
