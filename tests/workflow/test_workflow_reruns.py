"""A change re-runs exactly what depends on it (issue 12): a dry run on a copy of a
finished project lists the rules that would run after each kind of edit."""
from pathlib import Path

import pytest
import yaml
from gradedrel.study_outputs import collection_rule

from conftest import copy_project, planned_rules, run_snakemake

pytestmark = pytest.mark.workflow

# Each job writes the report page of the files it writes (no job renders a page alone).
THESAURUS = {"thesaurus_fetch", "thesaurus_read"}
READ_THESAURUS = {"thesaurus_read"}
INDEX = {"index_collection", "index_arrays"}
REQUESTS = {"prepare_requests", "baseline_run"}
JUDGEMENTS = {"prepare_topics_qrels"}
COLLECTION = REQUESTS | JUDGEMENTS
PLANS = {"plan_requests"}
# a plan set's plans, candidate topics, the sources of its keys and its queries' #syn
# statistics (no judgement is read)
PLAN_SET = {"merge_curated_plans", "syn_statistics"}
# the plan set's queries compiled and run (one job)
RETRIEVAL = {"retrieve"}
# the evaluation selects the plan set's topics (its candidates with the judgements it
# needs) before it evaluates them; the numbers the report reads beside each evaluation
# (rules evaluate_comparisons, one per collection, and evaluate_difference_bands)
EVALUATION = {"evaluate_runs", "compare_plan_sets", collection_rule("evaluate_comparisons", "tiny"),
              "evaluate_difference_bands"}
# the plain baseline's evaluation: after its run (the index, the requests) or the judgements
BASELINE_EVALUATION = {"evaluate_baseline"}
# the findings (and tables) of each plan set and model, the summary over them, and across
# collections; the Snakemake report's copy of the summary's forest plot and its landing page
# (the fixture runs no primary condition, so no copy of a plan set's figures)
SCREEN = {"report_screen_forest", "report_landing"}
FINDINGS = {"report_findings", "report_summary",
            "report_across_collections"} | SCREEN
FIGURES = {"report_figures"}
REPORT = FINDINGS | FIGURES
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
    # the judgements only: no plan, query or retrieval job (their inputs do not change)
    expected = JUDGEMENTS | EVALUATION | BASELINE_EVALUATION | REPORT | ALL
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
    assert dry_run(project) == (READ_THESAURUS | PLANS | PLAN_SET | RETRIEVAL
                                | EVALUATION | REPORT | ALL)


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
    ({"evaluation": {"cutoffs": [10, 50]}}, EVALUATION | BASELINE_EVALUATION | REPORT | ALL),
    # a table setting: the findings job (tables and findings), and what reads its verdicts
    ({"report": {"alpha": 0.01}}, FINDINGS | ALL),
    # a figure setting: the figures, the summary (it draws each testbed's forest plot) and
    # the across-collections figure; no table or findings job
    ({"report": {"figures": {"dpi": 150}}},
     FIGURES | {"report_summary", "report_across_collections"} | SCREEN | ALL),
    # a collection's own analysis setting: its plans and everything after them
    ({"collections": {"tiny": {"analysis": {"major_share": 0.6}}}},
     PLANS | PLAN_SET | RETRIEVAL | EVALUATION | REPORT | ALL),
    # the index: everything but the requests (read from the topics alone)
    ({"index": {"stemmer": "weakporter"}},
     INDEX | COLLECTION - {"prepare_requests"} | PLANS | PLAN_SET | RETRIEVAL
     | EVALUATION | BASELINE_EVALUATION | REPORT | ALL),
    # a document setting: the text indexed (here the id too, a field every record has)
    ({"collections": {"tiny": {"doc_text_fields": ["docno", "text"]}}},
     INDEX | COLLECTION - {"prepare_requests"} | PLANS | PLAN_SET | RETRIEVAL
     | EVALUATION | BASELINE_EVALUATION | REPORT | ALL),
    # the grade map: the judgements only, as an edited qrels file
    ({"collections": {"tiny": {"grade_map": {"1": 3, "2": 2, "3": 2, "4": 1, "-1": 0}}}},
     JUDGEMENTS | EVALUATION | BASELINE_EVALUATION | REPORT | ALL),
], ids=["plan-set-description", "new-plan-set", "analysis", "evaluation", "report-table",
        "report-figure-style", "collection-analysis", "index", "documents", "grade-map"])
def test_a_setting_reruns_exactly_what_depends_on_it(project, edit, expected):
    assert dry_run(project, edit) == expected


def _reversed(value):
    """A config with every mapping's keys in reverse order (as a YAML tool may rewrite it)."""
    if isinstance(value, dict):
        return {k: _reversed(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [_reversed(v) for v in value]
    return value


def test_the_same_configuration_with_its_keys_in_another_order_reruns_nothing(project):
    for path in (project / "config" / "config.yaml", project / "fixture" / "config.yaml"):
        config = yaml.safe_load(path.read_text(encoding="utf-8"))
        path.write_text(yaml.safe_dump(_reversed(config), sort_keys=False, allow_unicode=True),
                        encoding="utf-8")
    assert dry_run(project) == set()


def test_a_finished_project_copied_into_a_fresh_clone_reruns_nothing(project):
    import os
    import subprocess
    import sys
    import time

    from conftest import ROOT

    # the project as a commit made before its results, then checked out anew: every file
    # of the clone is newer than the results copied into it
    made = min(p.stat().st_mtime for p in (project / "results").rglob("*") if p.is_file())
    stamp = f"@{int(made) - 60} +0000"
    env = dict(os.environ, GIT_AUTHOR_DATE=stamp, GIT_COMMITTER_DATE=stamp,
               GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t")
    (project / ".gitignore").write_text("results/\nfigures/\n.snakemake/\n")
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "the commit"]):
        subprocess.run(["git", "-C", str(project), *command], check=True, env=env)
    now = time.time()
    for path in project.rglob("*"):
        if path.is_file() and not any(part in ("results", "figures", ".snakemake", ".git")
                                      for part in path.relative_to(project).parts):
            os.utime(path, (now, now))
    assert "retrieve" in dry_run(project)  # as Snakemake sees it: the scripts changed
    recover = subprocess.run([sys.executable, str(ROOT / "tools" / "recover.py"),
                              "--directory", str(project)], capture_output=True, text=True)
    assert recover.returncode == 0, recover.stderr
    assert dry_run(project) == set()


def test_two_configurations_run_alternately_rerun_nothing(project):
    """Issue 43, item 6: a second configuration (here a second collection, as the NFCorpus
    main job adds to Cranfield's) writes its own headline, landing page and summaries, so
    after it ran neither configuration plans a job: each one's outputs are its own."""
    tiny = yaml.safe_load((project / "fixture" / "config.yaml").read_text())
    second = {"active_collections": ["tiny", "tiny2"],
              "collections": {"tiny2": tiny["collections"]["tiny"]}}
    (project / "second.yaml").write_text(yaml.safe_dump(second))
    configs = [project / "fixture" / "config.yaml", project / "second.yaml"]
    result = run_snakemake(project, snakefile=project / "Snakefile", cores=2,
                           configfile=configs)
    assert result.returncode == 0, result.stderr[-3000:]
    assert dry_run(project) == set()
    assert planned_rules(run_snakemake(project, "-n", snakefile=project / "Snakefile",
                                       configfile=configs)) == set()
