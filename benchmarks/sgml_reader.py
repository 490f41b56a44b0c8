"""Benchmark: the TREC SGML document reader (``readers.iter_docs_trec``) at 200 k and 1 M
documents — linear time and constant memory — against the obvious in-memory reader (the
whole file read as one string, ``<DOC>…</DOC>`` found with one regular expression), which
is what the reader did before issue 14 (it also re-scanned from the start: quadratic).

    PYTHONPATH=. .venv/bin/python benchmarks/sgml_reader.py --docs 200000 1000000

The documents are the synthetic Zipf documents of ``benchmarks/retrieval.py``
(``synthetic_documents``), written once per size as TREC SGML (``<DOC>``, ``<DOCNO>``,
``<TEXT>`` with ten words a line) under ``results/benchmarks/sgml/``. Each reading runs in
a fresh process, so that its peak memory (``VmHWM``) is its own; the two readers
alternate. Figures: seconds, documents per second, peak memory above the interpreter's,
and the ratios streaming / in-memory and 1M / 200k.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
WORK = ROOT / "results" / "benchmarks" / "sgml"


def write_sgml(docs: int) -> Path:
    path = WORK / f"zipf-{docs}.sgml"
    if path.exists():
        return path
    from retrieval import synthetic_documents

    WORK.mkdir(parents=True, exist_ok=True)
    documents, _, _ = synthetic_documents(docs)
    part = path.with_suffix(".part")
    with part.open("w", encoding="utf-8") as out:
        for document in documents:
            words = document["text"].split()
            lines = [" ".join(words[i:i + 10]) for i in range(0, len(words), 10)]
            out.write(f"<DOC>\n<DOCNO> {document['docno']} </DOCNO>\n<TEXT>\n"
                      + "\n".join(lines) + "\n</TEXT>\n</DOC>\n")
    part.rename(path)
    return path


def high_water_mb() -> float:
    """This process's peak resident size (``VmHWM``). Not ``ru_maxrss``: on Linux that
    survives ``exec`` and so starts at the parent's size when it forked."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM in /proc/self/status")


def read(path: str, reader: str) -> dict:
    """In this process: read every document; count, seconds, peak memory."""
    from gradedrel.collection import readers

    base = high_water_mb()
    started, cpu = time.perf_counter(), time.process_time()
    if reader == "streaming":
        count = sum(1 for _ in readers.iter_docs_trec(path))
    else:
        import re

        text = Path(path).read_text(encoding="utf-8")
        count = sum(1 for m in re.finditer(r"<DOC>(.*?)</DOC>", text, flags=re.S)
                    if readers._trec_document(path, 0, m.group(1)))
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    peak = high_water_mb()
    return {"reader": reader, "documents": count, "wall_s": seconds, "cpu_s": cpu,
            "docs_per_s": count / seconds, "peak_above_start_mb": peak - base}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, nargs="+", default=[200_000, 1_000_000])
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--read", nargs=2, metavar=("PATH", "READER"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.read:
        print(json.dumps(read(*args.read)))
        return
    records = []
    for docs in args.docs:
        path = write_sgml(docs)
        size_mb = path.stat().st_size / 2**20
        for _ in range(args.repeats):
            for reader in ("streaming", "in-memory"):
                done = subprocess.run([sys.executable, __file__, "--read", str(path), reader],
                                      capture_output=True, text=True, check=True,
                                      env={**os.environ, "PYTHONPATH": str(ROOT)})
                record = json.loads(done.stdout.strip().splitlines()[-1])
                record.update({"docs": docs, "file_mb": size_mb, "load": os.getloadavg()[0]})
                records.append(record)
                print(json.dumps(record), flush=True)
    print("\n| documents | file MB | reader | best wall s | CPU s | documents/s | peak MB above start |")
    print("|---:|---:|---|---:|---:|---:|---:|")
    best = {}
    for record in records:
        key = (record["docs"], record["reader"])
        if key not in best or record["wall_s"] < best[key]["wall_s"]:
            best[key] = record
    for (docs, reader), r in sorted(best.items()):
        print(f"| {docs:,} | {r['file_mb']:.0f} | {reader} | {r['wall_s']:.1f} | {r['cpu_s']:.1f} "
              f"| {r['docs_per_s']:,.0f} | {r['peak_above_start_mb']:.0f} |")
    sizes = sorted({d for d, _ in best})
    for docs in sizes:
        s, m = best[(docs, "streaming")], best[(docs, "in-memory")]
        print(f"\n{docs:,}: streaming / in-memory time {s['wall_s'] / m['wall_s']:.2f}, "
              f"peak memory {s['peak_above_start_mb']:.0f} MB against {m['peak_above_start_mb']:.0f} MB")
    if len(sizes) > 1:
        small, large = sizes[0], sizes[-1]
        for reader in ("streaming", "in-memory"):
            print(f"{reader}: time {large:,} / {small:,} documents = "
                  f"{best[(large, reader)]['wall_s'] / best[(small, reader)]['wall_s']:.2f} "
                  f"(linear: {large / small:.2f})")


if __name__ == "__main__":
    main()
