"""Build probe v2's request list and batches (docs/memory-probe.md, "Probe v2").

    python study/procedures/make_probe_v2.py [--ir-datasets-home DIR]
    python study/procedures/make_probe_v2.py --show FRAMING SAMPLE BATCH   # one batch as a prober sees it

Texts: the 30 curated NFCorpus requests, the fresh pool (config/nfcorpus/fresh/pool.tsv: 151
video requests and 53 non-video pages), the placebos of config/probe/v2/placebos.tsv and the
142 Cranfield candidates (config/expert/candidates.txt). Writes config/probe/v2/requests.tsv
(probe_id, source, qid, pool, text; ids V001 … in the order of SHA-256 of
"probe2:{source}:{qid}") and config/probe/v2/batches.tsv (probe_id, framing, sample, batch:
per framing and sample the NutritionFacts-style texts ordered by SHA-256 of
"probe2:{framing}:{sample}:{probe id}" and dealt in turn into seven batches; Cranfield, sample
1, into four). Deterministic: the same inputs give the same files.
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "config/probe/v2"
FRAMINGS = ("page", "claim")
NF_SAMPLES, NF_BATCHES = 3, 7
CRANFIELD_SAMPLES, CRANFIELD_BATCHES = 1, 4


def _tsv(path: Path) -> dict[str, str]:
    with open(path, encoding="utf-8") as handle:
        return {row[0]: row[1] for row in csv.reader(handle, delimiter="\t") if row}


def _text(*parts: str) -> str:
    return " — ".join(" ".join(p.split()) for p in parts if p and p.strip())


def nfcorpus_texts(home: Path) -> list[tuple[str, str, str]]:
    """(qid, pool, text) of the curated requests and the fresh pool."""
    texts = {}
    for split in ("test", "dev"):
        base = home / "nfcorpus" / split
        titles, descs = _tsv(base / "video" / "queries.titles.tsv"), _tsv(base / "video" / "queries.desc.tsv")
        for qid in titles:
            texts[qid] = _text(titles[qid], descs.get(qid, ""))
        for qid, title in _tsv(base / "nontopic" / "queries.tsv").items():
            texts.setdefault(qid, _text(title))
    out = [(q, "curated", texts[q]) for q in (ROOT / "config/nfcorpus/requests.txt").read_text().split()]
    with open(ROOT / "config/nfcorpus/fresh/pool.tsv", encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            out.append((row["qid"], "fresh" if row["part"] == "video" else "extension",
                        texts[row["qid"]]))
    return out


def placebo_texts() -> list[tuple[str, str, str]]:
    with open(OUT / "placebos.tsv", encoding="utf-8") as handle:
        return [(r["placebo_id"], "placebo", _text(r["title"], r["description"]))
                for r in csv.DictReader(handle, delimiter="\t")]


def cranfield_texts() -> list[tuple[str, str, str]]:
    import ir_datasets  # IR_DATASETS_HOME must be set before the import

    wanted = (ROOT / "config/expert/candidates.txt").read_text().split()
    queries = {q.query_id: q.text for q in ir_datasets.load("cranfield").queries_iter()}
    return [(q, "candidate", " ".join(queries[q].split())) for q in wanted]


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def build(home: Path) -> tuple[list[tuple], list[tuple]]:
    groups = {"nfcorpus": nfcorpus_texts(home), "placebo": placebo_texts(),
              "cranfield": cranfield_texts()}
    rows = sorted(((s, q, pool, t) for s, items in groups.items() for q, pool, t in items),
                  key=lambda r: sha(f"probe2:{r[0]}:{r[1]}"))
    requests = [(f"V{i:03d}", *row) for i, row in enumerate(rows, start=1)]
    batches = []
    nf_style = [r[0] for r in requests if r[1] in ("nfcorpus", "placebo")]
    cranfield = [r[0] for r in requests if r[1] == "cranfield"]
    for ids, samples, n_batches, prefix in ((nf_style, NF_SAMPLES, NF_BATCHES, "N"),
                                            (cranfield, CRANFIELD_SAMPLES, CRANFIELD_BATCHES, "C")):
        for framing in FRAMINGS:
            for sample in range(1, samples + 1):
                order = sorted(ids, key=lambda p: sha(f"probe2:{framing}:{sample}:{p}"))
                batches += [(p, framing, sample, f"{prefix}{i % n_batches + 1}")
                            for i, p in enumerate(order)]
    return requests, batches


def show(framing: str, sample: int, batch: str) -> str:
    """The batch as the prober gets it: ``id: text`` lines in batch order."""
    with open(OUT / "requests.tsv", encoding="utf-8") as handle:
        texts = {r["probe_id"]: r["text"] for r in csv.DictReader(handle, delimiter="\t")}
    with open(OUT / "batches.tsv", encoding="utf-8") as handle:
        ids = [r["probe_id"] for r in csv.DictReader(handle, delimiter="\t")
               if r["framing"] == framing and int(r["sample"]) == sample and r["batch"] == batch]
    if not ids:
        raise SystemExit(f"no batch {framing} {sample} {batch}")
    return "".join(f"{p}: {texts[p]}\n" for p in ids)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ir-datasets-home", type=Path,
                        default=Path(os.environ.get("IR_DATASETS_HOME", "~/.ir_datasets")).expanduser())
    parser.add_argument("--show", nargs=3, metavar=("FRAMING", "SAMPLE", "BATCH"))
    args = parser.parse_args()
    if args.show:
        sys.stdout.write(show(args.show[0], int(args.show[1]), args.show[2]))
        return
    os.environ.setdefault("IR_DATASETS_HOME", str(args.ir_datasets_home))
    requests, batches = build(args.ir_datasets_home)
    with open(OUT / "requests.tsv", "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, delimiter="\t", lineterminator="\n")
        writer.writerow(["probe_id", "source", "qid", "pool", "text"])
        writer.writerows(requests)
    with open(OUT / "batches.tsv", "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, delimiter="\t", lineterminator="\n")
        writer.writerow(["probe_id", "framing", "sample", "batch"])
        writer.writerows(batches)
    kinds = sorted({(f, s, b) for _, f, s, b in batches})
    print(f"{len(requests)} texts, {len(batches)} answers asked in {len(kinds)} batches")


if __name__ == "__main__":
    main()
