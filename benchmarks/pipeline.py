"""Whole-pipeline benchmark (issue 23): the main jobs against one plain PyTerrier script on
the same grid, side by side in one invocation, CPU and wall time.

    IR_DATASETS_HOME=... .venv/bin/python benchmarks/pipeline.py [--cores 2] [--out FILE]

In a fresh copy of the committed tree (``git archive HEAD``; the local data copies of
``.data/`` copied in; no results/, figures/ or .snakemake/), one after another:

1. the cold Cranfield main job (``snakemake --cores 2``, as ``make reproduce`` runs it);
2. a no-op re-run;
3. a figure-style edit (``report.figures.font_size`` 8 -> 9, in an extra config file);
4. a judgement edit that changes no topic's selection (Cranfield's grade map: code -1,
   judged not relevant, from level 0 to 1; no request's level-3 documents change, which
   the selection reads, and every evaluated level keeps its labels): the jobs it runs are
   listed; they must re-make the judgements and none may be a retrieval. (Until
   2026-12-01 the edit moved code 4 from level 1 to 0, which leaves level 1 without any
   label: the workflow now refuses such a map before any job.);
5. the NFCorpus addition (``make reproduce-nfcorpus``'s Snakemake command);
6. the peer, ``benchmarks/plain_pyterrier.py``, once on Cranfield's grid and once on
   NFCorpus's (every plan set's query files × the grid's Terrier models, pt.Experiment).

CPU time is the children's user + system time (``getrusage(RUSAGE_CHILDREN)`` around each
command: Snakemake and every job it waited for). Prints a Markdown table for
benchmarks/README.md and writes the figures as JSON (``--out``).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NFCORPUS = ["--configfile", "config/config.yaml", "config/nfcorpus/testbed.yaml"]


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(cmd, cwd, env) -> dict:
    cpu, start = children_cpu(), time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"failed ({done.returncode}): {' '.join(map(str, cmd))}\n"
                         f"{done.stderr[-3000:]}")
    jobs = re.findall(r"^\s*(?:local)?rule (\w+):", done.stdout + done.stderr, flags=re.M)
    out = {"wall": round(wall, 2), "cpu": round(children_cpu() - cpu, 2), "jobs": len(jobs),
           "rules": sorted(set(jobs))}
    last = (done.stdout.strip().splitlines() or [""])[-1]
    if last.startswith("{"):
        out["peer"] = json.loads(last)
    return out


def fresh_tree(tmp: Path) -> Path:
    tree = tmp / "tree"
    tree.mkdir()
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    if (ROOT / ".data").is_dir():  # local copies of the downloads, as CI seeds them
        subprocess.run(["cp", "-r", str(ROOT / ".data"), str(tree / ".data")], check=True)
    return tree


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--keep", type=Path, default=None,
                        help="copy the fresh tree's results/ and figures/ here at the end (both "
                             "main jobs of the committed configuration)")
    args = parser.parse_args()
    python = sys.executable
    snakemake = [python, "-m", "snakemake", "--cores", str(args.cores), "--nocolor"]
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        tree = fresh_tree(Path(tmp))
        env = dict(os.environ, PYTHONPATH=str(tree))
        (tree / "style.yaml").write_text("report:\n  figures:\n    font_size: 9\n")
        (tree / "grades.yaml").write_text(
            "collections:\n  cranfield:\n    grade_map: {\"1\": 3, \"2\": 3, \"3\": 2, "
            "\"4\": 1, \"-1\": 1}\n")
        steps = [
            ("cold Cranfield main job", snakemake),
            ("no-op re-run", snakemake),
            ("figure-style edit (font size)", snakemake + ["--configfile", "config/config.yaml",
                                                          "style.yaml"]),
            ("judgement edit (grade map), no selection change",
             snakemake + ["--configfile", "config/config.yaml", "style.yaml", "grades.yaml"]),
        ]
        for name, cmd in steps:
            before = load()
            rows[name] = timed(cmd, tree, env) | {"load": f"{before} -> {load()}"}
            print(f"{name}: {rows[name]}", file=sys.stderr)
        # back to the committed configuration for the NFCorpus addition and the peer
        subprocess.run(snakemake + ["--quiet"], cwd=tree, env=env, check=True,
                       capture_output=True)
        before = load()
        rows["NFCorpus addition"] = timed(snakemake + NFCORPUS, tree, env) | {
            "load": f"{before} -> {load()}"}
        for name, collections in (("plain PyTerrier, Cranfield grid", ["cranfield"]),
                                  ("plain PyTerrier, NFCorpus grid", ["nfcorpus"])):
            before = load()
            rows[name] = timed([python, str(tree / "benchmarks" / "plain_pyterrier.py"),
                                "--results", "results", "--collections", *collections,
                                "--configfile", "config/config.yaml"], tree, env) | {
                "load": f"{before} -> {load()}"}
            print(f"{name}: {rows[name]}", file=sys.stderr)
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            for part in ("results", "figures"):
                subprocess.run(["cp", "-a", str(tree / part), str(args.keep / part)], check=True)
    text = render(rows, cranfield_cells())
    print(text, end="")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(rows, indent=1) + "\n")
        args.out.with_suffix(".md").write_text(text, encoding="utf-8")


#: Issue 23's targets, each a (what, measured value of the rows, bound, unit) check.
TARGETS = (
    ("cold Cranfield main job, CPU / peer", lambda r, t: t["cranfield cpu"], 2.0, "×"),
    ("cold Cranfield main job, wall / peer", lambda r, t: t["cranfield wall"], 2.0, "×"),
    ("both main jobs, CPU / peer", lambda r, t: t["both cpu"], 2.5, "×"),
    ("no-op re-run, wall", lambda r, t: r["no-op re-run"]["wall"], 2.0, " s"),
    ("figure-style edit, CPU",
     lambda r, t: r["figure-style edit (font size)"]["cpu"], 30.0, " s"),
    ("cold Cranfield jobs per plan-set × model cell",
     lambda r, t: r["cold Cranfield main job"]["jobs"] / t["cells"], 14.0, ""),
)


def render(rows: dict, cells: int) -> str:
    """The Markdown table of a measurement (``pipeline.json``'s rows) and the targets of
    issue 23 against it, as benchmarks/README.md shows them (tests/test_benchmark_numbers.py
    checks that it does). ``cells``: Cranfield's plan-set × model cells."""
    peer_c = rows["plain PyTerrier, Cranfield grid"]
    peer_n = rows["plain PyTerrier, NFCorpus grid"]
    both = {"cpu": rows["cold Cranfield main job"]["cpu"] + rows["NFCorpus addition"]["cpu"],
            "wall": rows["cold Cranfield main job"]["wall"] + rows["NFCorpus addition"]["wall"],
            "jobs": rows["cold Cranfield main job"]["jobs"] + rows["NFCorpus addition"]["jobs"]}
    peers = {"cpu": peer_c["cpu"] + peer_n["cpu"], "wall": peer_c["wall"] + peer_n["wall"]}
    lines = ["| job | jobs | CPU s | wall s | CPU / peer | wall / peer | load before -> after |",
             "|---|---:|---:|---:|---:|---:|---|"]
    for name, row in rows.items():
        peer = peer_n if name.startswith("NFCorpus") else peer_c
        jobs = row["jobs"] if not name.startswith("plain") else ""
        if name.startswith(("cold", "NFCorpus")):
            lines.append(f"| {name} | {jobs} | {row['cpu']:.1f} | {row['wall']:.1f} | "
                         f"{row['cpu'] / peer['cpu']:.2f} | {row['wall'] / peer['wall']:.2f} | "
                         f"{row['load']} |")
        else:
            lines.append(f"| {name} | {jobs} | {row['cpu']:.1f} | {row['wall']:.1f} | | | "
                         f"{row['load']} |")
    lines.append(f"| both main jobs | {both['jobs']} | {both['cpu']:.1f} | {both['wall']:.1f} | "
                 f"{both['cpu'] / peers['cpu']:.2f} | {both['wall'] / peers['wall']:.2f} | |")
    judged = rows["judgement edit (grade map), no selection change"]["rules"]
    retrieval = "retrieve" in judged or "baseline_run" in judged
    lines += ["", f"judgement edit ran: {', '.join(judged)}; a retrieval among them: "
              f"{retrieval}", "", "| target of issue 23 | measured | bound | met |",
              "|---|---:|---:|---|"]
    ratios = {"cranfield cpu": rows["cold Cranfield main job"]["cpu"] / peer_c["cpu"],
              "cranfield wall": rows["cold Cranfield main job"]["wall"] / peer_c["wall"],
              "both cpu": both["cpu"] / peers["cpu"], "cells": cells}
    for what, value, bound, unit in TARGETS:
        measured = value(rows, ratios)
        lines.append(f"| {what} | {measured:.2f}{unit} | ≤ {bound:g}{unit} | "
                     f"{'yes' if measured <= bound else '**no**'} |")
    judgements = "prepare_topics_qrels" in judged  # the edit reached the judgements
    done = ("judgements re-made" if judgements else "judgements not re-made") + (
        ", a retrieval" if retrieval else ", no retrieval")
    lines.append(f"| judgement edit without selection change: the judgements re-made, no "
                 f"retrieval job | {done} | – | "
                 f"{'yes' if judgements and not retrieval else '**no**'} |")
    return "\n".join(lines) + "\n"


def cranfield_cells(root: Path = ROOT) -> int:
    """The committed configuration's Cranfield plan-set × model cells (gradedrel.study)."""
    sys.path.insert(0, str(root))
    from gradedrel.core.config import layered
    from gradedrel.study import Study

    study = Study.from_config(layered([root / "config" / "config.yaml"]))
    return len([cell for cell in study.cells() if cell[0] == "cranfield"])

if __name__ == "__main__":
    main()
