"""A change re-runs exactly what depends on it (issue 12): a dry run on a copy of a
finished project lists the rules that would run after each kind of edit."""
from pathlib import Path

import pytest
import yaml

from conftest import copy_project, planned_rules, run_snakemake

pytestmark = pytest.mark.workflow

# each group with the report pages (workflow/rules/report_pages.smk) of the files it writes
THESAURUS = {"thesaurus_fetch", "thesaurus_read", "report_page_thesaurus_summary"}
READ_THESAURUS = {"thesaurus_read", "report_page_thesaurus_summary"}
INDEX = {"index_collection", "index_arrays"}
COLLECTION = {"prepare_topics_qrels", "baseline_run", "report_page_testbed"}
PLANS = {"plan_requests"}
PLAN_SET = {"merge_curated_plans", "select_topics", "compile_queries", "syn_statistics",
            "report_page_plans", "report_page_selected_topics", "report_page_query_statistics",
            "report_page_syn_df"}
RETRIEVAL = {"retrieve", "report_page_not_ranked"}
EVALUATION = {"evaluate_runs", "compare_plan_sets", "report_page_evaluation_means",
              "report_page_evaluation_effort", "report_page_curation"}
TABLES = {"report_avp_table", "report_testbed_table", "report_effort_table",
          "report_significance_table", "report_standard_table"}
# the findings of each plan set and model, the summary over them, and across collections
FINDINGS = {"report_findings", "report_summary", "report_across_collections",
            "report_page_verdicts", "report_page_summary", "report_page_across_collections"}
FIGURES = {"report_figure_pr", "report_figure_gain", "report_figure_difference"}
REPORT = TABLES | FINDINGS | FIGURES
ALL = {"all"}


def dry_run(project: Path, extra: dict | None = None) -> set[str]:
    configs = [project / "fixture" / "config.yaml"]
    if extra is not None:
        (project / "extra.yaml").write_text(yaml.safe_dump(extra))
        configs.append(project / "extra.yaml")
    return planned_rules(run_snakemake(project, "-n", snakefile=project / "Snakefile",
                                       configfile=configs))


@pytest.fixture
def project(finished_project, tmp_path) -> Path:
    return copy_project(finished_project, tmp_path / "moved")


def test_a_finished_project_moved_elsewhere_reruns_nothing(project):
    assert dry_run(project) == set()


def test_an_edited_local_qrels_file_reruns_the_collection_and_everything_downstream(project):
    with open(project / "fixture" / "qrels.txt", "a") as handle:
        handle.write("4 0 d09 1\n")  # one more judgement (line 17)
    expected = COLLECTION | PLANS | PLAN_SET | RETRIEVAL | EVALUATION | REPORT | ALL
    assert dry_run(project) == expected
    with open(project / "fixture" / "qrels.txt", "a") as handle:
        handle.write("4 0 d10 7\n4 d11 1\n")  # a bad label (line 18), a 3-field line
    before = sorted(p.stat().st_mtime_ns for p in (project / "results").rglob("*"))
    result = run_snakemake(project, snakefile=project / "Snakefile",
                           configfile=project / "fixture" / "config.yaml")
    # stopped before any job runs (the input check at parse time), in one line
    assert result.returncode != 0
    assert [line for line in result.stderr.splitlines() if "qrels.txt" in line] == [
        "gradedrel: fixture/qrels.txt:18: expected a relevance label in the grade map "
        "(-1, 1, 2, 3, 4); found '7'"]
    assert sorted(p.stat().st_mtime_ns for p in (project / "results").rglob("*")) == before


def test_an_edited_thesaurus_copy_rereads_it(project):
    with open(project / "fixture" / "thesaurus.rdf", "a") as handle:
        handle.write("\n")
    assert dry_run(project) == (READ_THESAURUS | PLANS | PLAN_SET | RETRIEVAL | EVALUATION
                                | REPORT | ALL)


@pytest.mark.parametrize("edit, expected", [
    # a plan set's description: only its findings report (the setting table) changes, and
    # the summary that reads its verdict tables
    ({"collections": {"tiny": {"plan_sets": {"auto": {"description": "by program"}}}}},
     FINDINGS | ALL),
    # a new plan set: its own chain, and the comparison of plan sets
    ({"collections": {"tiny": {"plan_sets": {"auto": {}, "again": {}}}}},
     PLAN_SET | RETRIEVAL | EVALUATION | REPORT | ALL),
    ({"analysis": {"major_share": 0.6}},
     PLANS | PLAN_SET | RETRIEVAL | EVALUATION | REPORT | ALL),
    # the testbed table reads no evaluation file
    ({"evaluation": {"cutoffs": [10, 50]}}, EVALUATION | REPORT - {"report_testbed_table"} | ALL),
    ({"report": {"alpha": 0.01}}, TABLES | ALL),
    ({"report": {"figures": {"dpi": 150}}},
     FIGURES | {"report_across_collections", "report_page_across_collections"} | ALL),
    # a collection's own analysis setting: its plans and everything after them
    ({"collections": {"tiny": {"analysis": {"major_share": 0.6}}}},
     PLANS | PLAN_SET | RETRIEVAL | EVALUATION | REPORT | ALL),
    ({"index": {"stemmer": "weakporter"}},
     INDEX | COLLECTION | PLANS | PLAN_SET | RETRIEVAL | EVALUATION | REPORT | ALL),
    # a document setting: the text indexed (here the id too, a field every record has)
    ({"collections": {"tiny": {"doc_text_fields": ["docno", "text"]}}},
     INDEX | COLLECTION | PLANS | PLAN_SET | RETRIEVAL | EVALUATION | REPORT | ALL),
    ({"collections": {"tiny": {"grade_map": {"1": 3, "2": 2, "3": 2, "4": 1, "-1": 0}}}},
     COLLECTION | PLANS | PLAN_SET | RETRIEVAL | EVALUATION | REPORT | ALL),
], ids=["plan-set-description", "new-plan-set", "analysis", "evaluation", "report-table",
        "report-figure-style", "collection-analysis", "index", "documents", "grade-map"])
def test_a_setting_reruns_exactly_what_depends_on_it(project, edit, expected):
    assert dry_run(project, edit) == expected
