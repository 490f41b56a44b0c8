"""One measure system: ``evaluation.also`` adds measures to the list without restating it,
and a gradedrel measure listed under ``standard_measures`` is told where it belongs."""
import pandas as pd
import pytest

from gradedrel.cli import main
from gradedrel.evaluation.settings import Settings, with_also
from gradedrel.evaluation.standard_measures import StandardMeasure


def names(settings):
    return [str(m) for m in settings.measure_list()]


def test_also_appends_to_the_default_grid_without_restating_it():
    grid = names(Settings.from_config({}))
    also = names(Settings.from_config({"also": ["Q(beta=1)", "nDCG@20"]}))
    assert also == grid + ["Q(beta=1)", "nDCG@20"]


def test_also_appends_to_a_configured_list_and_an_empty_also_changes_nothing():
    listed = Settings.from_config({"measures": ["AvP(level=2)"], "also": ["P@5"]})
    assert names(listed) == ["AvP(level=2)", "P@5"]
    # an ir_measures name is computed by ir_measures like a standard measure
    assert isinstance(listed.measure_list()[1], StandardMeasure)
    assert Settings.from_config({"also": []}) == Settings.from_config({})
    assert with_also(None, []) is None
    assert with_also(["AvP"], ["Q(beta=1)"]) == ("AvP", "Q(beta=1)")


@pytest.mark.parametrize("name", ["JK_DCG", "Q(beta=1)", "AvP(level=3)"])
def test_a_gradedrel_measure_under_standard_measures_says_where_it_belongs(name):
    with pytest.raises(ValueError) as error:
        Settings.from_config({}, [name])
    message = str(error.value)
    assert "standard_measures" in message and "evaluation.also" in message
    assert "not an ir_measures measure" not in message


def test_ir_measures_names_under_standard_measures_are_accepted():
    settings = Settings.from_config({}, ["nDCG@10", "AP(rel=3)"])
    assert names(settings)[-2:] == ["nDCG@10", "AP(rel=3)"]


def one_topic(tmp_path):
    """One topic; ranks 1..6 hold levels 3 0 2 0 0 1; d7 (level 3) is not retrieved."""
    (tmp_path / "q.txt").write_text("".join(f"1 0 d{i} {g}\n" for i, g in
                                            [(1, 3), (2, 0), (3, 2), (6, 1), (7, 3)]))
    (tmp_path / "r.run").write_text("".join(f"1 Q0 d{i} {i} {10 - i} t\n" for i in range(1, 7)))
    return ["evaluate", "--qrels", str(tmp_path / "q.txt"), "--out", str(tmp_path / "out"),
            f"A={tmp_path / 'r.run'}"]


def test_the_command_computes_a_config_also_measure_beside_the_grid(tmp_path):
    (tmp_path / "c.yaml").write_text(
        "evaluation:\n  also: [\"JK_DCG(b=5,profile='3')@20\"]\n")
    assert main(one_topic(tmp_path) + ["--config", str(tmp_path / "c.yaml")]) == 0
    means = pd.read_csv(tmp_path / "out" / "means.tsv", sep="\t").set_index("measure")["mean"]
    # b = 5: no discount before rank 5; only level 3 earns gain: the 3 at rank 1
    assert means["JK_DCG(b=5,profile='3')@20"] == pytest.approx(3.0)
    # the grid is there too, and the added measure comes after it
    assert means.index.tolist()[:-1] == names(Settings.from_config({}))
    assert means.index.tolist()[-1] == "JK_DCG(b=5,profile='3')@20"


def test_the_command_names_where_a_misplaced_family_belongs(tmp_path, capsys):
    (tmp_path / "c.yaml").write_text("standard_measures: [\"JK_DCG\"]\n")
    assert main(one_topic(tmp_path) + ["--config", str(tmp_path / "c.yaml")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "evaluation.also" in err and "'JK_DCG'" in err
    assert not (tmp_path / "out" / "means.tsv").exists()
