"""The pieces of `gradedrel compare` (gradedrel.compare.command), on constructed data; the
command itself runs on the finished fixture workflow in tests/workflow/test_compare_command.py."""
import json
import logging
import math
from dataclasses import asdict, fields

import numpy as np
import pandas as pd
import pytest
import yaml

from conftest import ROOT
from gradedrel.core.errors import InputError
from gradedrel.core.params import plain
from gradedrel.evaluation.settings import Settings
from gradedrel.compare import command as compare
from gradedrel.report import figures
from gradedrel.report.design import Constants
from gradedrel.report.published import load as load_published
from gradedrel.study import CollectionStudy

PUBLISHED = load_published(ROOT / "config/published/jk2000.yaml")


def recorded(settings: Settings) -> dict:
    """The settings as evaluate_files records them in provenance.json."""
    record = asdict(settings)
    if record["measures"] is None:
        del record["measures"]
    return json.loads(json.dumps(plain(record)))


@pytest.mark.parametrize("section, standard", [
    ({}, []),
    ({"levels": [2, 3], "gains": {"1": 1, "2": 5, "3": 10}, "dcg_bases": [5],
      "profiles": {"3": [3], "all": [1, 2, 3]}, "missing_topics": "skip",
      "measures": ["AvP", "Q(beta=1)"], "significance": {"randomisation_trials": 50,
                                                         "measures": ["AvP(level=3)"]}},
     ["nDCG@10"]),
])
def test_the_recorded_settings_read_back_as_the_same_settings(section, standard):
    settings = Settings.from_config(section, standard)
    assert Settings.from_record(recorded(settings)) == settings


def test_a_recorded_setting_this_version_does_not_know_is_named():
    with pytest.raises(ValueError, match=r"x.json: .*does not know: \['colour'\]"):
        Settings.from_record({**recorded(Settings()), "colour": "red"}, "x.json")


def test_the_default_design_is_the_studys():
    design = next(f for f in fields(CollectionStudy) if f.name == "design")
    assert compare.DEFAULT_DESIGN == design.default


def test_the_config_is_the_projects_with_the_given_files_laid_over_and_validated(tmp_path):
    project = ROOT / "config/config.yaml"
    (tmp_path / "over.yaml").write_text("report: {figures: {dpi: 100}}\n")
    config = compare.read_config([project, tmp_path / "over.yaml"])
    plain = compare.read_config([project])
    assert config["report"]["figures"]["dpi"] == 100
    assert config["report"]["figures"]["style"] == plain["report"]["figures"]["style"]
    (tmp_path / "bad.yaml").write_text("report: [\n")
    with pytest.raises(InputError, match=r"bad.yaml:\d+: expected valid YAML"):
        compare.read_config([project, tmp_path / "bad.yaml"])
    (tmp_path / "typo.yaml").write_text("report: {alhpa: 0.1}\n")
    with pytest.raises(ValueError, match=r"typo\.yaml:1: unknown key 'alhpa'.*did you mean "
                                         r"'alpha'"):
        compare.read_config([project, tmp_path / "typo.yaml"])


def test_labels_are_one_word_and_not_a_query_types():
    compare.check_labels({"BM25": "x.run", "my-run_2": "y.run"}, ["SUM/u"])
    for label in ("my run", "tab\there", "SUM/u", ""):
        with pytest.raises(InputError, match="x.run: expected a run label"):
            compare.check_labels({label: "x.run"}, ["SUM/u"])


def test_coverage_counts_missing_and_other_topics_and_refuses_none(caplog):
    with caplog.at_level(logging.WARNING, logger="gradedrel"):
        cov = compare.coverage("mine", "m.run", ["1", "2", "9"], ["1", "2", "3", "4"],
                               "topics.tsv", "zero")
    assert (cov.ranked, cov.missing, cov.outside) == (2, 2, 1)
    assert "m.run: 2 of the plan set's 4 topics are not in the run and score zero" in caplog.text
    with pytest.raises(InputError) as error:
        compare.coverage("mine", "m.run", ["901", "902"], ["1", "2"], "topics.tsv", "zero")
    assert str(error.value) == ("m.run: expected a run on the plan set's topics (2 in "
                                "topics.tsv, e.g. 1, 2); found 'none of its 2 topics (901, 902)'")


