"""The thesaurus_read rule: fetch when absent, verify, write the cached form and summary."""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from conftest import run_snakemake
from gradedrel.thesaurus import load
from gradedrel.thesaurus.skos import read_skos

pytestmark = pytest.mark.workflow

ROOT = Path(__file__).resolve().parents[2]
MINI_RDF = ROOT / "tests" / "fixtures" / "thesaurus" / "mini_skos.rdf"


def _snakemake(workdir: Path, config: Path, *targets: str) -> subprocess.CompletedProcess:
    return run_snakemake(workdir, *targets, configfile=config)


def _config(workdir: Path, sha256: str) -> Path:
    mirror = workdir / "mirror" / "mini.rdf"
    mirror.parent.mkdir()
    shutil.copy(MINI_RDF, mirror)
    config = workdir / "config.yaml"
    config.write_text(f"thesauri:\n  mini:\n    url: {mirror.as_uri()}\n    sha256: '{sha256}'\n"
                      "    path: .data/thesauri/mini/mini.rdf\n")
    return config


def test_rule_downloads_verifies_and_writes_cache_and_summary(tmp_path):
    config = _config(tmp_path, hashlib.sha256(MINI_RDF.read_bytes()).hexdigest())
    target = "results/thesauri/mini/summary.tsv"
    first = _snakemake(tmp_path, config, target)
    assert first.returncode == 0, first.stderr[-3000:]
    assert (tmp_path / ".data/thesauri/mini/mini.rdf").read_bytes() == MINI_RDF.read_bytes()
    out = tmp_path / "results" / "thesauri" / "mini"
    summary = pd.read_csv(out / "summary.tsv", sep="\t")
    values = dict(zip(summary["statistic"], summary["value"]))
    assert values["concepts"] == 9 and values["entry_terms"] == 1
    assert load(out / "mini.thesaurus.json.gz").concepts == read_skos(MINI_RDF).concepts
    assert (out / "provenance.json").exists()
    fetched = (tmp_path / "results/logs/thesauri/fetch/.data/thesauri/mini/mini.rdf.log"
               ).read_text()
    assert re.search(r"^\d{4}-\d\d-\d\dT[\d:]{8}Z INFO .*mini\.rdf: sha256 [0-9a-f]{64}$",
                     fetched, re.M), fetched
    again = _snakemake(tmp_path, config, target)
    assert again.returncode == 0 and "Nothing to be done" in again.stdout + again.stderr


def test_rule_rejects_wrong_checksum_and_leaves_nothing(tmp_path):
    config = _config(tmp_path, "0" * 64)
    result = _snakemake(tmp_path, config, "results/thesauri/mini/summary.tsv")
    assert result.returncode != 0
    log = (tmp_path / "results/logs/thesauri/fetch/.data/thesauri/mini/mini.rdf.log").read_text()
    actual = hashlib.sha256(MINI_RDF.read_bytes()).hexdigest()
    assert f"sha256 mismatch: expected {'0' * 64}, found {actual}" in log
    assert "Traceback" not in log
    assert not (tmp_path / ".data/thesauri/mini/mini.rdf").exists()
    assert not list((tmp_path / ".data").glob("**/*.part"))
    assert not (tmp_path / "results/thesauri/mini").exists() or not any(
        (tmp_path / "results/thesauri/mini").iterdir())
