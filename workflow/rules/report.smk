# Stage "report" (gradedrel/report/): the paper's tables, figures and findings report per
# collection, plan set and model; the comparison of plan sets.
# Tables read only table settings, figures also the figure style (report.figures), so
# changing the style re-runs the figure rules only.

TABLE_PARAMS = ("query_types", "levels", "standard_measures", "expanded_strong",
                "significance_columns", "alpha")
FIGURE_PARAMS = ("query_types", "levels", "pr_reading", "baseline", "profiles", "bootstrap")


rule compare_plan_sets:
    """Compare a collection's plan sets: what the plans look like, how far two curators
    agree, and how AvP moves between conditions (docs/expert-plans.md)."""
    input:
        unpack(comparison_inputs),
    output:
        profiles=f"{RESULTS}/{{collection}}/curation/plan_profiles.tsv",
        conditions=f"{RESULTS}/{{collection}}/curation/avp_by_plan_set.tsv",
        agreement=f"{RESULTS}/{{collection}}/curation/agreement.tsv",
        between=f"{RESULTS}/{{collection}}/curation/avp_between_curators.tsv",
        summary=f"{RESULTS}/{{collection}}/curation/summary.md",
    params:
        plan_sets=lambda wc: list(PLAN_SETS[wc.collection]),
        models=GRID,
        agreement=lambda wc: config["collections"][wc.collection].get("curator_agreement"),
        terrier=config["terrier"],
    log:
        f"{RESULTS}/logs/{{collection}}/compare_plan_sets.log",
    script:
        "../../scripts/compare_plan_sets.py"


rule report_avp_table:
    """Tabulate stratified AvP per level and query type beside the published table."""
    input:
        means=f"{EVALUATION}/means.tsv",
        published=config_path(REPORT["published"]),
    output:
        csv=f"{REPORT_DIR}/tables/avp.csv",
        md=f"{REPORT_DIR}/tables/avp.md",
        tex=f"{REPORT_DIR}/tables/avp.tex",
        html=report(f"{REPORT_DIR}/tables/avp.html", caption="../report/avp_table.rst",
                    category="{collection} tables", subcategory="{planset}, {model}"),
    params:
        report=report_params(*TABLE_PARAMS),
    log:
        f"{RESULTS}/logs/{{collection}}/{{planset}}/report_avp_table_{{model}}.log",
    script:
        "../../scripts/report_avp_table.py"


rule report_testbed_table:
    """Describe the testbed: topics, recall base per level, keys per query type."""
    input:
        recall_base=f"{RESULTS}/{{collection}}/recall_base.tsv",
        selected=f"{RESULTS}/{{collection}}/plans/{{planset}}/selected_topics.tsv",
        statistics=f"{RESULTS}/{{collection}}/queries/{{planset}}/statistics.tsv",
        published=config_path(REPORT["published"]),
    output:
        csv=f"{REPORT_DIR}/tables/testbed.csv",
        md=f"{REPORT_DIR}/tables/testbed.md",
        tex=f"{REPORT_DIR}/tables/testbed.tex",
        html=report(f"{REPORT_DIR}/tables/testbed.html", caption="../report/testbed_table.rst",
                    category="{collection} tables", subcategory="{planset}, {model}"),
    params:
        report=report_params(*TABLE_PARAMS),
    log:
        f"{RESULTS}/logs/{{collection}}/{{planset}}/report_testbed_table_{{model}}.log",
    script:
        "../../scripts/report_testbed_table.py"