def means_frame(values: dict) -> pd.DataFrame:
    """A means.tsv frame: {(run, level): (mean, topics)}."""
    return pd.DataFrame([(run, f"AvP(level={lv})", mean, topics)
                         for (run, lv), (mean, topics) in values.items()],
                        columns=["run", "measure", "mean", "topics"])


QT = ["SUM/u", "SUM/e", "SSYN-C/u", "SSYN-C/e", "WSYN/u", "WSYN/e"]


def test_the_avp_table_adds_a_row_per_level_and_run_after_the_levels_rows():
    values = {(q, lv): (0.1 * lv + 0.01 * i, 30) for i, q in enumerate(QT) for lv in (1, 2, 3)}
    values |= {("mine", lv): (0.5, 30) for lv in (1, 2, 3)}
    values |= {("yours", lv): (0.25, 29) for lv in (1, 2, 3)}
    table = compare.avp_with_runs(means_frame(values), PUBLISHED, QT, ["mine", "yours"],
                                  [1, 2, 3], "t")
    frame = table.frame
    assert frame["exp."].tolist() == ["u", "e", "mine", "yours"] * 3
    assert list(frame.columns)[-2:] == ["your run", "topics"]
    mine = frame[frame["exp."] == "mine"]
    assert mine["your run"].tolist() == [50.0, 50.0, 50.0]
    assert mine["SUM ours"].isna().all() and mine["WSYN paper"].isna().all()
    assert frame.loc[frame["exp."] == "yours", "topics"].tolist() == ["29"] * 3
    u3 = frame[(frame["level"] == "3 high") & (frame["exp."] == "u")].iloc[0]
    assert u3["SUM paper"] == pytest.approx(25.9) and u3["SUM ours"] == pytest.approx(30.0)
    assert math.isnan(u3["your run"])
    assert "| 3 high | mine | – | – |" in table.to_markdown()


def per_topic_frame(values: dict) -> pd.DataFrame:
    """{run: [AvP(level=3) per topic]} as a per_topic.tsv frame."""
    return pd.DataFrame([(run, str(q), "AvP(level=3)", v) for run, column in values.items()
                         for q, v in enumerate(column)],
                        columns=["run", "qid", "measure", "value"])


def test_the_summary_on_a_hand_worked_case():
    """Four requests, your run 0.1 above SUM/u on each: effect +10 points, the bootstrap
    interval [10, 10] (every resample has the same mean), and the randomisation test's p is
    the chance that four random signs agree, 2/16 = 0.125."""
    sum_u = [0.2, 0.4, 0.1, 0.5]
    per_topic = per_topic_frame({"SUM/u": sum_u, "WSYN/e": [0.3, 0.3, 0.3, 0.3],
                                 "mine": [v + 0.1 for v in sum_u]})
    rows = compare.summary(per_topic, ["mine"], "SUM/u", "WSYN/e", 3, PUBLISHED,
                           Constants(resamples=2000, trials=20000, seed=1))
    assert rows["comparison"].tolist() == ["WSYN/e - SUM/u", "mine - SUM/u", "mine - WSYN/e"]
    mine = rows.iloc[1]
    assert mine["effect"] == pytest.approx(10.0)
    assert (mine["low"], mine["high"]) == pytest.approx((10.0, 10.0))
    assert mine["p_value"] == pytest.approx(0.125, abs=0.01)
    assert mine["paper"] == pytest.approx(41.0 - 25.9)
    assert mine["paper_comparison"] == "WSYN/e - SUM/u"
    other = rows.iloc[2]   # mine - WSYN/e: +0.3 - 0.3 + ... = mean(0, .2, -.1, .3)
    assert other["effect"] == pytest.approx(100 * np.mean([0.0, 0.2, -0.1, 0.3]))
    assert math.isnan(other["paper"]) and other["paper_comparison"] == ""


