"""The report reads the facts it shares with the evaluation from their one config key."""
import pytest
import yaml

from conftest import ROOT
from gradedrel.report.settings import report_settings


def config():
    return yaml.safe_load((ROOT / "config" / "config.yaml").read_text())


def test_shared_settings_come_from_the_evaluations_keys():
    c = config()
    got = report_settings(c, "query_types", "levels", "baseline", "bootstrap", "alpha")
    assert got["query_types"] == c["query_types"]["labels"]
    assert got["levels"] == c["evaluation"]["levels"]
    assert got["baseline"] == c["evaluation"]["significance"]["baseline_run"]
    assert got["bootstrap"] == {**c["evaluation"]["bootstrap"], "seed": c["evaluation"]["seed"]}
    assert got["alpha"] == c["report"]["alpha"]
    for key in ("query_types", "levels", "baseline", "measures", "bootstrap"):
        assert key not in c["report"]  # said once, by the evaluation


def test_a_report_without_a_baseline_is_an_error_naming_the_key():
    c = config()
    c["evaluation"]["significance"]["baseline_run"] = None
    with pytest.raises(ValueError, match="evaluation.significance.baseline_run"):
        report_settings(c, "baseline")
