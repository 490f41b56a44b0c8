"""Early errors: every input file named in config is checked before any job runs, and a
bad config or input stops the workflow with one line per problem, no traceback or schema
dump (unless GRADEDREL_VERBOSE=1)."""
import os
import shutil

import pytest
import yaml

from conftest import ROOT, TINY, run_snakemake
from gradedrel import preflight
from gradedrel.core import config as config_module
from gradedrel.plans import plan_sets


def _fixture_config(tmp_path):
    shutil.copytree(TINY, tmp_path / "fixture")
    return yaml.safe_load((tmp_path / "fixture" / "config.yaml").read_text())


def _errors(config, tmp_path):
    here = os.getcwd()
    os.chdir(tmp_path)  # config paths are relative to the working directory
    try:
        sets = {c: plan_sets.read(c, config["collections"][c])
                for c in config["active_collections"]}
        return preflight.input_errors(config, config["active_collections"], sets,
                                      thesauri=["tiny"])
    finally:
        os.chdir(here)


def test_the_fixture_config_has_no_input_errors(tmp_path):
    assert _errors(_fixture_config(tmp_path), tmp_path) == []


def test_each_missing_or_malformed_input_is_one_line_naming_file_and_line(tmp_path):
    config = _fixture_config(tmp_path)
    tiny = config["collections"]["tiny"]
    tiny["docs"] = "fixture/missing.jsonl"
    (tmp_path / "fixture" / "topics.tsv").write_text("qid\tquery\n1\tlift\n2 shells\n")
    (tmp_path / "fixture" / "qrels.txt").write_text("1 0 d01 1\n1 0 d02 7\n")
    (tmp_path / "plans.yaml").write_text("plans:\n- qid: '1'\n  facets: [\n")
    (tmp_path / "topics.txt").write_text("\n")
    tiny["plan_sets"] = {"mine": {"curated": ["plans.yaml"], "topics": "topics.txt"},
                         "gone": {"curated": ["nowhere.yaml"]}}
    config["thesauri"]["tiny"].update(path="fixture/none.rdf", url="file:///nonexistent.rdf")
    errors = _errors(config, tmp_path)
    assert errors == [
        "fixture/missing.jsonl: expected a file here (named by config: collections.tiny.docs); "
        "found none",
        "fixture/topics.tsv:3: expected a topic line 'qid<TAB>text' (2 fields); "
        "found '2 shells'",
        "fixture/qrels.txt:2: expected a relevance label in the grade map (-1, 1, 2, 3, 4); "
        "found '7'",
        "plans.yaml:4: expected curated plans in valid YAML (docs/plans.md); "
        "found 'did not find expected node content'",
        "topics.txt: expected topic ids, one per line (named by "
        "config: collections.tiny.plan_sets.mine.topics); found an empty file",
        "nowhere.yaml: expected a file here (named by "
        "config: collections.tiny.plan_sets.gone.curated); found none",
        "/nonexistent.rdf: no such file (thesauri.tiny, file: the url of the local copy "
        "fixture/none.rdf, which is absent too)"]


def test_a_misspelled_key_is_one_line_with_the_closest_valid_key():
    config = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    config["retreival"] = config.pop("retrieval")
    with pytest.raises(config_module.ConfigError) as raised:
        config_module.validate(config)
    assert str(raised.value) == "config: unknown key 'retreival' at the top level; did you mean 'retrieval'?"


def _gradedrel_lines(result):
    return [line for line in result.stderr.splitlines() if line.startswith("gradedrel:")]


def test_workflow_stops_before_any_job_with_one_line_per_problem(tmp_path):
    config = _fixture_config(tmp_path)
    (tmp_path / "fixture" / "qrels.txt").unlink()
    config["baseline"]["dpth"] = 3
    (tmp_path / "bad_key.yaml").write_text(yaml.safe_dump(config))
    result = run_snakemake(tmp_path, "-n", configfile=tmp_path / "bad_key.yaml")
    assert result.returncode == 1
    line = next(n for n, text in enumerate(
        (tmp_path / "bad_key.yaml").read_text().splitlines(), 1) if text.strip() == "dpth: 3")
    assert _gradedrel_lines(result) == [  # the file and line the bad key came from
        f"gradedrel: {tmp_path / 'bad_key.yaml'}:{line}: unknown key 'dpth' at baseline; "
        "did you mean 'depth'?"]
    assert 'File "' not in result.stdout + result.stderr and len(result.stderr.splitlines()) == 1
    del config["baseline"]["dpth"]
    (tmp_path / "missing.yaml").write_text(yaml.safe_dump(config))
    result = run_snakemake(tmp_path, "-n", configfile=tmp_path / "missing.yaml")
    assert result.returncode == 1
    assert _gradedrel_lines(result) == [
        "gradedrel: fixture/qrels.txt: expected a file here (named by "
        "config: collections.tiny.qrels); found none"]
    assert 'File "' not in result.stdout + result.stderr and len(result.stderr.splitlines()) == 1
    assert not (tmp_path / "results").exists()


def test_verbose_gives_the_full_error(tmp_path, monkeypatch):
    config = _fixture_config(tmp_path)
    (tmp_path / "fixture" / "qrels.txt").unlink()
    (tmp_path / "missing.yaml").write_text(yaml.safe_dump(config))
    monkeypatch.setenv("GRADEDREL_VERBOSE", "1")
    result = run_snakemake(tmp_path, "-n", configfile=tmp_path / "missing.yaml")
    assert result.returncode == 1
    output = result.stdout + result.stderr
    assert "fixture/qrels.txt" in output and 'File "' in output  # Snakemake's traceback


LEVEL_1_GONE = {"1": 3, "2": 3, "3": 2, "4": 0, "-1": 0}  # the only level-1 label moved to 0
LEVEL_LINE = ("config: collections.tiny.grade_map: no relevance label maps to level 1, which "
              "evaluation.levels stratifies by (1, 2, 3); map a label to it, or leave the "
              "level out of evaluation.levels")


def test_a_grade_map_that_leaves_an_evaluated_level_without_labels_is_one_line(tmp_path):
    """Found by the whole-pipeline benchmark: such a map ran the evaluation, then stopped
    every findings job on 'per-topic values of AvP(level=1) lack the query types'."""
    config = _fixture_config(tmp_path)
    config["collections"]["tiny"]["grade_map"] = LEVEL_1_GONE
    config["evaluation"] = {"levels": [1, 2, 3]}
    assert _errors(config, tmp_path) == [LEVEL_LINE]
    config["evaluation"] = {"levels": [2, 3]}  # the level left out: nothing to say
    assert _errors(config, tmp_path) == []


def test_the_workflow_stops_on_it_before_any_job(tmp_path):
    extra = tmp_path / "grades.yaml"
    extra.write_text(yaml.safe_dump({"collections": {"tiny": {"grade_map": LEVEL_1_GONE}}}))
    result = run_snakemake(tmp_path, "-n", configfile=[TINY / "config.yaml", extra])
    assert result.returncode != 0
    assert [line for line in result.stderr.splitlines() if "grade_map" in line] == [
        f"gradedrel: {LEVEL_LINE}"]
    assert not (tmp_path / "results").exists()


def test_a_results_dir_that_is_a_file_is_one_line(tmp_path):
    afile = tmp_path / "results"
    afile.write_text("")
    config = {"results_dir": str(afile / "sub"), "report": {"figures_dir": str(tmp_path)}}
    assert preflight.folder_errors(config) == [
        f"{afile}: expected a folder (config: results_dir: {afile / 'sub'}); found a file"]
    assert preflight.folder_errors({"results_dir": str(tmp_path / "new")}) == []
