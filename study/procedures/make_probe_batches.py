"""Build the memory probe's request list and batches (docs/memory-probe.md).

    python study/procedures/make_probe_batches.py [--ir-datasets-home DIR]

Reads the 30 NFCorpus expert requests (config/nfcorpus/requests.txt; title and description
from ir_datasets' nfcorpus/test/video files), the placebo requests
(config/probe/placebos.tsv) and the 30 Cranfield requests (config/expert/requests.tsv), and
writes config/probe/requests.tsv (probe_id, source, qid, text: probe ids in the order of
SHA-256 of "probe:{source}:{qid}") and config/probe/batches.tsv (probe_id, batch): the
NutritionFacts-style requests (real and placebo) dealt in turn into six batches, the Cranfield
ones into three, in probe-id order. Deterministic: the same inputs give the same files.
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NF_BATCHES, CRANFIELD_BATCHES = 6, 3


def _tsv(path: Path) -> dict[str, str]:
    with open(path, encoding="utf-8") as handle:
        return {row[0]: row[1] for row in csv.reader(handle, delimiter="\t") if row}


def nfcorpus_requests(home: Path) -> list[tuple[str, str]]:
    base = home / "nfcorpus" / "test" / "video"
    titles, descs = _tsv(base / "queries.titles.tsv"), _tsv(base / "queries.desc.tsv")
    qids = (ROOT / "config/nfcorpus/requests.txt").read_text(encoding="utf-8").split()
    return [(q, f"{titles[q]} — {descs[q]}") for q in qids]


def placebo_requests() -> list[tuple[str, str]]:
    with open(ROOT / "config/probe/placebos.tsv", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return [(r["placebo_id"], f"{r['title']} — {r['description']}") for r in rows]


def cranfield_requests() -> list[tuple[str, str]]:
    with open(ROOT / "config/expert/requests.tsv", encoding="utf-8") as handle:
        return [(r["qid"], r["request"]) for r in csv.DictReader(handle, delimiter="\t")]


def order(source: str, qid: str) -> str:
    return hashlib.sha256(f"probe:{source}:{qid}".encode()).hexdigest()


def build(home: Path) -> tuple[list[tuple], list[tuple]]:
    groups = {"nfcorpus": nfcorpus_requests(home), "placebo": placebo_requests(),
              "cranfield": cranfield_requests()}
    nf_style = sorted(((s, q, t) for s in ("nfcorpus", "placebo") for q, t in groups[s]),
                      key=lambda r: order(r[0], r[1]))
    cranfield = sorted((("cranfield", q, t) for q, t in groups["cranfield"]),
                       key=lambda r: order(r[0], r[1]))
    requests, batches = [], []
    for i, (source, qid, text) in enumerate(nf_style + cranfield, start=1):
        requests.append((f"PR{i:02d}", source, qid, " ".join(text.split())))
    for i, row in enumerate(requests[:len(nf_style)]):
        batches.append((row[0], f"N{i % NF_BATCHES + 1}"))
    for i, row in enumerate(requests[len(nf_style):]):
        batches.append((row[0], f"C{i % CRANFIELD_BATCHES + 1}"))
    return requests, batches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ir-datasets-home", type=Path,
                        default=Path(os.environ.get("IR_DATASETS_HOME", "~/.ir_datasets")).expanduser())
    args = parser.parse_args()
    requests, batches = build(args.ir_datasets_home)
    with open(ROOT / "config/probe/requests.tsv", "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, delimiter="\t", lineterminator="\n")
        writer.writerow(["probe_id", "source", "qid", "text"])
        writer.writerows(requests)
    with open(ROOT / "config/probe/batches.tsv", "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, delimiter="\t", lineterminator="\n")
        writer.writerow(["probe_id", "batch"])
        writer.writerows(batches)
    print(f"{len(requests)} requests in {len(set(b for _, b in batches))} batches")


if __name__ == "__main__":
    main()
