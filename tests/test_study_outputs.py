"""The rules' inputs and outputs built from the study (gradedrel.study_outputs), without
Snakemake: every file the main job targets is some rule's output, the report's items are
flagged with a labelled caption, and the annex's inputs are the files its jobs read, named
in config and resolved as the workflow resolves them."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from gradedrel.core.config import layered
from gradedrel.report import design, items
from gradedrel.study import Study
from gradedrel.study_outputs import (FINDINGS_EVALUATION_FILES, ReportItem, RuleFiles,
                                     collection_rule)

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "config" / "schema" / "config.schema.yaml"
BOTH = (ROOT / "config" / "config.yaml", ROOT / "config" / "nfcorpus" / "testbed.yaml")
#: The tables the Snakemake report leaves out (no caption in study_outputs.TABLE_CAPTIONS).
TABLES_NOT_IN_REPORT = ("significance_friedman", "significance_posthoc",
                        "significance_vs_baseline")


def _resolve(path: str) -> str:
    """As the workflow's config_path: relative to the project, for files read from it."""
    return os.path.relpath(ROOT / path) if path and (ROOT / path).exists() else path


@pytest.fixture(scope="module")
def cranfield() -> RuleFiles:
    return RuleFiles(Study.from_config(layered(BOTH[:1], schema_path=SCHEMA)), _resolve)


@pytest.fixture(scope="module")
def both() -> RuleFiles:
    return RuleFiles(Study.from_config(layered(BOTH, schema_path=SCHEMA)), _resolve)


def _paths(outputs: dict) -> list[str]:
    return [out.path if isinstance(out, ReportItem) else out for out in outputs.values()]


def _fill(pattern: str, **values: str) -> str:
    for name, value in values.items():
        pattern = pattern.replace("{%s}" % name, value)
    return pattern


def test_every_findings_and_figure_target_is_an_output_of_its_job(cranfield):
    """The targets (Study.targets) under a plan set's report and figures are exactly the
    findings job's and the figures job's outputs there (no target without a rule, no
    output the targets miss but the pages and the three .tsv the summary reads)."""
    study = cranfield.study
    made = set()
    for c, p, m in study.cells(study.report_models):
        made |= {_fill(f, collection=c, planset=p)
                 for f in _paths(cranfield.findings_outputs([m]))}
        if study.draws_figures(c, p):
            made |= {_fill(f, collection=c, planset=p)
                     for f in cranfield.report_figures([m]).values()}
    folders = [prefix for c, p, m in study.cells(study.report_models) for prefix in
               (study.paths.report("", c, p, m), f"{study.paths.figures}/{c}/{p}/{m}/")]
    in_cells = {t for t in study.targets() if t.startswith(tuple(folders))}
    assert in_cells and in_cells <= made, sorted(in_cells - made)[:5]
    left = {f for f in made - in_cells if not f.endswith((".tsv", "provenance.json"))
            and "report_pages" not in f}
    assert left == {f for f in made if f.endswith("findings.html")}, sorted(left)[:5]


def test_the_report_shows_every_table_but_the_significance_tables_each_labelled(cranfield):
    outputs = cranfield.findings_outputs(["InQuery"])
    shown = {name for name, out in outputs.items() if isinstance(out, ReportItem)}
    tables = {f"{t}/html/InQuery" for t in Study.REPORT_TABLES if t not in TABLES_NOT_IN_REPORT}
    assert shown == tables | {"html/InQuery", "page/verdicts/InQuery"}
    for name in shown:
        item = outputs[name]
        assert item.labels == {"item": items.label(item.caption)}
        assert item.subcategory == "{planset}, InQuery"
    # the tables left out of the report are still written in every format, HTML too
    for table in TABLES_NOT_IN_REPORT:
        assert outputs[f"{table}/html/InQuery"].endswith(f"tables/{table}.html")
    screen = cranfield.screen_figures()
    assert set(screen) == set(cranfield.study.figure_names())
    assert screen["pr_levels"].caption == "figure_pr.rst"
    assert screen["diff_cg"].caption == "figure_difference.rst"


