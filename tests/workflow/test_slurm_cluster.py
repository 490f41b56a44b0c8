"""The fixture workflow through a real SLURM (issue 14): the same results as a local run.

Runs the tiny fixture collection twice, into two temporary directories: once locally
(``--cores 2``) and once through ``profiles/slurm`` (snakemake-executor-plugin-slurm, every
job submitted to slurmctld with sbatch). Asserts that every job except the local rules
(``all``, the downloads, the report pages) ran in a SLURM job that completed (from
``sacct``) — on its own or in one of the profile's group jobs, so fewer SLURM jobs than
compute jobs — and that every file under ``results/`` and ``figures/`` is byte-identical
between the two runs, except for the two named below, which hold a path or a time by design.
The SLURM run starts with an empty PyTerrier cache and no SLURM job may open an Internet
socket (``no_network_in_jobs/sitecustomize.py``): the local rule ``terrier_fetch`` must
fetch the jars, and a compute job that downloaded would fail.

Needs a running SLURM: ``tools/slurm/start.sh`` (as root) starts a single-node one, and
``.ci/slurm-test`` installs, starts, runs this test and stops. Without SLURM the test
fails with one message; it never skips. Selected with ``-m slurm``; the marker is set here
with ``pytestmark`` (register it in pyproject's ``markers`` to silence pytest's warning).
Measured figures (wall times, per-job overhead) are printed and, when
``GRADEDREL_SLURM_MEASUREMENTS`` names a file, written there as JSON.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import pytest

pytestmark = pytest.mark.slurm

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "fixtures" / "tiny"
PROFILE = ROOT / "profiles" / "slurm"
NO_NETWORK = ROOT / "tests" / "workflow" / "no_network_in_jobs"   # its sitecustomize.py
LOCAL_RULES = ("all", "thesaurus_fetch", "collection_fetch", "terrier_fetch")
TIMEOUT = 1800  # seconds per workflow run; the SLURM run takes ~7 min on a loaded 2-core box


def slurm_problem() -> str | None:
    """Why SLURM cannot take jobs here, or None when it can."""
    for tool in ("sinfo", "sbatch", "squeue", "sacct", "scontrol"):
        if shutil.which(tool) is None:
            return f"no '{tool}' on PATH (apt-get install slurm-client)"
    ping = subprocess.run(["scontrol", "ping"], capture_output=True, text=True, timeout=30)
    if ping.returncode != 0 or "UP" not in ping.stdout:
        said = (ping.stdout + ping.stderr).strip().splitlines() or ["nothing"]
        return f"slurmctld does not answer ('scontrol ping': {said[0]!r})"
    nodes = subprocess.run(["sinfo", "-h", "-N", "-o", "%T"], capture_output=True, text=True,
                           timeout=30).stdout.split()
    if not any(s.rstrip("*~#") in ("idle", "mixed", "allocated") for s in nodes):
        return f"no node can run jobs (sinfo node states: {nodes or 'none'})"
    return None


def run_snakemake(workdir: Path, *args: str, env_extra: dict[str, str] | None = None,
                  path_first: tuple[str, ...] = ()) -> tuple[subprocess.CompletedProcess, float]:
    """Run the project's Snakefile on the fixture config in ``workdir``; (result, seconds).
    ``env_extra``: more environment; ``path_first``: folders put before ROOT on PYTHONPATH."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([*path_first, str(ROOT), env.get("PYTHONPATH", "")])
    env.update(env_extra or {})
    env.setdefault("IR_DATASETS_HOME", str(ROOT / ".data" / "ir_datasets"))
    command = [sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile"),
               "--directory", str(workdir), "--nocolor", *args,
               "--configfile", str(workdir / "fixture" / "config.yaml")]
    start = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=TIMEOUT,
                            cwd=workdir)
    return result, time.monotonic() - start


def job_times(log: str) -> dict[int, tuple[str, float]]:
    """Snakemake's own view of each job: jobid -> (rule, seconds from start to finished),
    from the log's ``[timestamp]`` lines (one-second resolution)."""
    stamp, rule, started, jobs = None, None, {}, {}
    for line in log.splitlines():
        if re.fullmatch(r"\[\w{3} \w{3} +\d+ [\d:]+ \d{4}\]", line.strip()):
            stamp = datetime.strptime(line.strip()[1:-1], "%a %b %d %H:%M:%S %Y")
        elif m := re.fullmatch(r"(?:local)?rule (\w+):", line.strip()):
            rule = m.group(1)
        elif (m := re.fullmatch(r"jobid: (\d+)", line.strip())) and rule:
            started[int(m.group(1))] = (rule, stamp)
            rule = None
        elif m := re.match(r"Finished jobid: (\d+)", line.strip()):
            name, begun = started[int(m.group(1))]
            jobs[int(m.group(1))] = (name, (stamp - begun).total_seconds())
    return jobs


