"""The large-collection preset (config/presets/msmarco-dl19-wordnet.yaml) plans a whole run:
a dry run on top of the main config, with nothing downloaded or written to results/."""
import pytest
import yaml

from conftest import ROOT, planned_rules, run_snakemake

pytestmark = pytest.mark.workflow

PRESET = ROOT / "config" / "presets" / "msmarco-dl19-wordnet.yaml"


def test_msmarco_preset_names_a_four_level_grade_map_and_wordnet():
    collection = yaml.safe_load(PRESET.read_text())["collections"]["msmarco-dl19"]
    assert collection["ir_datasets"] == "msmarco-passage/trec-dl-2019/judged"
    assert collection["grade_map"] == {"3": 3, "2": 2, "1": 1, "0": 0}
    assert collection["thesaurus"] == "wordnet"


def test_msmarco_preset_dry_run_plans_every_stage(tmp_path):
    result = run_snakemake(tmp_path, "--dry-run", configfile=[ROOT / "config" / "config.yaml",
                                                              PRESET])
    rules = planned_rules(result)
    assert {"index_collection", "index_arrays", "prepare_topics_qrels", "thesaurus_read",
            "plan_requests", "compile_queries", "retrieve", "evaluate_runs",
            "report_findings"} <= rules
    output = result.stdout + result.stderr
    assert "results/msmarco-dl19/index_arrays/postings" in output
    assert "results/thesauri/wordnet/" in output
    assert "results/cranfield/" not in output  # only the preset's collection is active
    assert not (tmp_path / "results").exists()
