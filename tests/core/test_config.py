"""The one config loader (gradedrel.core.config): Snakemake's validation and defaults,
exactly, for the workflow; the sections a file has, for ``gradedrel evaluate --config``;
one line naming the file, line, key path and the closest valid key."""
import copy
import os

import pytest
import yaml

from conftest import ROOT, TINY
from gradedrel.core import config as config_schema

CONFIGS = [ROOT / "config" / "config.yaml", TINY / "config.yaml",
           ROOT / "config" / "nfcorpus" / "testbed.yaml",
           *sorted((ROOT / "config" / "presets").glob("*.yaml"))]


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.name)
def test_defaults_are_filled_exactly_as_snakemakes_validate_fills_them(path):
    from snakemake.utils import validate

    raw = yaml.safe_load(path.read_text())
    if path != CONFIGS[0]:  # an extra config file: on top of the main one, as in the workflow
        raw = {**yaml.safe_load(CONFIGS[0].read_text()), **raw}
    ours, theirs = copy.deepcopy(raw), copy.deepcopy(raw)
    config_schema.validate(ours)
    validate(theirs, str(config_schema.SCHEMA), set_default=True)
    assert ours == theirs and ours != raw


def test_the_schema_is_found_beside_the_package_from_any_directory(tmp_path):
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert config_schema.validate({})["results_dir"] == "results"
    finally:
        os.chdir(here)
    assert config_schema.SCHEMA == ROOT / "gradedrel" / "schemas" / "config.schema.yaml"
    # config/schema/ links to it (where Snakemake workflows keep their schemas)
    assert (ROOT / "config" / "schema" / "config.schema.yaml").resolve() == config_schema.SCHEMA


def test_a_partial_config_keeps_its_absent_sections_absent(tmp_path):
    path = tmp_path / "some.yaml"
    path.write_text("evaluation:\n  depth: 50\n  cutoffs: [10]\n")
    loaded = config_schema.load_file(path)
    assert set(loaded) == {"evaluation"}  # no standard_measures, collections, ... added
    assert loaded["evaluation"]["depth"] == 50 and loaded["evaluation"]["levels"] == [1, 2, 3]
    assert loaded["evaluation"]["significance"]["baseline_run"] == "SUM/u"


@pytest.mark.parametrize("text, line", [
    ("evalution: {}\n", "x.yaml:1: unknown key 'evalution' at the top level; did you mean "
                        "'evaluation'?"),
    ("evaluation:\n  cutofs: [10]\n", "x.yaml:2: unknown key 'cutofs' at evaluation; did you "
                                      "mean 'cutoffs'?"),
    ("evaluation:\n  cutoffs: ten\n", "x.yaml:2: evaluation.cutoffs: 'ten' is not of type "
                                      "'array'"),
    ("evaluation:\n  cutoffs:\n  - 10\n  - ten\n",
     "x.yaml:4: evaluation.cutoffs.1: 'ten' is not of type 'integer'"),
    ("evaluation:\n  significance:\n    corection: holm\n",
     "x.yaml:3: unknown key 'corection' at evaluation.significance; did you mean "
     "'correction'?"),
    ("evaluation:\n  zzz: 1\n", "x.yaml:2: unknown key 'zzz' at evaluation (valid keys: "),
])
def test_every_violation_is_one_line_naming_file_line_and_key(tmp_path, text, line):
    path = tmp_path / "x.yaml"
    path.write_text(text)
    with pytest.raises(config_schema.ConfigError) as raised:
        config_schema.load_file(path)
    assert str(raised.value).startswith(f"{tmp_path}/{line}")
    assert "\n" not in str(raised.value)


def test_the_workflows_merged_config_is_named_config_without_a_line():
    config = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    config["retreival"] = config.pop("retrieval")
    with pytest.raises(config_schema.ConfigError) as raised:
        config_schema.validate(config)
    assert str(raised.value) == ("config: unknown key 'retreival' at the top level; did you "
                                 "mean 'retrieval'?")


def test_a_file_that_is_not_yaml_or_not_a_mapping_is_located(tmp_path):
    from gradedrel.core.errors import InputError

    bad = tmp_path / "bad.yaml"
    bad.write_text("evaluation:\n  depth: [\n")
    with pytest.raises(InputError, match=r"bad\.yaml:3: expected valid YAML"):
        config_schema.load_file(bad)
    bad.write_text("- evaluation\n")
    with pytest.raises(InputError, match=r"bad\.yaml:1: expected a YAML mapping"):
        config_schema.load_file(bad)