def slurm_jobs_planned(log: str) -> tuple[list[str], list[list[str]]]:
    """From the SLURM run's log: the rules of the compute jobs submitted on their own, and
    the member rules of each group job (a "Group job <name> (jobs in lexicogr. order):"
    block, its members indented below it). Local rules are logged as ``localrule``."""
    ungrouped, groups, in_group = [], [], False
    for line in log.splitlines():
        if "Group job " in line and "(jobs in lexicogr. order)" in line:
            groups.append([])
            in_group = True
        elif in_group and (m := re.fullmatch(r"\s+rule (\w+):", line)):
            groups[-1].append(m.group(1))
        elif m := re.fullmatch(r"rule (\w+):", line):
            ungrouped.append(m.group(1))
            in_group = False
        elif line.strip() and not line[0].isspace() and not line.startswith("["):
            in_group = False
    return ungrouped, groups


# Files that legitimately differ between two runs of the same workflow, wherever they run,
# each compared with the differing part left out (nothing else is excluded but the job logs,
# see outputs()):
def _terrier_properties(data: bytes) -> bytes:
    """Terrier's index/data.properties records the absolute path the index was built in
    (first comment line), the build time (second comment line) and ``index.created``
    (epoch ms): drop those three, compare every other line."""
    return b"\n".join(line for line in data.split(b"\n")
                      if not line.startswith(b"#") and not line.startswith(b"index.created="))


def _posting_signature(data: bytes) -> bytes:
    """index_arrays/postings/signature.json holds a hash of the index files' sizes and
    mtimes (the cache key that tells stale arrays), so it differs with the build time:
    compare only that it is such a record (every array file is compared byte for byte)."""
    return ",".join(sorted(json.loads(data))).encode()


NORMALISE = {
    re.compile(r"results/[^/]+/index/data\.properties"): _terrier_properties,
    re.compile(r"results/[^/]+/index_arrays/postings/signature\.json"): _posting_signature,
}


def outputs(workdir: Path) -> dict[str, Path]:
    """Every file under results/ and figures/ but the job logs (results/logs/), which hold
    timestamps, process ids and rates by design (gradedrel.core.steps)."""
    found = {}
    for top in ("results", "figures"):
        for path in sorted((workdir / top).rglob("*")):
            if path.is_file() and not path.relative_to(workdir).as_posix().startswith(
                    "results/logs/"):
                found[path.relative_to(workdir).as_posix()] = path
    return found


def sacct_jobs(ids: list[int]) -> dict[int, dict[str, str]]:
    """SLURM's own record of the jobs: from the accounting database if there is one, else
    from the job-completion file (``sacct -c``, JobCompType=jobcomp/filetxt)."""
    fields = "JobID,JobName,State,Submit,Start,End"
    for extra in ([], ["-c"]):
        out = subprocess.run(["sacct", *extra, "-X", "-n", "-P", "-o", fields,
                              "-j", ",".join(map(str, ids))],
                             capture_output=True, text=True, timeout=60)
        rows = {}
        for line in out.stdout.splitlines():
            values = dict(zip(fields.split(","), line.split("|")))
            if values.get("JobID", "").isdigit():
                rows[int(values["JobID"])] = values
        if rows:
            return rows
    return {}


