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

Beside the cold Cranfield job and the NFCorpus addition, their **work without start-up**
(the floor of any job shape):
each job's CPU as its own log states it (from its start to its last line), less the CPU a
fresh interpreter of the same venv spends on that rule's start-up alone (Snakemake's
preamble, the script's own top-level imports, the JVM where the script starts one; the
least of three runs, measured after the peer). No job shape can bring the main job below
that work plus one start-up; :func:`render` sets it against the target's bound.
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
           "rules": sorted(set(jobs)), "output": done.stdout + done.stderr}
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


def job_logs(output: str) -> list[tuple[str, str]]:
    """(rule, log path) of each job in a Snakemake run's output."""
    jobs, rule = [], None
    for line in output.splitlines():
        m = re.match(r"^\s*(?:local)?rule (\w+):", line)
        if m:
            rule = m.group(1)
        m = re.match(r"^\s*log: (\S+)", line)
        if m and rule:
            jobs.append((rule, m.group(1)))
            rule = None
    return jobs


def logged_cpu(path: Path) -> float:
    """A job's CPU as its log's last line states it ("process CPU 8.3 s, since its start")."""
    found = re.findall(r"process CPU ([\d.]+) s", path.read_text(encoding="utf-8"))
    if not found:
        raise SystemExit(f"{path}: no 'process CPU ... s' line (did the job finish?)")
    return float(found[-1])


#: Prints each rule's script as JSON: Snakemake's own reading of the workflow.
RULE_SCRIPTS = """
import json, pathlib
from snakemake.api import SnakemakeApi
from snakemake.settings.types import OutputSettings, ResourceSettings
with SnakemakeApi(OutputSettings()) as api:
    wf = api.workflow(resource_settings=ResourceSettings(cores=1),
                      snakefile=pathlib.Path("Snakefile"), workdir=pathlib.Path("."))
    print(json.dumps({r.name: r.script for r in wf._workflow.rules if r.script}))
"""


def tree_json(tree: Path, env: dict, program: str):
    """What ``program`` prints as JSON on its last line, run by the tree's own code (never
    imported here: the tree is a temporary copy)."""
    done = subprocess.run([sys.executable, "-c", program], cwd=tree, env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def rule_scripts(tree: Path, env: dict) -> dict[str, str]:
    """Each rule's script, relative to the tree (``scripts/x.py``), as Snakemake reads the
    workflow (rules made in a loop or by ``use rule`` included)."""
    rules = tree_json(tree, env, RULE_SCRIPTS)
    rules_dir = tree / "workflow" / "rules"
    return {rule: str((rules_dir / script).resolve().relative_to(tree.resolve()))
            for rule, script in rules.items()}


def startup_program(script_text: str, terrier_pins: dict) -> str:
    """A program that does only what a job of ``script_text`` does before its work: the
    preamble's import, the script's top-level imports, and the JVM if it starts one."""
    import ast

    tree = ast.parse(script_text)
    imports = [ast.unparse(node) for node in tree.body
               if isinstance(node, (ast.Import, ast.ImportFrom))]
    lines = ["import pickle, snakemake.iocontainers", *imports]
    if "terrier.start(" in script_text:
        lines += ["from gradedrel.core import terrier",
                  f"terrier.start(**{terrier_pins!r})"]
    return "\n".join(lines) + "\n"


#: Prints the configuration's Terrier pins as JSON (read by the tree's own code).
TERRIER_PINS = """
import json
from gradedrel.core.config import layered
print(json.dumps({k: str(v) for k, v in layered(["config/config.yaml"])["terrier"].items()}))
"""


def startup_cpu(tree: Path, script: str, pins: dict, env: dict, runs: int = 3) -> float:
    """The least CPU of ``runs`` fresh interpreters doing ``script``'s start-up only."""
    program = startup_program((tree / script).read_text(encoding="utf-8"), pins)
    best = None
    for _ in range(runs):
        row = timed([sys.executable, "-c", program], tree, env)
        best = row["cpu"] if best is None else min(best, row["cpu"])
    return best


def job_work(tree: Path, jobs: list[tuple[str, str]], scripts: dict) -> dict[str, dict]:
    """Per rule that runs a script: its jobs and their logged CPU (the start-ups are added
    later). A ``run:`` rule's job (a thesaurus download) runs in Snakemake's own process."""
    out: dict[str, dict] = {}
    for rule, log in jobs:
        if rule not in scripts:
            continue
        row = out.setdefault(rule, {"jobs": 0, "logged": 0.0})
        row["jobs"] += 1
        row["logged"] = round(row["logged"] + logged_cpu(tree / log), 2)
    return out


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
        scripts, work = rule_scripts(tree, env), None
        for name, cmd in steps:
            before = load()
            rows[name] = timed(cmd, tree, env) | {"load": f"{before} -> {load()}"}
            output = rows[name].pop("output")
            if work is None:  # the cold job's logs, before any re-run rewrites them
                work = job_work(tree, job_logs(output), scripts)
            print(f"{name}: {rows[name]}", file=sys.stderr)
        # back to the committed configuration for the NFCorpus addition and the peer
        subprocess.run(snakemake + ["--quiet"], cwd=tree, env=env, check=True,
                       capture_output=True)
        before = load()
        rows["NFCorpus addition"] = timed(snakemake + NFCORPUS, tree, env) | {
            "load": f"{before} -> {load()}"}
        work_n = job_work(tree, job_logs(rows["NFCorpus addition"].pop("output")), scripts)
        for name, collections in (("plain PyTerrier, Cranfield grid", ["cranfield"]),
                                  ("plain PyTerrier, NFCorpus grid", ["nfcorpus"])):
            before = load()
            rows[name] = timed([python, str(tree / "benchmarks" / "plain_pyterrier.py"),
                                "--results", "results", "--collections", *collections,
                                "--configfile", "config/config.yaml"], tree, env) | {
                "load": f"{before} -> {load()}"}
            rows[name].pop("output")
            print(f"{name}: {rows[name]}", file=sys.stderr)
        pins = tree_json(tree, env, TERRIER_PINS)
        startups: dict[str, float] = {}  # per script, measured once for both main jobs
        for rule, row in [*work.items(), *work_n.items()]:
            script = scripts[rule]
            if script not in startups:
                startups[script] = startup_cpu(tree, script, pins, env)
            row["startup"] = startups[script]
        rows[FLOOR] = {"rules": work}
        rows[FLOOR_NFCORPUS] = {"rules": work_n}
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            for part in ("results", "figures"):
                subprocess.run(["cp", "-a", str(tree / part), str(args.keep / part)], check=True)
    rows[PLUGINS] = executor_plugins()
    if args.out:  # the measurement first: nothing after it may lose it
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(rows, indent=1) + "\n")
    text = render(rows, cranfield_cells())
    print(text, end="")
    if args.out:
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