def test_one_comparisons_job_per_collection_and_one_findings_job_per_plan_set(both):
    """A collection's comparisons job writes the files of each of its plan sets and report
    models, and of no other collection's plan sets; a plan set's findings job reads each
    report model's evaluation files (one job per collection would hash every input once per
    output in Snakemake's metadata: 1,026 outputs x 210 inputs on Cranfield, 14.7 CPU s)."""
    study = both.study
    for c, cs in study.collections.items():
        conditions = {(p, m) for p in cs.plan_sets for m in study.report_models}
        comparisons = both.per_condition("comparisons", c)
        assert {tuple(k.split("/")[1:]) for k in comparisons} == conditions
        assert comparisons[f"comparisons/{next(iter(cs.plan_sets))}/InQuery"] == \
            study.paths.evaluation("comparisons.tsv", p=next(iter(cs.plan_sets)), m="InQuery")
    inputs = both.findings_inputs(study.report_models)
    assert set(inputs) == {f"{name}/{m}" for name in FINDINGS_EVALUATION_FILES
                           for m in study.report_models}
    assert inputs["comparisons/InQuery"] == study.paths.evaluation("comparisons.tsv", m="InQuery")
    assert collection_rule("evaluate_comparisons", "nfcorpus-fresh") == \
        "evaluate_comparisons_nfcorpus_fresh"


def test_findings_links_name_figures_only_where_the_plan_set_draws_them(cranfield):
    study = cranfield.study
    derived = study.plan_set_names(derived=True)[0]
    plain = cranfield.findings_links("cranfield", "expert", "InQuery")
    assert sum(k.startswith("figure: ") for k in plain) == len(study.figure_names())
    assert not any(k.startswith("figure: ")
                   for k in cranfield.findings_links("cranfield", derived, "InQuery"))


def test_the_key_provenance_and_leak_jobs_read_the_primary_and_its_derived_plan_sets(cranfield):
    study = cranfield.study
    primary, model = study.primary_condition("cranfield")
    roles = study.derived_roles("cranfield", primary)
    inputs = cranfield.key_provenance_inputs("cranfield")
    read = {k.split("/")[1] for k in inputs if k.startswith("per_topic/")}
    assert read == {primary, roles["request"], roles["thesaurus"], roles["no-own"]}
    assert all(f"/{model}/per_topic.tsv" in v for k, v in inputs.items() if "per_topic" in k)
    leak = cranfield.leak_inputs("cranfield")
    assert leak["designs"] == design.files(study.collections["cranfield"].design)
    assert {k for k in leak if k.startswith("key_sources/")} == \
        {f"key_sources/{p}" for p in study.curated_plan_sets("cranfield")}


def test_the_probe_reads_every_answer_file_of_its_folders_resolved(both):
    config = both.study.config["memory_probe"]
    v1, v2 = both.memory_probe_inputs(), both.memory_probe_v2_inputs()
    folder = ROOT / config["answers"]
    assert v1["answers"] == sorted(os.path.relpath(p) for p in folder.glob("*.yaml"))
    assert v1["answers"] and v2["answers_v1"] == v1["answers"]
    assert v2["answers"] == sorted(os.path.relpath(p)
                                   for p in (ROOT / config["v2"]["answers"]).glob("*.yaml"))
    assert v2["checks"] == f"{_resolve(config['v2']['match_checks'])}/checks.tsv"
    for source, c in config["collections"].items():
        assert v1[f"qrels/{source}"] == both.paths.collection("qrels.tsv", c)
        assert v2[f"index/{source}"] == both.paths.index(c)
    assert v1["design"] == both.study.collections["nfcorpus"].design


def test_the_headline_reads_each_deciding_row_and_without_the_probe_nothing_of_it(both, cranfield):
    study = both.study
    inputs = both.headline_inputs()
    assert inputs["remembered"] == both.paths.memory_probe_v2("remembered.tsv")
    for c, (primary, thesaurus) in study.headline_conditions().items():
        model = study.primary_condition(c)[1]
        for p in (primary, thesaurus):
            assert inputs[f"per_topic/{c}/{p}"] == both.paths.evaluation("per_topic.tsv", c, p,
                                                                          model)
        assert inputs[f"key_sources/{c}"] == both.paths.collection_report("key_sources.tsv", c)
    fresh, _, _ = study.fresh_condition()
    assert inputs["fresh_recall_base"] == both.paths.collection("recall_base.tsv", fresh)
    assert inputs["fresh_pool"] == _resolve(study.config["memory_probe"]["v2"]["fresh"]["pool"])
    alone = cranfield.headline_inputs()
    assert cranfield.memory_probe_inputs() == {} == cranfield.memory_probe_v2_inputs()
    assert "remembered" not in alone and set(alone) >= {"per_topic/cranfield/expert",
                                                        "leak/cranfield", "design/cranfield"}


