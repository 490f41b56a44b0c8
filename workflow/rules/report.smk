# Stage "report" (gradedrel/report/): per collection, plan set and model one job writes the
# paper's tables and the findings report, one draws the figures (only figure jobs read the
# figure style, so changing it re-runs them alone); per collection the comparison of plan
# sets and the summary; across collections one table and figure.

TABLE_PARAMS = (
    "query_types",
    "levels",
    "standard_measures",
    "expanded_strong",
    "significance_columns",
    "alpha",
)
FINDINGS_PARAMS = ("levels", "query_types", "baseline")
#: What the findings job reads of each model's evaluation: input name -> evaluation file
#: (the names evaluate_runs and evaluate_comparisons give them,
#: workflow/rules/evaluation.smk).
FINDINGS_EVALUATION_FILES = {
    **{name: name for name in ("comparisons", "means", "effort", "gain_curves")},
    **{name: SIGNIFICANCE_FILES[name] for name in ("friedman", "posthoc", "vs_baseline")},
}
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


rule compare_plan_sets:
    """Compare a collection's plan sets: what the plans look like, how far two curators
    agree, and how AvP moves between conditions (docs/expert-plans.md)."""
    input:
        unpack(lambda wc: STUDY.comparison_inputs(wc.collection)),
    output:
        **{
            "page/summary": page_of(
                PATHS.curation("summary.md"),
                "curation.rst",
                "{collection} plans and queries",
                "all plan sets",
            )
        },
        profiles=PATHS.curation("plan_profiles.tsv"),
        conditions=PATHS.curation("avp_by_plan_set.tsv"),
        agreement=PATHS.curation("agreement.tsv"),
        between=PATHS.curation("avp_between_curators.tsv"),
        summary=PATHS.curation("summary.md"),
    log:
        log_of("{collection}/compare_plan_sets"),
    conda:
        CONDA_ENV
    params:
        plan_sets=lambda wc: list(STUDY.collections[wc.collection].plan_sets),
        models=list(STUDY.grid),
        agreement=lambda wc: canonical(
            STUDY.collections[wc.collection].raw.get("curator_agreement")
        ),
        terrier=canonical(config["terrier"]),
    script:
        "../../scripts/compare_plan_sets.py"


rule report_findings:
    """Assess the four findings under the pre-registered rules (docs/preregistration.md) and
    write the findings report, its verdict tables and the paper's tables beside the
    published numbers: one job per plan set, for each of its report models."""
    input:
        **{
            f"{name}/{m}": PATHS.evaluation(f"{file}.tsv", m=m)
            for m in STUDY.report_models
            for name, file in FINDINGS_EVALUATION_FILES.items()
        },
        recall_base=rules.prepare_topics_qrels.output.recall_base,
        selected=rules.select_topics.output.selected,
        statistics=rules.compile_queries.output.statistics,
        published=config_path(REPORT["published"]),
        design=design_files,
    output:
        **findings_outputs(STUDY.report_models),
    log:
        log_of("{collection}/{planset}/report_findings"),
    wildcard_constraints:
        planset=PLAN_SETS,
    conda:
        CONDA_ENV
    params:
        models=STUDY.report_models,
        report=report_params(*sorted(set(TABLE_PARAMS + FINDINGS_PARAMS))),
        setting=report_setting,
        engine={
            m: REPORT["engines"].get(
                m, f"Terrier {config['terrier']['version']} (PyTerrier), model {m}"
            )
            for m in STUDY.report_models
        },
        links=lambda wc: {
            m: findings_links(wc.collection, wc.planset, m) for m in STUDY.report_models
        },
    script:
        "../../scripts/report_findings.py"


rule report_figures:
    """Draw the paper's figures: P-R curves per level, the mean CG/DCG/nCG/nDCG vectors with
    the ideal vector, and each query type's difference from the baseline with its
    bootstrap interval."""
    input:
        pr_curves=PATHS.evaluation("pr_curves.tsv"),
        gain_curves=PATHS.evaluation("gain_curves.tsv"),
        bands=PATHS.evaluation("difference_bands.tsv"),
    output:
        **report_figures(),
        # the record of the figures (with their sha256: `make adopt` checks copied figures)
        provenance=PATHS.figure("provenance", "json"),
    log:
        log_of("{collection}/{planset}/report_figures_{model}"),
    conda:
        CONDA_ENV
    params:
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
        design=design_files,
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


rule report_key_provenance:
    """Where the primary effect comes from (docs/preregistration.md, Amendment 1, A4, A5):
    WSYN/e - SUM/u split into structure, request-word expansion, thesaurus expansion,
    other concepts' labels and the curators' own keys, each with its bootstrap interval; the
    robustness rows; the key sources per curator."""
    input:
        unpack(key_provenance_inputs),
    output:
        **{
            "page/md": page_of(
                PATHS.collection_report("key_sources.md"),
                "key_provenance.rst",
                "{collection} findings",
                "where the keys came from",
            )
        },
        tsv=PATHS.collection_report("key_sources.tsv"),
        md=PATHS.collection_report("key_sources.md"),
        per_request=PATHS.collection_report("key_sources_per_request.tsv"),
        robustness=PATHS.collection_report("key_sources_robustness.tsv"),
    log:
        log_of("{collection}/report_key_provenance"),
    conda:
        CONDA_ENV
    params:
        primary=lambda wc: STUDY.key_provenance_plan_set(wc.collection),
        derived=lambda wc: canonical(
            {
                role: name
                for role, name in STUDY.derived_roles(
                    wc.collection, STUDY.key_provenance_plan_set(wc.collection)
                ).items()
                if role in ("request", "thesaurus", "no-own")
            }
        ),
        plan_sets=lambda wc: STUDY.curated_plan_sets(wc.collection),
    script:
        "../../scripts/report_key_provenance.py"