def test_the_best_expanded_strong_type_is_the_highest_at_the_level_first_on_ties():
    means = means_frame({("SSYN-C/e", 3): (0.3, 9), ("WSYN/e", 3): (0.4, 9)})
    assert compare.best_expanded_strong(means, ["SSYN-C/e", "WSYN/e"], 3) == "WSYN/e"
    means = means_frame({("SSYN-C/e", 3): (0.4, 9), ("WSYN/e", 3): (0.4, 9)})
    assert compare.best_expanded_strong(means, ["SSYN-C/e", "WSYN/e"], 3) == "SSYN-C/e"


def test_your_runs_have_styles_of_their_own():
    style = yaml.safe_load((ROOT / "config/config.yaml").read_text())["report"]["figures"]
    added = figures.with_runs(style["style"], ["a", "b", "c", "d", "e"])
    taken = {(s["colour"], s["marker"]) for s in style["style"].values()}
    colours = {s["colour"] for s in style["style"].values()} | {style["ideal"]["colour"]}
    for run in "abcd":
        assert (added[run]["colour"], added[run]["marker"]) not in taken
        assert added[run]["colour"] not in colours
    assert len({added[r]["colour"] for r in "abcd"}) == 4
    assert added["e"] == added["a"] and added["SUM/u"] == style["style"]["SUM/u"]


@pytest.mark.parametrize("entries, columns", [(3, 3), (7, 7), (8, 4), (9, 5), (14, 7),
                                               (15, 5)])
def test_a_legend_wraps_into_even_rows_past_seven_entries(entries, columns):
    assert figures.legend_columns(entries) == columns


def test_the_default_output_folder_names_the_plan_set():
    assert str(compare.locate("cranfield").default_out) == "compare/cranfield/expert/InQuery"


def test_an_out_folder_is_new_empty_or_an_earlier_comparisons(tmp_path):
    compare.check_out(tmp_path / "new")
    (tmp_path / "empty").mkdir()
    compare.check_out(tmp_path / "empty")
    earlier = tmp_path / "earlier"
    earlier.mkdir()
    (earlier / "provenance.json").write_text(json.dumps({"step": "compare"}))
    compare.check_out(earlier)
    other = tmp_path / "other"
    other.mkdir()
    (other / "thesis.tex").write_text("mine")
    (tmp_path / "file").write_text("x")
    for path, found in ((other, "other files"), (tmp_path / "file", "a file")):
        with pytest.raises(InputError, match=f"{path}: expected an --out folder that is new, "
                                             f"empty or an earlier comparison's.*'{found}'"):
            compare.check_out(path)
    (other / "provenance.json").write_text(json.dumps({"step": "evaluate"}))
    with pytest.raises(InputError):
        compare.check_out(other)


def test_a_missing_run_file_is_named(tmp_path):
    (tmp_path / "here.run").write_text("1 Q0 d1 1 1.0 x\n")
    compare.check_run_files({"here": tmp_path / "here.run"})
    with pytest.raises(FileNotFoundError, match=r"^gone.run: no such run file \(of mine: a "
                                                r"TREC run, 'qid Q0 docno rank score tag'"):
        compare.check_run_files({"here": tmp_path / "here.run", "mine": "gone.run"})


def test_the_evaluations_topic_warnings_are_left_out_while_comparing(caplog):
    from gradedrel.evaluation.evaluate import NOT_JUDGED, NOT_RANKED, log

    with caplog.at_level(logging.WARNING, logger="gradedrel"):
        with compare.topic_warnings_left_out():
            log.warning(NOT_RANKED, "mine", 1, "zero", "2")
            log.warning(NOT_JUDGED, "mine", 1, "3")
            log.warning("something else")
        log.warning(NOT_JUDGED, "mine", 1, "3")
    assert [r.getMessage() for r in caplog.records] == [
        "something else",
        "run mine: 1 topic(s) not evaluated (not among the selected, judged topics), ignored: 3"]