def test_a_thesaurus_is_fetched_and_read_from_the_files_config_names(both):
    thesauri = both.study.config["thesauri"]
    copies = both.thesaurus_copies()
    nasa = thesauri["nasa"]
    assert copies[nasa["path"]] == ("nasa", "file")
    assert both.thesaurus_copy_source(nasa["path"]) == {"url": nasa["url"],
                                                        "sha256": nasa["sha256"]}
    assert both.thesaurus_files("nasa") == {"file": nasa["path"]}
    assert len(both.thesaurus_files("mesh")) == 2    # descriptors and trees
    with pytest.raises(ValueError, match="no thesaurus 'agrovoc'"):
        both.thesaurus_source("agrovoc")
    assert both.thesaurus_cache("nfcorpus") == both.paths.thesaurus("mesh")
    assert both.thesaurus_cache("nfcorpus", "wordnet") == both.paths.thesaurus("wordnet")


def test_retrieval_outputs_a_run_record_and_provenance_per_model_and_query_type(cranfield):
    study = cranfield.study
    outputs = cranfield.retrieval_outputs()
    runs = [k for k in outputs if k.startswith("run/")]
    assert len(runs) == len(study.grid) * len(study.query_types)
    for key in runs:
        run = outputs[key]
        assert outputs[key.replace("run/", "record/", 1)] == f"{run}.ir-metadata.yaml"
        assert outputs[key.replace("run/", "provenance/", 1)] == \
            run.removesuffix(".run") + ".provenance.json"
    page = outputs[f"page/not_ranked/{study.grid[0]}"]
    assert page.category == "{collection} retrieval" and page.caption == "not_ranked.rst"


def test_the_retrieve_job_writes_the_plan_sets_compiled_queries(cranfield):
    """The retrieve job compiles its plan set's queries (issue 44: one JVM): a query file
    per query type, each one the query file Layout names; the statistics its report page
    renders and the findings read; the pairs excluded and the step's record in the same
    folder; no name shared with the runs' outputs."""
    study, paths = cranfield.study, cranfield.paths
    outputs = cranfield.query_outputs()
    assert {k: v for k, v in outputs.items() if k.startswith("queries/")} == {
        f"queries/{q}": paths.query_file(q) for q in study.query_types}
    page = outputs["page/query_means"]
    assert page.path == paths.page(outputs["query_means"]) and page.caption == \
        "query_statistics.rst"
    assert outputs["query_statistics"] == paths.queries("statistics.tsv")
    assert {Path(p).parent for p in _paths(outputs) if p != page.path} == \
        {Path(outputs["query_provenance"]).parent}
    assert not set(outputs) & set(cranfield.retrieval_outputs())
    # a plan set's statistics target is one of them
    c, p = "cranfield", next(iter(study.collections["cranfield"].plan_sets))
    assert paths.queries("statistics_means.tsv", c, p) in study.targets()
    assert _fill(outputs["query_means"], collection=c, planset=p) == \
        paths.queries("statistics_means.tsv", c, p)


def test_the_headline_reads_the_evaluations_comparisons_of_its_primary_model(both):
    """The headline's primary row is evaluate_comparisons' (one job per plan set for the
    report models): its comparisons file is an input; without the model among the report
    models no job writes it, and the workflow says so before any job."""
    inputs = both.headline_inputs()
    for c, primary in both.study.headline_plain().items():
        model = both.study.primary_condition(c)[1]
        assert inputs[f"comparisons/{c}/{primary}"] == both.paths.evaluation(
            "comparisons.tsv", c, primary, model)
    config = layered(BOTH, schema_path=SCHEMA)
    others = [m for m in config["retrieval"]["grid"] if m != "InQuery"]
    config["report"]["models"] = others
    narrow = RuleFiles(Study.from_config(config), _resolve)
    with pytest.raises(ValueError, match="report.models .* leaves out InQuery"):
        narrow.headline_inputs()


