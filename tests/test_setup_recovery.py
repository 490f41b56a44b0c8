"""Recovery after an interrupted run (tools/recover.py, called by `make reproduce`): the stale
lock of a dead run is cleared and incomplete outputs re-run; a live run's lock is never
touched."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RECOVER = ROOT / "tools" / "recover.py"
SNAKEMAKE = Path(sys.executable).with_name("snakemake")

# One slow job that writes half its output, then sleeps: killed there, it leaves both a lock
# and an incomplete output, as an interrupted `make reproduce` does.
SNAKEFILE = """\
rule all:
    input: "out.txt"

rule slow:
    output: "out.txt"
    shell: "echo partial > {output}; sleep $SLOW_SECONDS; echo done >> {output}"
"""

pytestmark = pytest.mark.skipif(not SNAKEMAKE.exists(), reason="snakemake is not in this venv")


def _snakemake(workdir, *args, env=None, **kwargs):
    return subprocess.run([str(SNAKEMAKE), "--cores", "1", "--nocolor", *args], cwd=workdir,
                          capture_output=True, text=True, env=env, **kwargs)


def _recover(workdir):
    return subprocess.run([sys.executable, str(RECOVER), "--directory", str(workdir),
                           "--snakemake", str(SNAKEMAKE)], capture_output=True, text=True)


def _locks(workdir):
    folder = workdir / ".snakemake" / "locks"
    return sorted(folder.glob("*.lock")) if folder.is_dir() else []


def _start_slow_run(workdir, seconds):
    (workdir / "Snakefile").write_text(SNAKEFILE)
    env = dict(os.environ, SLOW_SECONDS=str(seconds))
    process = subprocess.Popen([str(SNAKEMAKE), "--cores", "1", "--nocolor"], cwd=workdir,
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    deadline = time.monotonic() + 60
    while not ((workdir / "out.txt").exists() and _locks(workdir)):
        assert process.poll() is None, "snakemake ended before its job started"
        assert time.monotonic() < deadline, "snakemake did not start its job within 60 s"
        time.sleep(0.2)
    return process


def _kill_group(process):
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def test_killed_run_resumes(tmp_path):
    process = _start_slow_run(tmp_path, 60)
    _kill_group(process)  # SIGKILL: no clean-up at all, as after a crash or a lost machine
    assert _locks(tmp_path), "a killed run leaves its lock"
    blocked = _snakemake(tmp_path, "--rerun-incomplete")
    assert blocked.returncode != 0 and "lock" in (blocked.stdout + blocked.stderr).lower()

    result = _recover(tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("recover: cleared the lock of an interrupted run")
    assert _locks(tmp_path) == []

    env = dict(os.environ, SLOW_SECONDS="0")
    resumed = _snakemake(tmp_path, "--rerun-incomplete", env=env)
    assert resumed.returncode == 0, resumed.stderr
    assert (tmp_path / "out.txt").read_text() == "partial\ndone\n"


def test_fabricated_stale_lock_is_cleared(tmp_path):
    # The files Snakemake writes under .snakemake/locks/, with no process behind them.
    (tmp_path / "Snakefile").write_text(SNAKEFILE)
    locks = tmp_path / ".snakemake" / "locks"
    locks.mkdir(parents=True)
    (locks / "0.input.lock").write_text("")
    (locks / "0.output.lock").write_text(str(tmp_path / "out.txt") + "\n")
    result = _recover(tmp_path)
    assert result.returncode == 0, result.stderr
    assert _locks(tmp_path) == []


def test_nothing_to_do_is_silent(tmp_path):
    (tmp_path / "Snakefile").write_text(SNAKEFILE)
    result = _recover(tmp_path)
    assert result.returncode == 0 and result.stdout == "" and result.stderr == ""


def test_live_run_is_never_unlocked(tmp_path):
    process = _start_slow_run(tmp_path, 120)
    try:
        before = _locks(tmp_path)
        result = _recover(tmp_path)
        assert result.returncode == 1
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and result.stdout == ""
        assert "still working" in lines[0] and "pid" in lines[0]
        assert _locks(tmp_path) == before and before
        assert process.poll() is None, "the live run must be left alone"
    finally:
        _kill_group(process)


def test_make_reproduce_recovers_then_reruns_incomplete():
    result = subprocess.run(["make", "--no-print-directory", "-n", "reproduce"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    commands = result.stdout.splitlines()
    recover = next(i for i, line in enumerate(commands) if "tools/recover.py" in line)
    run = next(i for i, line in enumerate(commands)
               if "snakemake --cores" in line and "--rerun-incomplete" in line)
    assert recover < run


def test_recovery_removes_the_part_files_killed_jobs_left(tmp_path):
    """A job killed inside an atomic write leaves its hidden ``.part`` (a 0-byte
    ``.nasa.thesaurus.json.gz.<random>.part``, a staging folder): recovery removes them,
    and nothing else, and says how many."""
    from gradedrel.core.io import atomic_open

    folder = tmp_path / "results" / "thesauri" / "nasa"
    folder.mkdir(parents=True)
    kept = folder / "nasa.thesaurus.json.gz"
    with atomic_open(kept) as handle:
        handle.write("finished")
    part = folder / ".nasa.thesaurus.json.gz.k3j_x9q2.part"
    part.write_bytes(b"")
    staging = tmp_path / "figures" / ".cranfield.x8d2kq1a.part"
    (staging / "inner").mkdir(parents=True)
    (staging / "inner" / "a.png").write_bytes(b"png")
    lookalike = folder / "notes.part"  # not an atomic write's name: kept
    lookalike.write_text("mine")
    result = _recover(tmp_path)
    assert result.returncode == 0, result.stderr
    assert "removed 2 half-written file(s) of killed jobs (.part)" in result.stdout
    assert not part.exists() and not staging.exists()
    assert kept.read_text() == "finished" and lookalike.exists()
    assert [p.name for p in folder.iterdir() if p.name.startswith(".")] == []
