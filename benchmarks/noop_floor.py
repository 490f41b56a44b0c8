"""The no-op re-run against Snakemake's own no-op on a DAG of the same size (issue 23).

    .venv/bin/python benchmarks/noop_floor.py [--project DIR] [--out FILE]

A finished project's no-op (``snakemake --cores 2`` with nothing to do, in ``--project``,
default this checkout) and, alternating with it, the no-op of two synthetic workflows run
by the same Snakemake: one of the project's size (its jobs, each with its share of the
project's output files: 13 rules, plain ``touch`` shell commands, a params dict), and one of
the same jobs with one file each. The least wall and CPU time of ``--runs`` runs of each.
The synthetic workflows are what Snakemake costs with no Snakefile logic of ours at all:
a floor for the no-op of a DAG that large.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pipeline import timed  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def synthetic_snakefile(chains: int, steps: int, singles: int, files: int) -> str:
    """``chains`` wildcard values through ``steps`` chained rules, plus ``singles`` jobs
    reading the end of the first chain; every job writes ``files`` files. Jobs:
    chains × steps + singles (+ ``all``)."""
    return f'''CHAINS = [f"p{{i}}" for i in range({chains})]
N = {files}
rule all:
    input:
        expand("out/{{p}}/r{{k}}/f{{j}}.txt", p=CHAINS, k=range({steps}), j=range(N)),
        expand("out/single{{k}}/f{{j}}.txt", k=range({singles}), j=range(N))
def previous(k):
    return lambda wc: [f"out/{{wc.p}}/r{{k - 1}}/f{{j}}.txt" for j in range(N)] if k else []
for k in range({steps}):
    rule:
        name: f"r{{k}}"
        input: previous(k)
        output: [f"out/{{{{p}}}}/r{{k}}/f{{j}}.txt" for j in range(N)]
        params: k=k, settings={{"a": 1, "b": [1, 2, 3]}}
        shell: "touch {{output}}"
for k in range({singles}):
    rule:
        name: f"s{{k}}"
        input: [f"out/p0/r{steps - 1}/f{{j}}.txt" for j in range(N)]
        output: [f"out/single{{k}}/f{{j}}.txt" for j in range(N)]
        shell: "touch {{output}}"
'''


def project_size(project: Path, env: dict) -> tuple[int, int]:
    """(jobs, output files) of the project's main job, from a forced dry run."""
    done = subprocess.run([sys.executable, "-m", "snakemake", "--cores", "1", "--dry-run",
                           "--forceall", "--nocolor"], cwd=project, env=env,
                          capture_output=True, text=True, check=True)
    out = done.stdout + done.stderr
    jobs = len(re.findall(r"^\s*(?:local)?rule (?!all:)\w+:", out, flags=re.M))
    files = sum(len(m.split(", ")) for m in re.findall(r"^\s*output: (.+)$", out, flags=re.M))
    return jobs, files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", type=Path, default=ROOT)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    env = dict(os.environ)
    noop = [sys.executable, "-m", "snakemake", "--cores", "2", "--nocolor"]
    jobs, files = project_size(args.project, env)
    steps, singles = 9, 4
    chains = (jobs - singles) // steps
    per_job = max(1, round(files / (chains * steps + singles)))
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        places = {"the project": args.project}
        for name, n in ((f"Snakemake alone, {chains * steps + singles} jobs × {per_job} "
                         "files", per_job),
                        (f"Snakemake alone, {chains * steps + singles} jobs × 1 file", 1)):
            place = Path(tmp) / str(n)
            place.mkdir()
            (place / "Snakefile").write_text(synthetic_snakefile(chains, steps, singles, n))
            subprocess.run(noop + ["--quiet"], cwd=place, env=env, check=True,
                           capture_output=True)
            places[name] = place
        for _ in range(args.runs):
            for name, place in places.items():
                row = timed(noop, place, env)
                if "Nothing to be done" not in row.pop("output"):
                    raise SystemExit(f"{place}: not a no-op (finish the project first)")
                best = rows.setdefault(name, {"wall": row["wall"], "cpu": row["cpu"]})
                best["wall"], best["cpu"] = min(best["wall"], row["wall"]), \
                    min(best["cpu"], row["cpu"])
    result = {"project": {"jobs": jobs, "files": files}, "runs": args.runs, "rows": rows}
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(render(result), end="")


def render(result: dict) -> str:
    """The table benchmarks/README.md shows (tests/test_benchmark_numbers.py checks it)."""
    project = result["project"]
    lines = [f"The project: {project['jobs']} jobs, {project['files']} output files; the least "
             f"of {result['runs']} runs each, alternating.", "",
             "| no-op re-run | wall s | CPU s | wall / the 2 s target |", "|---|---:|---:|---:|"]
    for name, row in result["rows"].items():
        lines.append(f"| {name} | {row['wall']:.2f} | {row['cpu']:.2f} | "
                     f"{row['wall'] / 2.0:.2f} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