rule report_leak:
    """The leak diagnostic (Amendment 1, A6; a flag, not a verdict): per source class and
    per curator of each curated plan set, how much more its keys occur in the request's
    level-3 documents than in the collection, and than in its level-2 documents."""
    input:
        unpack(leak_inputs),
    output:
        **{
            "page/md": page_of(
                PATHS.collection_report("leak.md"),
                "leak.rst",
                "{collection} findings",
                "where the keys came from",
            )
        },
        tsv=PATHS.collection_report("leak.tsv"),
        pairs=PATHS.collection_report("leak_pairs.tsv"),
        md=PATHS.collection_report("leak.md"),
    log:
        log_of("{collection}/report_leak"),
    conda:
        CONDA_ENV
    params:
        plan_sets=lambda wc: STUDY.curated_plan_sets(wc.collection),
    script:
        "../../scripts/report_leak.py"


rule report_memory_probe:
    """Score the memory probe (docs/memory-probe.md; Amendment 1, A7): did fresh sessions
    of the curators' model remember the requests' source pages and the studies they cite?"""
    input:
        **memory_probe_inputs(),
    output:
        **{
            "page/md": page_of(
                PATHS.memory_probe("md"), "memory_probe.rst", "Findings", "Memory probe"
            )
        },
        per_request=PATHS.memory_probe("tsv"),
        per_source=PATHS.memory_probe("sources.tsv"),
        remembered=PATHS.memory_probe("remembered.tsv"),
        decisions=PATHS.memory_probe("decisions.json"),
        md=PATHS.memory_probe("md"),
    log:
        log_of("report_memory_probe"),
    conda:
        CONDA_ENV
    params:
        terrier=canonical(config["terrier"]),
        docs=canonical(
            {
                source: STUDY.collections[c].spec.ir_datasets_id("docs")
                for source, c in (STUDY.memory_probe() or {}).get("collections", {}).items()
            }
        ),
        ir_datasets_home=config["data"]["ir_datasets_home"],
    script:
        "../../scripts/report_memory_probe.py"


rule report_memory_probe_v2:
    """Score probe v2 (Amendment 2, B4-B6): the amended cited-study rule, its null rates on
    placebos and permuted requests, θ, and which requests the curators' model remembers."""
    input:
        **memory_probe_v2_inputs(),
    output:
        **{
            "page/md": page_of(
                PATHS.memory_probe_v2("md"), "memory_probe_v2.rst", "Findings", "Memory probe v2"
            )
        },
        per_request=PATHS.memory_probe_v2("tsv"),
        nulls=PATHS.memory_probe_v2("null.tsv"),
        rates=PATHS.memory_probe_v2("rates.tsv"),
        remembered=PATHS.memory_probe_v2("remembered.tsv"),
        decisions=PATHS.memory_probe_v2("decisions.json"),
        md=PATHS.memory_probe_v2("md"),
    log:
        log_of("report_memory_probe_v2"),
    conda:
        CONDA_ENV
    params:
        terrier=canonical(config["terrier"]),
        collections=canonical(
            {
                source: {
                    "docs": STUDY.collections[c].spec.ir_datasets_id("docs"),
                    "grade_map": config["collections"][c]["grade_map"],
                    "qrels": (STUDY.memory_probe() or {})
                    .get("v2", {})
                    .get("qrels", {})
                    .get(source),
                }
                for source, c in (STUDY.memory_probe() or {}).get("collections", {}).items()
            }
        ),
        ir_datasets_home=config["data"]["ir_datasets_home"],
    script:
        "../../scripts/report_memory_probe_v2.py"


rule report_headline:
    """The qualified headline of each probed testbed (docs/preregistration.md, Amendment 1,
    A3): the pre-registered primary comparison, and beside it with request and thesaurus
    keys only on the requests the memory probe clears (H2q), on the cleared and on the
    remembered requests, and how many points come from the curators' own keys."""
    input:
        **headline_inputs(),
    output:
        **{
            "page/md": page_of(
                STUDY.headline("md"), "headline.rst", "Findings", "Across collections"
            )
        },
        tsv=STUDY.headline("tsv"),
        md=STUDY.headline("md"),
    log:
        log_of("report_headline"),
    conda:
        CONDA_ENV
    params:
        conditions=canonical({c: list(v) for c, v in STUDY.headline_conditions().items()}),
        sources=canonical(
            {c: s for s, c in (STUDY.memory_probe() or {}).get("collections", {}).items()}
        ),
        fresh=canonical(list(STUDY.fresh_condition() or [])),
        fresh_extra=canonical(STUDY.fresh_extra()),
        plain=canonical(STUDY.headline_plain()),
    script:
        "../../scripts/report_headline.py"


# --- what the Snakemake report embeds --------------------------------------------------------
# Screen-resolution copies (gradedrel.report.items.SCREEN_DPI) of each collection's forest plot
# and of its primary condition's figures; the print-quality PNG and PDF stay in figures/.


rule report_screen_figures:
    """The report's copies of one plan set's and model's figures, at screen resolution (the
    primary condition of each collection: Study.report_figure_conditions)."""
    input:
        **{name: PATHS.figure(name) for name in STUDY.figure_names()},
    output:
        **{
            name: report(
                PATHS.screen(PATHS.figure(name)),
                caption=f"../report/{figure_caption(name)}",
                category="{collection} figures",
                subcategory="{planset}, {model} (the primary condition)",
                labels={"figure": label},
            )
            for name, label in STUDY.figure_names().items()
        },
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
        landing=STUDY.landing(),
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