def render(rows: dict, cells: int, tables: bool = True) -> str:
    """The Markdown table of a measurement (``pipeline.json``'s rows) and the targets of
    issue 23 against it: whole in benchmarks/measured/pipeline.md, without the per-rule work
    tables (``tables=False``) in benchmarks/README.md (tests/test_benchmark_numbers.py
    checks both). ``cells``: Cranfield's plan-set × model cells."""
    peer_c = rows["plain PyTerrier, Cranfield grid"]
    peer_n = rows["plain PyTerrier, NFCorpus grid"]
    both = {"cpu": rows["cold Cranfield main job"]["cpu"] + rows["NFCorpus addition"]["cpu"],
            "wall": rows["cold Cranfield main job"]["wall"] + rows["NFCorpus addition"]["wall"],
            "jobs": rows["cold Cranfield main job"]["jobs"] + rows["NFCorpus addition"]["jobs"]}
    peers = {"cpu": peer_c["cpu"] + peer_n["cpu"], "wall": peer_c["wall"] + peer_n["wall"]}
    lines = ["| job | jobs | CPU s | wall s | CPU / peer | wall / peer | load before -> after |",
             "|---|---:|---:|---:|---:|---:|---|"]
    for name, row in rows.items():
        if name in (FLOOR, FLOOR_NFCORPUS, PLUGINS):
            continue
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
    if FLOOR in rows:
        lines += ["", *render_floor(rows, tables)]
    if PLUGINS in rows:
        lines += ["", "Snakemake's executor plugins in the measuring interpreter: "
                  f"{', '.join(rows[PLUGINS]) or 'none (the README set-up)'}."]
    return "\n".join(lines) + "\n"


def executor_plugins() -> list[str]:
    """The Snakemake executor plugins installed beside the measuring interpreter's Snakemake
    (each adds its import to every Snakemake start: :data:`PLUGINS`)."""
    from importlib.metadata import distributions

    return sorted({d.metadata["Name"] for d in distributions()
                   if d.metadata["Name"].startswith("snakemake-executor-plugin-")})


#: The rows of the main jobs' work without start-up (measurements from 2026-12-02; the
#: NFCorpus addition's from its second measurement on).
FLOOR = "cold Cranfield work without start-up"
FLOOR_NFCORPUS = "NFCorpus addition work without start-up"
#: The interpreter's Snakemake executor plugins: the SLURM one (the ``slurm`` extra) asks
#: ``scontrol`` for the cluster's settings when Snakemake starts, which waits about 9 s
#: where a SLURM client has no controller to reach (measured on the benchmark machine).
PLUGINS = "executor plugins"


def rule_work(row: dict) -> float:
    """A rule's work: its jobs' logged CPU less their start-ups, never below 0."""
    return round(max(0.0, row["logged"] - row["jobs"] * row["startup"]), 2)


