"""The Snakemake report of the fixture workflow opened in a real headless browser
(tools/check_report.py): no broken caption, every item readable, categories that name the
collection. Needs Debian's chromium (``apt-get install chromium``); without it the test
fails, it never skips. Selected with ``-m browser`` (left out of ``make test``; CI checks
the main job's report with the same tool, .ci/run)."""
from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from conftest import ROOT, run_snakemake

pytestmark = pytest.mark.browser


def test_report_opens_in_chromium_without_a_broken_caption(finished_project, tmp_path):
    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
        pytest.fail("chromium is not installed: apt-get install chromium")
    project = tmp_path / "project"
    shutil.copytree(finished_project, project, symlinks=True)
    report = project / "report.html"
    made = run_snakemake(project, "--report", str(report), snakefile=project / "Snakefile",
                         configfile=project / "fixture" / "config.yaml")
    assert made.returncode == 0, made.stderr[-3000:]
    assert "WARNING/2" not in made.stdout + made.stderr  # docutils on a caption
    assert "Could not detect mimetype" not in made.stdout + made.stderr
    shots = tmp_path / "screenshots"
    check = subprocess.run([sys.executable, str(ROOT / "tools" / "check_report.py"),
                            str(report), "--screenshots", str(shots)],
                           capture_output=True, text=True, timeout=900)
    assert check.returncode == 0, check.stdout + check.stderr
    assert (shots / "landing.png").stat().st_size > 10_000
    assert (shots / "tiny_tables.png").stat().st_size > 10_000
