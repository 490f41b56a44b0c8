"""Significance can be switched off (config's ``evaluation.significance: null``, ``gradedrel
evaluate --no-significance``), its files stay there and say so, and what does not test
loads no statistics library: ``sys.modules`` of a fresh interpreter after an evaluation and
after a retrieve job's settings are built."""
import json
import subprocess
import sys
import textwrap

import pandas as pd
import pytest

from conftest import ROOT
from gradedrel.cli import main
from gradedrel.core.config import layered, load_file
from gradedrel.evaluation.contract import COLUMNS, SIGNIFICANCE_TABLES
from gradedrel.evaluation.settings import Settings
from gradedrel.report.settings import report_settings

from helpers_eval import synthetic_collection, write_trec_qrels, write_trec_run

#: What an evaluation without tests, or a job that only builds settings, must not load.
HEAVY = ("scipy.stats", "statsmodels", "matplotlib", "ir_datasets")


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """A qrels file and three runs (so there are Friedman rows and post-hoc pairs)."""
    tmp = tmp_path_factory.mktemp("switch")
    qrels, run = synthetic_collection(seed=5, n_topics=15, n_docs=150, depth=40)
    write_trec_qrels(qrels, tmp / "qrels.txt")
    scores = run["score"].to_numpy()
    for name, score in (("a", scores), ("b", scores[::-1]), ("c", scores ** 2)):
        write_trec_run(run.assign(score=score), tmp / f"{name}.run")
    args = ["evaluate", "--qrels", str(tmp / "qrels.txt"), "--standard-measures",
            "nDCG@10;AP(rel=3)", "--baseline", "a",
            *(f"{name}={tmp / f'{name}.run'}" for name in "abc")]
    return tmp, args


def loaded_after(code: str) -> list[str]:
    """The modules of :data:`HEAVY` (and their submodules) loaded in a fresh interpreter
    after ``code`` ran."""
    child = textwrap.dedent(code) + textwrap.dedent(f"""
        import json, sys
        heavy = {HEAVY!r}
        print(json.dumps(sorted(m for m in sys.modules
                                if any(m == h or m.startswith(h + ".") for h in heavy))))
        """)
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def evaluate_in_a_child(args: list[str]) -> str:
    return f"""
        from gradedrel.cli import main
        assert main({args!r}) == 0
        """


def test_without_significance_the_evaluation_loads_no_statistics_library(inputs):
    tmp, args = inputs
    assert loaded_after(evaluate_in_a_child(
        args + ["--no-significance", "--out", str(tmp / "off")])) == []


def test_with_significance_scipy_only_where_a_test_runs(inputs):
    tmp, args = inputs
    loaded = loaded_after(evaluate_in_a_child(args + ["--out", str(tmp / "on")]))
    assert "scipy.stats" in loaded  # the tests ran (the check above can fail)
    assert not [m for m in loaded if m.split(".")[0] in ("statsmodels", "matplotlib",
                                                         "ir_datasets")], loaded


def test_a_retrieve_jobs_settings_load_no_statistics_library():
    # scripts/retrieve.py and baseline_run.py build the evaluation settings for their
    # ir_metadata records (gradedrel.job.ir_metadata_context)
    assert loaded_after("""
        from gradedrel.core.config import layered
        from gradedrel.job import ir_metadata_context
        goal, _ = ir_metadata_context(layered(["config/config.yaml"]), "expert", None)
        assert goal["evaluation"]["significance test"]
        """) == []


def test_the_files_are_there_with_their_columns_and_say_why_they_are_empty(inputs, capsys):
    tmp, args = inputs
    assert main(args + ["--out", str(tmp / "with")]) == 0
    capsys.readouterr()
    assert main(args + ["--no-significance", "--out", str(tmp / "without")]) == 0
    printed = capsys.readouterr().out
    assert "significance: not tested" in printed
    for name in SIGNIFICANCE_TABLES:
        tested = pd.read_csv(tmp / "with" / f"{name}.tsv", sep="\t")
        untested = pd.read_csv(tmp / "without" / f"{name}.tsv", sep="\t")
        assert len(tested) > 0 and untested.columns.tolist() == COLUMNS[name] == \
            tested.columns.tolist()
        assert untested.empty
    record = json.loads((tmp / "without" / "provenance.json").read_text())
    assert record["config"]["evaluation"]["significance_tests"] is False
    with_tests = json.loads((tmp / "with" / "provenance.json").read_text())
    assert "significance_tests" not in with_tests["config"]["evaluation"]  # as before
    assert Settings.from_record(record["config"]["evaluation"]).significance_tests is False
    assert Settings.from_record(with_tests["config"]["evaluation"]).significance_tests
    for name in ("per_topic", "means", "pr_curves", "gain_curves", "effort"):
        assert (tmp / "with" / f"{name}.tsv").read_bytes() == \
            (tmp / "without" / f"{name}.tsv").read_bytes(), name
    # and the same directory evaluated again with tests fills the files again (none stale)
    assert main(args + ["--out", str(tmp / "without")]) == 0
    for name in SIGNIFICANCE_TABLES:
        assert (tmp / "with" / f"{name}.tsv").read_bytes() == \
            (tmp / "without" / f"{name}.tsv").read_bytes()


def test_config_null_is_the_flag(inputs, tmp_path):
    tmp, args = inputs
    config = tmp_path / "config.yaml"
    config.write_text("evaluation:\n  significance: null\n")
    section = load_file(config)["evaluation"]
    assert section["significance"] is None  # the schema takes null, no defaults poured in
    settings = Settings.from_config(section)
    assert not settings.significance_tests and settings.baseline_run == Settings.baseline_run
    assert Settings.from_config({}).significance_tests
    assert main(args + ["--config", str(config), "--out", str(tmp_path / "null")]) == 0
    assert main(args + ["--no-significance", "--out", str(tmp_path / "flag")]) == 0
    for name in SIGNIFICANCE_TABLES:
        assert (tmp_path / "null" / f"{name}.tsv").read_bytes() == \
            (tmp_path / "flag" / f"{name}.tsv").read_bytes()


def test_an_unknown_correction_names_the_key_and_the_known_ones():
    with pytest.raises(ValueError, match=r"evaluation\.significance\.correction.*holm.*'sidak'"):
        Settings.from_config({"significance": {"correction": "sidak"}})


def test_the_workflow_config_with_significance_null_still_names_the_reports_baseline():
    config = layered(["config/config.yaml"], {"evaluation": {"significance": None}})
    assert config["evaluation"]["significance"] is None
    assert report_settings(config, "baseline") == {"baseline": Settings.baseline_run}


def test_the_research_goal_of_a_job_without_tests_names_none():
    from gradedrel.job import ir_metadata_context

    config = layered(["config/config.yaml"], {"evaluation": {"significance": None}})
    goal, _ = ir_metadata_context(config, "expert", None)
    assert goal["evaluation"]["significance test"] == []


def test_the_reports_table_of_an_untested_evaluation_says_not_tested(inputs):
    from gradedrel.report.tables import NOT_TESTED, significance_table

    tmp, args = inputs
    assert main(args + ["--no-significance", "--out", str(tmp / "report")]) == 0
    frame = pd.read_csv(tmp / "report" / "significance_vs_baseline.tsv", sep="\t")
    untested = significance_table(frame, "t", "randomisation_p_adjusted", 0.05, tested=False)
    assert untested.notes == [NOT_TESTED] and untested.frame.empty
    assert significance_table(frame, "t", "randomisation_p_adjusted", 0.05).notes != [NOT_TESTED]
