# Stage "report" (gradedrel/report/): per collection and plan set one job writes the paper's
# tables and the findings report of each report model, one draws their figures (only figure
# jobs read the figure style, so changing it re-runs them alone); per collection the summary
# of its plan sets and models; across collections one table and figure. The integrity annex
# (curation, key provenance, leak, memory probe, headline) is workflow/rules/integrity.smk.

TABLE_PARAMS = (
    "query_types",
    "levels",
    "expanded_strong",
    "significance_columns",
    "alpha",
)
FINDINGS_PARAMS = ("levels", "query_types", "baseline")
from gradedrel.report.items import label as report_label

FIGURE_PARAMS = (
    "query_types",
    "levels",
    "pr_reading",
    "baseline",
    "profiles",
    "bootstrap",
    "curves",
    "difference_curves",
)


rule report_findings:
    """Assess the four findings under the pre-registered rules (docs/preregistration.md) and
    write the findings report, its verdict tables and the paper's tables beside the
    published numbers: one job per plan set, for each of its report models."""
    input:
        **FILES.findings_inputs(STUDY.report_models),
        recall_base=rules.prepare_topics_qrels.output.recall_base,
        selected=rules.evaluate_runs.output.selected,
        statistics=rules.retrieve.output.query_statistics,
        published=config_path(REPORT["published"]),
        design=lambda wc: FILES.design_files(wc.collection),
    output:
        **flagged(FILES.findings_outputs(STUDY.report_models)),
    log:
        log_of("{collection}/{planset}/report_findings"),
    wildcard_constraints:
        planset=PLAN_SETS,
    conda:
        CONDA_ENV
    params:
        models=STUDY.report_models,
        report=report_params(*sorted(set(TABLE_PARAMS + FINDINGS_PARAMS))),
        setting=lambda wc: FILES.report_setting(wc.collection, wc.planset),
        engine={
            m: REPORT["engines"].get(
                m, f"Terrier {config['terrier']['version']} (PyTerrier), model {m}"
            )
            for m in STUDY.report_models
        },
        links=lambda wc: {
            m: FILES.findings_links(wc.collection, wc.planset, m) for m in STUDY.report_models
        },
    script:
        "../../scripts/report_findings.py"


rule report_figures:
    """Draw the paper's figures: P-R curves per level, the mean CG/DCG/nCG/nDCG vectors with
    the ideal vector, and each query type's difference from the baseline with its
    bootstrap interval: one job per plan set, for each of its report models."""
    input:
        **FILES.per_model("pr_curves", STUDY.report_models),
        **FILES.per_model("gain_curves", STUDY.report_models),
        **FILES.per_model("difference_bands", STUDY.report_models),
    output:
        # with each model's record of its figures (their sha256: `make adopt` checks them)
        **FILES.report_figures(STUDY.report_models),
    log:
        log_of("{collection}/{planset}/report_figures"),
    wildcard_constraints:
        planset=PLAN_SETS,
    conda:
        CONDA_ENV
    params:
        models=STUDY.report_models,
        report=report_params(*FIGURE_PARAMS),
        style=canonical(REPORT["figures"]),
    script:
        "../../scripts/report_figures.py"


rule report_summary:
    """One page: each finding's verdict for every plan set and model of a collection."""
    input:
        unpack(lambda wc: STUDY.summary_inputs(wc.collection)),
        unpack(
            lambda wc: (
                {"key_sources": PATHS.collection_report("key_sources.tsv", wc.collection)}
                if STUDY.key_provenance_plan_set(wc.collection)
                else {}
            )
        ),
        unpack(
            lambda wc: (
                {"headline": STUDY.headline("tsv")}
                if STUDY.memory_probe() and STUDY.rests_on(wc.collection)
                else {}
            )
        ),
        unpack(
            lambda wc: (
                {"leak": PATHS.collection_report("leak.tsv", wc.collection)}
                if STUDY.rests_on(wc.collection) and STUDY.curated_plan_sets(wc.collection)
                else {}
            )
        ),
        design=lambda wc: FILES.design_files(wc.collection),
    output:
        **{
            "page/md": page_of(
                STUDY.summary("md"),
                "summary.rst",
                "{collection} findings",
                "all plan sets and models",
            )
        },
        tsv=STUDY.summary("tsv"),
        md=STUDY.summary("md"),
        png=STUDY.forest("png"),
        pdf=STUDY.forest("pdf"),
        provenance=STUDY.forest("provenance.json"),
    log:
        log_of("{collection}/report_summary"),
    conda:
        CONDA_ENV
    params:
        conditions=lambda wc: STUDY.summary_conditions(wc.collection),
        rests_on=lambda wc: STUDY.rests_on(wc.collection),
        thesauri=lambda wc: [
            [p, STUDY.collections[wc.collection].plan_set_thesaurus(p)]
            for p in STUDY.collections[wc.collection].plan_sets
        ],
        figures=canonical(REPORT["figures"]),
    script:
        "../../scripts/report_summary.py"


