"""Benchmark: reading the NASA Thesaurus with our streaming reader vs rdflib, and the cache.

Each measurement runs in a fresh Python process (so peak memory is that task's
own), the tasks interleaved round by round, so that both readers see the same
machine load. Reported per task: median wall time, median CPU time (user+sys
of the process), and peak resident memory (ru_maxrss) above the process's
resident size before the task; ratios are rdflib / ours.

    PYTHONPATH=. python benchmarks/thesaurus.py [--path FILE] [--rounds 3]

Prints a Markdown section for benchmarks/README.md.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT = Path(".data/thesauri/nasa/NASA_Thesaurus_Alpha_SKOS.xml.bz2")
TASKS = ("rdflib", "stream", "cache")


def _rss_mb() -> float:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def child(task: str, path: str, cache_file: str) -> dict:
    """Run one task in this (fresh) process and measure it."""
    import bz2
    import io

    import rdflib  # imported before measuring, for every task alike

    from gradedrel.thesaurus import cache, skos

    before = _rss_mb()
    wall, cpu = time.perf_counter(), time.process_time()
    if task == "rdflib":
        graph = rdflib.Graph()
        with bz2.open(path, "rb") if path.endswith(".bz2") else open(path, "rb") as handle:
            graph.parse(io.BytesIO(handle.read()), format="xml")
        result = {"triples": len(graph),
                  "concepts": len(set(graph.subjects(rdflib.RDF.type, rdflib.SKOS.Concept)))}
    elif task == "stream":
        thesaurus = skos.read_skos(path)
        result = {"concepts": len(thesaurus)}
    elif task == "cache":
        thesaurus = cache.read(cache_file)
        result = {"concepts": len(thesaurus)}
    else:
        raise ValueError(task)
    result.update(task=task, wall_s=time.perf_counter() - wall, cpu_s=time.process_time() - cpu,
                  peak_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 - before)
    return result


def measure(task: str, path: Path, cache_file: Path) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", task, "--path", str(path),
                          "--cache-file", str(cache_file)],
                         check=True, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH", ".")})
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--path", type=Path, default=DEFAULT)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--child", choices=TASKS, help=argparse.SUPPRESS)
    parser.add_argument("--cache-file", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, str(args.path), str(args.cache_file))))
        return

    from gradedrel.thesaurus import cache, skos
    with tempfile.TemporaryDirectory() as tmp:
        cache_file = Path(tmp) / f"nasa{cache.SUFFIX}"
        cache.write(cache_file, skos.read_skos(args.path), source_sha256=cache.sha256_of(args.path),
                    reader_version=skos.READER_VERSION)
        load_before = os.getloadavg()
        runs = {task: [] for task in TASKS}
        for _ in range(args.rounds):
            for task in TASKS:
                runs[task].append(measure(task, args.path, cache_file))
        load_after = os.getloadavg()
        cache_mb = cache_file.stat().st_size / 2**20

    def med(task, key):
        return statistics.median(r[key] for r in runs[task])

    concepts = {task: {r["concepts"] for r in runs[task]} for task in TASKS}
    print("## Thesaurus\n")
    print(f"NASA Thesaurus `{args.path.name}` ({args.path.stat().st_size / 2**20:.1f} MiB bz2; "
          f"rdflib: {runs['rdflib'][0]['triples']:,} triples). "
          f"{args.rounds} rounds, tasks interleaved, each in a fresh process; medians. "
          f"Python {platform.python_version()}, {os.cpu_count()} CPUs, load average "
          f"{load_before[0]:.1f} before / {load_after[0]:.1f} after "
          "(the machine is shared: compare within a round, not across runs).\n")
    print("| task | wall s | CPU s | peak MB | concepts |")
    print("|---|---:|---:|---:|---:|")
    labels = {"rdflib": "rdflib `Graph.parse` (RDF/XML)",
              "stream": "streaming reader `skos.read_skos`",
              "cache": f"cached reload `cache.read` ({cache_mb:.1f} MiB gzip JSON)"}
    for task in TASKS:
        print(f"| {labels[task]} | {med(task, 'wall_s'):.2f} | {med(task, 'cpu_s'):.2f} | "
              f"{med(task, 'peak_mb'):.0f} | {', '.join(map(str, sorted(concepts[task])))} |")
    print()
    for task in ("stream", "cache"):
        print(f"- rdflib / {task}: wall {med('rdflib', 'wall_s') / med(task, 'wall_s'):.1f}x, "
              f"CPU {med('rdflib', 'cpu_s') / med(task, 'cpu_s'):.1f}x, "
              f"peak memory {med('rdflib', 'peak_mb') / max(med(task, 'peak_mb'), 1):.1f}x")
    per_round = [r["wall_s"] / s["wall_s"] for r, s in zip(runs["rdflib"], runs["stream"])]
    print(f"- rdflib / stream wall ratio per round: "
          f"{', '.join(f'{x:.1f}' for x in per_round)}")


if __name__ == "__main__":
    main()
