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
            "plan_requests", "retrieve", "evaluate_runs",
            "report_findings"} <= rules
    output = result.stdout + result.stderr
    assert "results/msmarco-dl19/index_arrays/postings" in output
    assert "results/thesauri/wordnet/" in output
    assert "results/cranfield/" not in output  # only the preset's collection is active
    assert not (tmp_path / "results").exists()


# The 1M-document measurements of benchmarks/README.md ("Scale", idle machine; retrieval at
# load 13-14), per job, and how each grows: linearly in documents (time) and, for memory,
# from the 200k and 1M peaks. MS MARCO passages: 8,841,823 documents, 43 topics x 6 types.
MILLIONS = 8.841823
NEEDS = {
    # rule: (runtime in minutes extrapolated, memory in MB extrapolated)
    "index_collection": (104 / 60 * MILLIONS, 1300 + (1300 - 1100) / 0.8 * (MILLIONS - 1)),
    "index_arrays": (7.8 / 60 * MILLIONS, 184 * MILLIONS),
    # one job per plan set runs every model of the grid (InQuery, BM25, DirichletLM) in turn
    "retrieve": (3 * 115 / 60 * 258 / 600 * 9, 500 + 34 * MILLIONS),
}


def test_msmarco_jobs_ask_for_at_least_the_extrapolated_need(tmp_path):
    result = run_snakemake(tmp_path, "--dry-run", configfile=[ROOT / "config" / "config.yaml",
                                                              PRESET])
    assert result.returncode == 0, result.stderr[-3000:]
    asked = {}
    rule = None
    for line in (result.stdout + result.stderr).splitlines():
        if line.startswith(("rule ", "localrule ")):
            rule = line.split()[1].rstrip(":")
        elif line.strip().startswith("resources:") and rule in NEEDS:
            fields = dict(item.split("=", 1) for item in line.split(":", 1)[1].split(", "))
            asked[rule] = (int(fields["runtime"]), int(fields["mem_mb"]))
    assert set(asked) == set(NEEDS)
    for rule, (minutes, megabytes) in NEEDS.items():
        runtime, mem = asked[rule]
        assert runtime >= minutes and mem >= megabytes, (rule, asked[rule], NEEDS[rule])
    # sized by MS MARCO's 8.8 M documents, not the floor a small collection gets
    assert asked["index_collection"][0] > 60
