"""Measure each Snakemake job's wall time and peak memory, to size threads/resources.

Runs ``python -m snakemake ARGS...`` (give ``--cores 1`` so that jobs do not overlap),
samples the process tree every 0.1 s with psutil, and attributes every ``script:``
process (``.snakemake/scripts/tmpXXXX.<script>.py``) and its children to that script.
Writes one TSV row per job: script, wall seconds, peak RSS (MB, the job's process tree),
mean CPU use (cores). Usage:

    PYTHONPATH=. .venv/bin/python tools/slurm/measure_rules.py OUT.tsv -- \
        -s Snakefile --directory DIR --cores 1 [--configfile ...]
"""
from __future__ import annotations

import re
import subprocess
import sys
import time

import psutil

SCRIPT = re.compile(r"\.snakemake/scripts/tmp[^/.]+\.([A-Za-z0-9_]+)\.py$")


def tree_rss_cpu(proc: psutil.Process) -> tuple[int, float]:
    rss, cpu = 0, 0.0
    for p in [proc] + proc.children(recursive=True):
        try:
            rss += p.memory_info().rss
            times = p.cpu_times()
            cpu += times.user + times.system + times.children_user + times.children_system
        except psutil.Error:
            pass
    return rss, cpu


def main() -> int:
    out, rest = sys.argv[1], sys.argv[sys.argv.index("--") + 1:]
    snakemake = subprocess.Popen([sys.executable, "-m", "snakemake", *rest])
    top = psutil.Process(snakemake.pid)
    jobs: dict[int, dict] = {}  # pid -> {script, start, peak, cpu, last}
    while snakemake.poll() is None:
        now = time.monotonic()
        try:
            procs = top.children(recursive=True)
        except psutil.Error:
            procs = []
        seen = set()
        for p in procs:
            try:
                cmd = p.cmdline()
            except psutil.Error:
                continue
            match = next((SCRIPT.search(c) for c in cmd if SCRIPT.search(c)), None)
            if not match:
                continue
            seen.add(p.pid)
            job = jobs.setdefault(p.pid, {"script": match.group(1), "start": now, "peak": 0,
                                          "cpu": 0.0, "last": now, "done": False})
            rss, cpu = tree_rss_cpu(p)
            job["peak"], job["cpu"], job["last"] = max(job["peak"], rss), max(job["cpu"], cpu), now
        for pid, job in jobs.items():
            if pid not in seen:
                job["done"] = True
        time.sleep(0.1)
    with open(out, "w") as handle:
        handle.write("script\twall_s\tpeak_rss_mb\tcpu_cores\n")
        for job in jobs.values():
            wall = job["last"] - job["start"]
            handle.write(f"{job['script']}\t{wall:.1f}\t{job['peak'] / 2**20:.0f}\t"
                         f"{job['cpu'] / wall if wall > 0 else 0:.2f}\n")
    return snakemake.returncode


if __name__ == "__main__":
    sys.exit(main())