def test_layered_files_merge_as_snakemake_merges_configfiles(tmp_path):
    """Later files over earlier ones, mappings key by key, lists replaced whole (as
    snakemake.utils.update_config, the independent source here), then the extra mapping."""
    from snakemake.utils import update_config

    from gradedrel.core.config import layered

    first, second = tmp_path / "a.yaml", tmp_path / "b.yaml"
    first.write_text("retrieval:\n  grid: [InQuery, BM25]\n  depth: 1000\n"
                     "report:\n  figures: {dpi: 300, font_size: 8}\n", encoding="utf-8")
    second.write_text("\ufeffretrieval:\n  grid: [BM25]\nreport:\n  figures: {dpi: 150}\n",
                      encoding="utf-8")
    expected: dict = {}
    for text in (first.read_text(encoding="utf-8"), second.read_text(encoding="utf-8-sig")):
        update_config(expected, yaml.safe_load(text))
    got = layered([first, second], validated=False)
    assert got == expected
    assert got["retrieval"] == {"grid": ["BM25"], "depth": 1000}
    assert got["report"]["figures"] == {"dpi": 150, "font_size": 8}
    again = layered([first, second], {"retrieval": {"depth": 10}}, validated=False)
    assert again["retrieval"]["depth"] == 10 and got["retrieval"]["depth"] == 1000
    # validated: the schema's defaults filled in, as the workflow's config
    full = layered([ROOT / "config" / "config.yaml", second])
    assert full["retrieval"]["grid"] == ["BM25"] and "baseline" in full


@pytest.mark.parametrize("base, overlay, where", [
    # the overlay's bad value: the overlay, its line
    ("evaluation:\n  depth: 50\n", "report: {}\nevaluation:\n  depth: 0\n", ("b", 3)),
    # the base's bad value, the overlay setting only a sibling: the base, its line
    ("retrieval: {}\nevaluation:\n\n  depth: deep\n", "evaluation:\n  seed: 3\n", ("a", 4)),
    # an unknown key in the base: the base, the key's line
    ("evaluation:\n  seed: 3\n  cutofs: [10]\n", "evaluation:\n  depth: 50\n", ("a", 3)),
    # a list replaced whole: the item's line in the file that set the list
    ("evaluation:\n  cutoffs: [10, ten]\n", "\nevaluation:\n  cutoffs:\n  - 5\n  - x\n",
     ("b", 5)),
    # a mapping replaced by a scalar in the overlay: the overlay's line
    ("evaluation:\n  depth: 50\n", "results_dir: r\nevaluation: 7\n", ("b", 2)),
])
def test_a_layered_configs_violation_names_the_file_that_set_it_and_its_line(
        tmp_path, base, overlay, where):
    """configs layered as the workflow layers its --configfile files: the message names
    the file the bad value came from (the last that set it) and the line, worked out by
    hand for each case above."""
    from gradedrel.core.config import layered

    (tmp_path / "a.yaml").write_text(base)
    (tmp_path / "b.yaml").write_text(overlay)
    with pytest.raises(config_schema.ConfigError) as raised:
        layered([tmp_path / "a.yaml", tmp_path / "b.yaml"])
    message = str(raised.value)
    assert message.startswith(f"{tmp_path / where[0]}.yaml:{where[1]}: "), message
    assert "\n" not in message


def test_a_value_given_on_the_command_line_is_named_config_not_a_file(tmp_path):
    (tmp_path / "a.yaml").write_text("evaluation:\n  depth: 50\n")
    with pytest.raises(config_schema.ConfigError) as raised:
        config_schema.layered([tmp_path / "a.yaml"], {"evaluation": {"depth": 0}})
    assert str(raised.value).startswith("config: evaluation.depth: 0 is less than")


def test_snakemakes_configfiles_are_layered_its_own_first_then_the_given_ones_in_order():
    """workflow.configfiles holds the --configfile files, then the Snakefile's configfile;
    Snakemake merges the given ones over the Snakefile's (snakemake.workflow.configfile)."""
    from pathlib import Path

    given = [Path("/p/config/config.yaml"), Path("/p/nf.yaml")]
    assert config_schema.snakemake_layers([*given, "/p/config/config.yaml"], given) == [
        "/p/config/config.yaml", "/p/config/config.yaml", "/p/nf.yaml"]
    assert config_schema.snakemake_layers(["/p/config/config.yaml"], []) == [
        "/p/config/config.yaml"]


def test_evaluation_settings_the_schema_cannot_judge_name_the_file_and_line(tmp_path):
    from gradedrel.evaluation.settings import check_config

    (tmp_path / "a.yaml").write_text("evaluation:\n  depth: 100\n  effort_ranks: [10]\n")
    (tmp_path / "b.yaml").write_text("report: {}\nevaluation:\n  cutoffs: [10, 500]\n")
    files = [tmp_path / "a.yaml", tmp_path / "b.yaml"]
    with pytest.raises(config_schema.ConfigError) as raised:
        check_config(config_schema.layered(files), files)
    assert str(raised.value) == (f"{tmp_path / 'b.yaml'}:3: evaluation.cutoffs: [500] outside "
                                 "1..depth (100, evaluation.depth)")
    # an effort rank set in the first file, the depth lowered in the second: the rank's line
    (tmp_path / "b.yaml").write_text("evaluation:\n  cutoffs: [5]\n  depth: 8\n")
    with pytest.raises(config_schema.ConfigError, match=rf"^{tmp_path / 'a.yaml'}:3: "
                                                        r"evaluation.effort_ranks: \[10\]"):
        check_config(config_schema.layered(files), files)
    # on the command line: named config, as the schema's messages do
    with pytest.raises(config_schema.ConfigError, match=r"^config: evaluation.cutoffs: \[500\]"):
        check_config(config_schema.layered(files[:1], {"evaluation": {"cutoffs": [500]}}),
                     files[:1], {"evaluation": {"cutoffs": [500]}})