rule report_effort_table:
    """Tabulate the documents to scan to reach the ideal gain at rank k (finding 4)."""
    input:
        effort=f"{EVALUATION}/effort.tsv",
        published=config_path(REPORT["published"]),
    output:
        csv=f"{REPORT_DIR}/tables/effort.csv",
        md=f"{REPORT_DIR}/tables/effort.md",
        tex=f"{REPORT_DIR}/tables/effort.tex",
        html=report(f"{REPORT_DIR}/tables/effort.html", caption="../report/effort_table.rst",
                    category="{collection} tables", subcategory="{planset}, {model}"),
    params:
        report=report_params(*TABLE_PARAMS),
    log:
        f"{RESULTS}/logs/{{collection}}/{{planset}}/report_effort_table_{{model}}.log",
    script:
        "../../scripts/report_effort_table.py"


rule report_significance_table:
    """Tabulate one significance file of the evaluation (Friedman, post-hoc, vs baseline)."""
    input:
        tests=f"{EVALUATION}/significance_{{test}}.tsv",
    output:
        csv=f"{REPORT_DIR}/tables/significance_{{test}}.csv",
        md=f"{REPORT_DIR}/tables/significance_{{test}}.md",
        tex=f"{REPORT_DIR}/tables/significance_{{test}}.tex",
        html=report(f"{REPORT_DIR}/tables/significance_{{test}}.html",
                    caption="../report/significance_table.rst", category="{collection} tables",
                    subcategory="{planset}, {model}"),
    params:
        report=report_params(*TABLE_PARAMS),
    log:
        f"{RESULTS}/logs/{{collection}}/{{planset}}/report_significance_{{test}}_{{model}}.log",
    script:
        "../../scripts/report_significance_table.py"


rule report_standard_table:
    """Tabulate standard measures (nDCG@10 etc., ir_measures) per query type."""
    input:
        means=f"{EVALUATION}/means.tsv",
    output:
        csv=f"{REPORT_DIR}/tables/standard_measures.csv",
        md=f"{REPORT_DIR}/tables/standard_measures.md",
        tex=f"{REPORT_DIR}/tables/standard_measures.tex",
        html=report(f"{REPORT_DIR}/tables/standard_measures.html",
                    caption="../report/standard_table.rst", category="{collection} tables",
                    subcategory="{planset}, {model}"),
    params:
        report=report_params(*TABLE_PARAMS),
    log:
        f"{RESULTS}/logs/{{collection}}/{{planset}}/report_standard_table_{{model}}.log",
    script:
        "../../scripts/report_standard_table.py"


rule report_figure_pr:
    """Draw P-R curves per relevance level."""
    input:
        pr_curves=f"{EVALUATION}/pr_curves.tsv",
    output:
        png=report(f"{FIGURES}/pr_levels.png", caption="../report/figure_pr.rst",
                   category="{collection} figures", subcategory="{planset}, {model}"),
        pdf=f"{FIGURES}/pr_levels.pdf",
    params:
        report=report_params(*FIGURE_PARAMS),
        style=REPORT["figures"],
    log:
        f"{RESULTS}/logs/{{collection}}/{{planset}}/report_figure_pr_{{model}}.log",
    script:
        "../../scripts/report_figure_pr.py"


rule report_figure_gain:
    """Draw mean CG/DCG/nCG/nDCG vectors per gain profile with the ideal vector."""
    input:
        gain_curves=f"{EVALUATION}/gain_curves.tsv",
    output:
        png=report(f"{FIGURES}/{{curve}}.png", caption="../report/figure_gain.rst",
                   category="{collection} figures", subcategory="{planset}, {model}"),
        pdf=f"{FIGURES}/{{curve}}.pdf",
    params:
        report=report_params(*FIGURE_PARAMS),
        style=REPORT["figures"],
    log:
        f"{RESULTS}/logs/{{collection}}/{{planset}}/report_figure_{{curve}}_{{model}}.log",
    script:
        "../../scripts/report_figure_gain.py"