def test_fixture_workflow_through_slurm_matches_a_local_run(tmp_path):
    problem = slurm_problem()
    if problem:
        pytest.fail(f"SLURM is not running here: {problem}. Start a single-node SLURM with "
                    "'tools/slurm/start.sh' (as root), or run '.ci/slurm-test'.", pytrace=False)

    local, cluster = tmp_path / "local", tmp_path / "slurm"
    for workdir in (local, cluster):
        shutil.copytree(TINY, workdir / "fixture")

    first, local_seconds = run_snakemake(local, "--cores", "2")
    assert first.returncode == 0, first.stderr[-3000:]
    # The SLURM run starts with an empty PyTerrier cache, and no SLURM job may open an
    # Internet socket (NO_NETWORK's sitecustomize): the local rule terrier_fetch must
    # download the jars, and a compute job that tried to download would fail.
    jar_cache = tmp_path / "pyterrier-home"
    second, slurm_seconds = run_snakemake(
        cluster, "--profile", str(PROFILE), path_first=(str(NO_NETWORK),),
        env_extra={"PYTERRIER_HOME": str(jar_cache), "GRADEDREL_NO_NETWORK_IN_JOBS": "1"})
    assert second.returncode == 0, second.stderr[-3000:]
    log = second.stdout + second.stderr
    fetched = json.loads((cluster / "results" / "terrier" / "jars.json").read_text())
    assert sorted(p.name for p in jar_cache.glob("*.jar")) == sorted(
        j["jar"] for j in fetched["jars"]), "terrier_fetch did not fill the empty jar cache"

    # every job but the workflow's local rules (the target 'all', downloads, and the report
    # pages, which run in Snakemake's own process) was submitted to SLURM and completed there
    def local_rule(rule: str) -> bool:
        return rule in LOCAL_RULES

    ran_locally = set(re.findall(r"^\s*localrule (\w+):", log, flags=re.MULTILINE))
    assert all(local_rule(rule) for rule in ran_locally), (
        f"compute rules ran outside SLURM: {sorted(r for r in ran_locally if not local_rule(r))}")
    local_jobs = job_times(first.stdout + first.stderr)
    expected = {j for j, (rule, _) in local_jobs.items() if not local_rule(rule)}
    # (24 since the report's coarse jobs: one report_findings and one report_figures per
    # plan set and model, pages written by the jobs that make their files; 22 since one
    # evaluate_runs job per plan set, 2026-12-01)
    assert len(expected) >= 20, f"the fixture workflow ran only {len(expected)} jobs locally"
    # the profile groups small jobs (its `groups:`): a SLURM job is one ungrouped job or
    # one group job; every compute job of the local run ran in exactly one of them
    ungrouped, groups = slurm_jobs_planned(log)
    ungrouped = [rule for rule in ungrouped if not local_rule(rule)]
    grouped = sum(len(members) for members in groups)
    submitted = dict(re.findall(r"Job (\S+) has been submitted with SLURM jobid (\d+)", log))
    assert len(ungrouped) + grouped == len(expected), (
        f"{len(ungrouped)} ungrouped + {grouped} grouped compute jobs ran through SLURM, "
        f"{len(expected)} ran locally:\n{log[-3000:]}")
    assert groups and grouped > len(groups), f"no small jobs were grouped: {groups}"
    assert len(submitted) == len(ungrouped) + len(groups) < len(expected), (
        f"{len(submitted)} SLURM jobs submitted for {len(ungrouped)} ungrouped jobs and "
        f"{len(groups)} group jobs:\n{log[-3000:]}")
    submitted = {j: int(s) for j, s in submitted.items()}
    accounted = sacct_jobs(sorted(submitted.values()))
    assert set(accounted) == set(submitted.values()), (
        f"sacct knows {len(accounted)} of the {len(submitted)} submitted SLURM jobs")
    states = {row["State"] for row in accounted.values()}
    assert states == {"COMPLETED"}, f"SLURM job states: {states}"

    # the same files, byte for byte (two named files with the differing part left out)
    a, b = outputs(local), outputs(cluster)
    assert sorted(a) == sorted(b), (
        f"only local: {sorted(set(a) - set(b))}; only SLURM: {sorted(set(b) - set(a))}")
    differing = []
    for name in a:
        x, y = a[name].read_bytes(), b[name].read_bytes()
        for pattern, normalise in NORMALISE.items():
            if pattern.fullmatch(name):
                x, y = normalise(x), normalise(y)
        if x != y:
            differing.append(name)
    assert not differing, f"files that differ between the local and the SLURM run: {differing}"
    assert any(n.endswith(".run") for n in a) and any(n.endswith(".md") for n in a)

    # measured in this run: wall times, and what a SLURM job costs over a local one
    def seconds(row: dict[str, str]) -> float:
        return (datetime.fromisoformat(row["End"])
                - datetime.fromisoformat(row["Start"])).total_seconds()
    in_allocation = sum(seconds(row) for row in accounted.values()) / len(accounted)
    local_total = sum(t for j, (_, t) in local_jobs.items() if j in expected)
    local_mean = local_total / len(expected)
    figures = {
        "jobs": len(expected),
        "slurm_jobs_without_groups": len(expected),
        "slurm_jobs": len(submitted),
        "group_jobs": len(groups),
        "jobs_in_groups": grouped,
        "files_compared": len(a),
        "local_wall_s": round(local_seconds, 1),
        "slurm_wall_s": round(slurm_seconds, 1),
        "ratio_slurm_over_local": round(slurm_seconds / local_seconds, 2),
        # both runs use two slots (--cores 2; two 1-CPU SLURM jobs on the 2-CPU node)
        "wall_overhead_per_slurm_job_s": round(
            (slurm_seconds - local_seconds) * 2 / len(submitted), 1),
        "local_job_mean_s": round(local_mean, 1),
        "slurm_job_mean_s_start_to_end": round(in_allocation, 1),
        # what the SLURM jobs took beyond the same jobs run locally, per SLURM job
        "in_job_overhead_per_slurm_job_s": round(
            (in_allocation * len(accounted) - local_total) / len(accounted), 1),
    }
    print("\nSLURM vs local, fixture workflow:", json.dumps(figures, indent=1))
    if os.environ.get("GRADEDREL_SLURM_MEASUREMENTS"):
        Path(os.environ["GRADEDREL_SLURM_MEASUREMENTS"]).write_text(
            json.dumps(figures, indent=1) + "\n")