def test_the_evaluation_writes_every_table_of_the_contract_for_each_model(cranfield):
    """evaluate_runs' outputs per model: every table of gradedrel.evaluation.contract's TABLES
    (the comparisons and difference bands are other rules'), the two report pages, coverage,
    provenance and ir_metadata."""
    from gradedrel.evaluation.contract import TABLES

    outputs = cranfield.evaluation_outputs(["BM25"])
    tables = {Path(p).stem for p in outputs.values() if isinstance(p, str) and p.endswith(".tsv")}
    assert tables == set(TABLES)
    assert {k for k, v in outputs.items() if isinstance(v, ReportItem)} == \
        {"page/means/BM25", "page/effort/BM25"}
    assert cranfield.per_model("comparisons", ["BM25", "InQuery"]) == {
        f"comparisons/{m}": cranfield.paths.evaluation("comparisons.tsv", m=m)
        for m in ("BM25", "InQuery")}


def test_the_evaluation_of_a_plan_set_writes_its_topic_selection_the_others_read(cranfield):
    """evaluate_runs writes the plan set's selected_topics.tsv (a target, with its page) and
    topics.tsv (what the comparison of plan sets reads): no other job selects topics."""
    study, outputs = cranfield.study, cranfield.selection_outputs()
    selected = _fill(outputs["selected"], collection="cranfield", planset="auto")
    assert selected in study.targets()
    assert study.paths.page(selected) in study.targets()
    assert outputs["page/selected"].path == study.paths.page(outputs["selected"])
    topics = _fill(outputs["topics"], collection="cranfield", planset="auto")
    assert topics in study.comparison_inputs("cranfield").values()


def _selection(planset: str, **criteria) -> dict:
    """evaluate_runs' params topic_selection of ``planset`` (``plain``: a plan set of the
    expandable requests, config's defaults), with the config's ``criteria`` changed."""
    config = layered(BOTH[:1], schema_path=SCHEMA)
    config["collections"]["cranfield"]["plan_sets"]["plain"] = {}
    config["topic_selection"] = {**config["topic_selection"], **criteria}
    return RuleFiles(Study.from_config(config)).topic_selection("cranfield", planset)


@pytest.mark.parametrize("planset, rule", [("expert", "curated"), ("auto", "named"),
                                           ("plain", "selected")])
def test_the_evaluation_reruns_when_the_selection_of_its_topics_changes(planset, rule):
    """The selection's setting is a params of evaluate_runs: the plan set's rule and source,
    and the config's criteria where they decide (rule 'selected'), so that a change of any
    of them re-runs the evaluation."""
    setting = _selection(planset)
    assert setting["rule"] == rule and setting["source"]
    changed = _selection(planset, min_highly_relevant=2)
    assert (changed != setting) == (rule == "selected")
    if rule == "selected":
        assert changed["criteria"]["min_highly_relevant"] == 2


def test_the_figures_job_draws_every_report_model_of_its_plan_set(cranfield):
    """report_figures is one job per plan set: its outputs are each report model's figures
    (PNG and PDF) and record, at the paths of a job per model (figures/c/p/m/), and its
    inputs each model's evaluation files, keyed by model (``pr_curves/InQuery``)."""
    study, paths = cranfield.study, cranfield.paths
    models = study.report_models
    assert len(models) > 1
    outputs = cranfield.report_figures(models)
    assert set(outputs) == {f"{name}/{ext}/{m}" for name in study.figure_names()
                            for ext in ("png", "pdf") for m in models} | \
        {f"provenance/{m}" for m in models}
    for m in models:
        assert outputs[f"pr_levels/png/{m}"] == paths.figure("pr_levels", m=m)
        assert outputs[f"pr_levels/pdf/{m}"] == paths.figure("pr_levels", "pdf", m=m)
        # the record covers the files of its folder: this model's figures alone
        assert outputs[f"provenance/{m}"] == paths.figure("provenance", "json", m=m)
    assert cranfield.per_model("difference_bands", models)[f"difference_bands/{models[0]}"] \
        == paths.evaluation("difference_bands.tsv", m=models[0])
