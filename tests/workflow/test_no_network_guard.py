"""The SLURM test's network guard (tests/workflow/no_network_in_jobs/sitecustomize.py)
refuses Internet sockets in a SLURM job's processes, and nowhere else."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

GUARD = Path(__file__).parent / "no_network_in_jobs"
PROBE = ("import socket\n"
         "s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)\n"
         "s.settimeout(2)\n"
         "try:\n"
         "    s.connect(('127.0.0.1', 9))\n"
         "except OSError as e:\n"
         "    print('refused:', e)\n")


def probe(**env: str) -> str:
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("SLURM_JOB_ID", "GRADEDREL_NO_NETWORK_IN_JOBS")}
    environment.update(env, PYTHONPATH=str(GUARD))
    return subprocess.run([sys.executable, "-c", PROBE], env=environment, capture_output=True,
                          text=True, timeout=60).stdout


def test_a_slurm_job_cannot_open_an_internet_socket():
    out = probe(SLURM_JOB_ID="42", GRADEDREL_NO_NETWORK_IN_JOBS="1")
    assert "no network in a SLURM job (test guard)" in out and "job 42" in out


def test_outside_a_slurm_job_or_without_the_switch_sockets_are_untouched():
    for env in ({"GRADEDREL_NO_NETWORK_IN_JOBS": "1"}, {"SLURM_JOB_ID": "42"}):
        assert "test guard" not in probe(**env)