rule report_figure_difference:
    """Draw each query type's gain minus the baseline's per rank, with bootstrap intervals."""
    input:
        gain_curves=f"{EVALUATION}/gain_curves.tsv",
        per_topic=f"{EVALUATION}/per_topic.tsv",
    output:
        png=report(f"{FIGURES}/diff_{{curve}}.png", caption="../report/figure_difference.rst",
                   category="{collection} figures", subcategory="{planset}, {model}"),
        pdf=f"{FIGURES}/diff_{{curve}}.pdf",
    params:
        report=report_params(*FIGURE_PARAMS),
        style=REPORT["figures"],
    log:
        f"{RESULTS}/logs/{{collection}}/{{planset}}/report_figure_diff_{{curve}}_{{model}}.log",
    script:
        "../../scripts/report_figure_difference.py"


rule report_findings:
    """Assess the four findings under the pre-registered rules (docs/preregistration.md);
    write the verdict tables and the findings report."""
    input:
        unpack(evaluation_inputs),
        per_topic=f"{EVALUATION}/per_topic.tsv",
        means=f"{EVALUATION}/means.tsv",
        published=config_path(REPORT["published"]),
    output:
        md=f"{REPORT_DIR}/findings.md",
        html=report(f"{REPORT_DIR}/findings.html", caption="../report/findings.rst",
                    category="{collection} findings", subcategory="{planset}, {model}"),
        verdicts=f"{REPORT_DIR}/verdicts.tsv",
        findings=f"{REPORT_DIR}/findings.tsv",
        primary=f"{REPORT_DIR}/primary.tsv",
        repro_csv=f"{REPORT_DIR}/tables/reproduction.csv",
        repro_md=f"{REPORT_DIR}/tables/reproduction.md",
        repro_tex=f"{REPORT_DIR}/tables/reproduction.tex",
        repro_html=report(f"{REPORT_DIR}/tables/reproduction.html",
                          caption="../report/reproduction_table.rst",
                          category="{collection} findings", subcategory="{planset}, {model}"),
    params:
        report=report_params("levels", "query_types", "baseline", "gains", "gain_profiles",
                             "depth"),
        setting=report_setting,
        engine=lambda wc: REPORT["engines"].get(
            wc.model, f"Terrier {config['terrier']['version']} (PyTerrier), model {wc.model}"),
        links=findings_links,
    log:
        f"{RESULTS}/logs/{{collection}}/{{planset}}/report_findings_{{model}}.log",
    script:
        "../../scripts/report_findings.py"


rule report_summary:
    """One page: each finding's verdict for every plan set and model of a collection."""
    input:
        unpack(summary_inputs),
    output:
        tsv=f"{RESULTS}/{{collection}}/report/summary.tsv",
        md=f"{RESULTS}/{{collection}}/report/summary.md",
    params:
        conditions=summary_conditions,
    log:
        f"{RESULTS}/logs/{{collection}}/report_summary.log",
    script:
        "../../scripts/report_summary.py"


rule report_across_collections:
    """Each finding × collection × thesaurus (plan set) × model: effect, interval, verdict."""
    input:
        summaries=[f"{RESULTS}/{c}/report/summary.tsv" for c in COLLECTIONS],
        testbeds=[f"{RESULTS}/{c}/testbed.tsv" for c in COLLECTIONS],
        topics=[f"{RESULTS}/{c}/topics.tsv" for c in COLLECTIONS],
        published=config_path(REPORT["published"]),
    output:
        tsv=f"{RESULTS}/report/across_collections.tsv",
        md=f"{RESULTS}/report/across_collections.md",  # its page: report_page_across_collections
        png=report(f"{REPORT['figures_dir']}/across_collections.png",
                   caption="../report/across_collections.rst", category="Findings",
                   subcategory="Across collections"),
        pdf=f"{REPORT['figures_dir']}/across_collections.pdf",
    params:
        thesauri=[[c, p, plan_set_thesaurus(c, p)] for c in COLLECTIONS for p in PLAN_SETS[c]],
        collections=COLLECTIONS,
        figures=REPORT["figures"],
    log:
        f"{RESULTS}/logs/report_across_collections.log",
    script:
        "../../scripts/report_across_collections.py"
