"""A key given twice in any YAML input, or a label twice in a grade map, is refused with the
file, the line and both values (PyYAML keeps the last silently: a grade map's label given
twice would remap judgements)."""
import pytest

from gradedrel.core import yaml_io
from gradedrel.core.errors import InputError


def test_a_key_given_twice_names_both_lines_and_values(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text('collections:\n  tiny:\n    grade_map: {"A": 3, "B": 1}\n'
                    '    grade_map: {"A": 0}\n')
    with pytest.raises(InputError) as raised:
        yaml_io.load_file(path)
    assert str(raised.value) == (f"{path}:4: expected each key once in a mapping; found "
                                 "\"key 'grade_map' twice: line 3 = a mapping, line 4 = a mapping\"")
    with pytest.raises(InputError, match=r"x.yaml:1: .*key 'A' twice: line 1 = '3', line 1 = '0'"):
        yaml_io.load('{"A": 3, "A": 0}', "x.yaml")


def test_the_same_text_without_duplicates_reads_as_pyyaml_reads_it():
    import yaml

    text = "a: 1\nb: [1, {c: d}]\nbase: &x {k: 1}\nmerged: {<<: *x, k: 2}\n"
    assert yaml_io.load(text) == yaml.safe_load(text)
    assert yaml_io.load("") is None


def test_every_yaml_reader_of_the_project_refuses_a_key_twice(tmp_path):
    from gradedrel.core.config import load_file
    from gradedrel.plans.model import parse_plans
    from gradedrel.report import published

    config = tmp_path / "config.yaml"
    config.write_text("evaluation:\n  depth: 10\n  depth: 100\n")
    with pytest.raises(InputError, match=r"config.yaml:3: expected each key once.*'depth'"):
        load_file(config)
    with pytest.raises(InputError, match=r"plans.yaml:2: expected each key once.*'qid'"):
        parse_plans("plans:\n- {qid: '1', qid: '2', facets: []}\n", "plans.yaml")
    paper = tmp_path / "paper.yaml"
    paper.write_text("avp: {}\navp: {}\n")
    with pytest.raises(InputError, match=r"paper.yaml:2: expected each key once"):
        published.load(paper)


@pytest.mark.parametrize("text", ["1=3,1=0,2=3", '{"1": 3, "1": 0, "2": 3}'])
def test_a_grade_map_label_given_twice_on_the_command_line(text):
    from gradedrel.cli import parse_grade_map

    with pytest.raises(InputError) as raised:
        parse_grade_map(text)
    assert str(raised.value) == ("--grade-map: expected each relevance label once (compared "
                                 "as the grade map compares them: 1, '1', '01' and '１' are "
                                 "one); found \"label 1 twice: '1': 3 and '1': 0\"")
    assert parse_grade_map("1=3,2=0").level("1") == 3


@pytest.mark.workflow
def test_the_workflow_stops_on_a_config_key_given_twice(tmp_path):
    import shutil

    from conftest import TINY, run_snakemake

    shutil.copytree(TINY, tmp_path / "fixture")
    text = (tmp_path / "fixture" / "config.yaml").read_text()
    line = next(i for i, l in enumerate(text.splitlines(), 1) if "grade_map:" in l)
    indent = text.splitlines()[line - 1].split("grade_map")[0]
    doubled = text.replace(text.splitlines()[line - 1],
                           text.splitlines()[line - 1] + f'\n{indent}grade_map: {{"1": 0}}', 1)
    (tmp_path / "doubled.yaml").write_text(doubled)
    result = run_snakemake(tmp_path, "-n", configfile=tmp_path / "doubled.yaml")
    assert result.returncode == 1
    assert [l for l in result.stderr.splitlines() if l.startswith("gradedrel:")] == [
        f"gradedrel: {tmp_path / 'doubled.yaml'}:{line + 1}: expected each key once in a "
        f"mapping; found \"key 'grade_map' twice: line {line} = a mapping, line {line + 1} "
        "= a mapping\""]
    assert not (tmp_path / "results").exists()