rule report_across_collections:
    """Each finding × collection × thesaurus (plan set) × model: effect, interval, verdict."""
    input:
        summaries=[STUDY.summary("tsv", c) for c in STUDY.collections],
        testbeds=[PATHS.collection("testbed.tsv", c) for c in STUDY.collections],
        topics=[PATHS.collection("topics.tsv", c) for c in STUDY.collections],
        published=config_path(REPORT["published"]),
        # what each testbed's verdict rests on, where the memory probe qualifies it
        headline=(
            [STUDY.headline("md")]
            if STUDY.memory_probe() and (STUDY.headline_conditions() or STUDY.fresh_condition())
            else []
        ),
    output:
        **{
            "page/md": page_of(
                PATHS.across("md", STUDY.collections),
                "across_collections_table.rst",
                "Findings",
                "Across collections",
            )
        },
        tsv=PATHS.across("tsv", STUDY.collections),
        md=PATHS.across("md", STUDY.collections),
        png=PATHS.across("png", STUDY.collections),
        pdf=PATHS.across("pdf", STUDY.collections),
        provenance=PATHS.across("provenance.json", STUDY.collections),
    log:
        log_of("report_across_collections"),
    conda:
        CONDA_ENV
    params:
        thesauri=[
            [c, p, cs.plan_set_thesaurus(p)]
            for c, cs in STUDY.collections.items()
            for p in cs.plan_sets
        ],
        collections=list(STUDY.collections),
        figures=canonical(REPORT["figures"]),
    script:
        "../../scripts/report_across_collections.py"


# --- what the Snakemake report embeds --------------------------------------------------------
# Screen-resolution copies (gradedrel.report.items.SCREEN_DPI) of each collection's forest plot
# and of its primary condition's figures; the print-quality PNG and PDF stay in figures/.


rule report_screen_figures:
    """The report's copies of one plan set's and model's figures, at screen resolution (the
    primary condition of each collection: Study.report_figure_conditions)."""
    input:
        **{name: PATHS.figure(name) for name in STUDY.figure_names()},
    output:
        **flagged(FILES.screen_figures()),
    log:
        log_of("{collection}/{planset}/report_screen_figures_{model}"),
    conda:
        CONDA_ENV
    params:
        dpi=REPORT["figures"]["dpi"],
    script:
        "../../scripts/report_screen.py"


rule report_screen_forest:
    """The report's copy of a collection's forest plot, at screen resolution."""
    input:
        forest=STUDY.forest("png"),
    output:
        forest=report(
            PATHS.screen(STUDY.forest("png")),
            caption="../report/forest.rst",
            category="{collection} findings",
            subcategory="all plan sets and models",
            labels={"item": report_label("forest.rst")},
        ),
    log:
        log_of("{collection}/report_screen_forest"),
    conda:
        CONDA_ENV
    params:
        dpi=REPORT["figures"]["dpi"],
    script:
        "../../scripts/report_screen.py"


rule report_landing:
    """The report's landing page (workflow/report/workflow.rst includes it): the qualified
    headline and the table of what each verdict rests on (or, without the memory probe, the
    verdicts across collections), then the forest plot across collections."""
    input:
        answer=(
            STUDY.headline("md") if STUDY.has_headline() else PATHS.across("md", STUDY.collections)
        ),
        figure=PATHS.across("png", STUDY.collections),
    output:
        landing=PATHS.landing(STUDY.collections),
        figure=report(
            PATHS.screen(PATHS.across("png", STUDY.collections)),
            caption="../report/across_collections.rst",
            category="Findings",
            subcategory="Across collections",
            labels={"item": report_label("across_collections.rst")},
        ),
    log:
        log_of("report_landing"),
    conda:
        CONDA_ENV
    params:
        dpi=REPORT["figures"]["dpi"],
        links=[
            ["every figure at print quality (PNG and PDF)", PATHS.figures],
            ["the verdicts across collections", PATHS.across("md", STUDY.collections)],
            ["the findings of each plan set and model", PATHS.report("findings.md")],
            [
                "the significance tables of each plan set and model",
                PATHS.report("tables/significance_*.md"),
            ],
        ],
    script:
        "../../scripts/report_landing.py"