def work_table(work: dict, title: str) -> tuple[list[str], float, float]:
    """A job's work by rule (its logged CPU less its jobs' start-ups, never below 0): the
    table's lines, the total work and the largest start-up."""
    lines = [f"| rule ({title}) | jobs | CPU s, its logs | start-up s, per job | work s |",
             "|---|---:|---:|---:|---:|"]
    total = {"jobs": 0, "logged": 0.0, "work": 0.0}
    for rule, row in sorted(work.items(), key=lambda kv: (-kv[1]["logged"], kv[0])):
        row_work = rule_work(row)
        total["jobs"] += row["jobs"]
        total["logged"] += row["logged"]
        total["work"] += row_work
        lines.append(f"| {rule} | {row['jobs']} | {row['logged']:.1f} | {row['startup']:.2f} | "
                     f"{row_work:.1f} |")
    lines.append(f"| all jobs | {total['jobs']} | {total['logged']:.1f} | | "
                 f"{total['work']:.1f} |")
    return lines, total["work"], max(row["startup"] for row in work.values())


def render_floor(rows: dict, tables: bool = True) -> list[str]:
    """The main jobs' work less their start-ups, by rule (``tables``), against the bounds of
    the CPU targets and of the figure-style edit's target, and the cold Cranfield job's CPU
    over that work (issue 44's bound: 1.25×)."""
    work = rows[FLOOR]["rules"]
    lines, total, one = work_table(work, "cold Cranfield")
    cold = rows.get("cold Cranfield main job", {"cpu": 0.0, "jobs": 0})
    cpu = cold["cpu"]
    over = (f"The cold Cranfield job's CPU over its work without start-up is {cpu:.1f} / "
            f"{total:.1f} = {cpu / total:.4f}× (issue 44's bound: 1.25×; the rest is "
            f"Snakemake's own and its {cold['jobs']} jobs' "
            f"start-ups): {'within' if cpu / total <= 1.25 else 'above'} it.")
    if not tables:
        lines = []
    bound = 2.0 * rows["plain PyTerrier, Cranfield grid"]["cpu"]
    edit = rows["figure-style edit (font size)"]["rules"]
    figures = sum(rule_work(work[r]) for r in edit if r in work)
    floor = total + one
    lines += ["", f"The cold Cranfield job's work without start-up, plus one start-up "
              f"({one:.2f} s), is {floor:.1f} CPU s; the target's bound, 2 × the peer's "
              f"CPU, is {bound:.1f} s: {'within' if floor <= bound else 'above'} it "
              f"({floor / bound:.2f} × the bound). The figure-style edit's jobs "
              f"({', '.join(r for r in edit if r in work)}) did {figures:.1f} CPU s of "
              f"work in the cold job, against a bound of 30 s: "
              f"{'within' if figures <= 30 else 'above'} it."]
    if "retrieve" in work and "report_figures" in work:
        retrieval, drawing = rule_work(work["retrieve"]), rule_work(work["report_figures"])
        lines[-1] += (f" Of the work, retrieval is {retrieval:.1f} s and the figures "
                      f"{drawing:.1f} s; without the figures it would be "
                      f"{floor - drawing:.1f} s ({(floor - drawing) / bound:.2f} × the bound).")
    peer = rows["plain PyTerrier, Cranfield grid"].get("peer")
    if peer:
        ran = peer["phases"]["cranfield: runs + Experiment"]
        lines[-1] += (f" The peer's runs with `pt.Experiment` took {ran:.1f} s for "
                      f"{peer['runs']} runs ({ran / peer['runs']:.2f} s a run).")
    lines += ["", over] if cpu else []
    if FLOOR_NFCORPUS in rows:
        more, total_n, one_n = work_table(rows[FLOOR_NFCORPUS]["rules"], "NFCorpus addition")
        more = more if tables else []
        both = total + total_n + max(one, one_n)
        bound = 2.5 * (rows["plain PyTerrier, Cranfield grid"]["cpu"]
                       + rows["plain PyTerrier, NFCorpus grid"]["cpu"])
        lines += [*(["", *more] if more else []), "",
                  f"Both main jobs' work without start-up, plus one start-up, is {both:.1f} "
                  f"CPU s; the target's bound, 2.5 × both peers' CPU, is "
                  f"{bound:.1f} s: {'within' if both <= bound else 'above'} it "
                  f"({both / bound:.2f} × the bound)."]
    return lines if tables else lines[1:]  # render puts the blank line before


def cranfield_cells(root: Path = ROOT) -> int:
    """The committed configuration's Cranfield plan-set × model cells (gradedrel.study)."""
    sys.path.insert(0, str(root))
    from gradedrel.core.config import layered
    from gradedrel.study import Study

    study = Study.from_config(layered([root / "config" / "config.yaml"]))
    return len([cell for cell in study.cells() if cell[0] == "cranfield"])

if __name__ == "__main__":
    main()
