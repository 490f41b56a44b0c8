# The Snakemake report's pages (`snakemake --report results/report.html`): the report shows
# images and HTML inline but other files only as downloads, so each TSV, Markdown or YAML
# result it lists is rendered as an HTML page (gradedrel.report.html.page) under
# results/report_pages/, captioned and filed under its collection. The result files
# themselves are not changed. Local rules run in Snakemake's own process (milliseconds each).

# name: (file under results/, caption, category, subcategory)
REPORT_PAGES = {
    "thesaurus_summary": ("thesauri/{thesaurus}/summary.tsv", "thesaurus_summary.rst",
                          "Thesauri", "{thesaurus}"),
    "testbed": ("{collection}/testbed.md", "testbed.rst", "{collection} testbed", None),
    "plans": ("{collection}/plans/{planset}/plans.yaml", "plans.rst",
              "{collection} plans and queries", "{planset}"),
    "selected_topics": ("{collection}/plans/{planset}/selected_topics.tsv",
                        "selected_topics.rst", "{collection} plans and queries", "{planset}"),
    "query_statistics": ("{collection}/queries/{planset}/statistics_means.tsv",
                         "query_statistics.rst", "{collection} plans and queries", "{planset}"),
    "syn_df": ("{collection}/queries/{planset}/syn_df_summary.tsv", "syn_df.rst",
               "{collection} plans and queries", "{planset}"),
    "curation": ("{collection}/curation/summary.md", "curation.rst",
                 "{collection} plans and queries", "all plan sets"),
    "not_ranked": ("{collection}/runs/{planset}/{model}/not_ranked.tsv", "not_ranked.rst",
                   "{collection} retrieval", "{planset}, {model}"),
    "evaluation_means": ("{collection}/evaluation/{planset}/{model}/means.tsv",
                         "evaluation_means.rst", "{collection} evaluation",
                         "{planset}, {model}"),
    "evaluation_effort": ("{collection}/evaluation/{planset}/{model}/effort.tsv",
                          "evaluation_effort.rst", "{collection} evaluation",
                          "{planset}, {model}"),
    "verdicts": ("{collection}/report/{planset}/{model}/verdicts.tsv", "verdicts.rst",
                 "{collection} findings", "{planset}, {model}"),
    "summary": ("{collection}/report/summary.md", "summary.rst", "{collection} findings",
                "all plan sets and models"),
    "across_collections": ("report/across_collections.md", "across_collections_table.rst",
                           "Findings", "Across collections"),
}
REPORT_PAGES_DIR = f"{RESULTS}/report_pages"

from gradedrel.core import steps
from gradedrel.report import html as report_html


for _name, (_file, _caption, _category, _subcategory) in REPORT_PAGES.items():

    rule:
        name:
            f"report_page_{_name}"
        input:
            source=f"{RESULTS}/{_file}",
        output:
            html=report(f"{REPORT_PAGES_DIR}/{_file}.html", caption=f"../report/{_caption}",
                        category=_category, subcategory=_subcategory),
        log:
            f"{RESULTS}/logs/report_pages/{_file}.log",
        localrule: True
        run:
            # in Snakemake's process: a page takes milliseconds, a Python process a second
            with steps.logged(log[0], wildcards, output):
                report_html.write_page(input.source, output.html, wildcards)


def report_page_targets():
    """Every report page of the active collections' results."""
    pages = {f"thesauri/{thesaurus_name(c)}/summary.tsv" for c in COLLECTIONS}
    pages.add("report/across_collections.md")
    wmodel = config["baseline"]["wmodel"]
    for c in COLLECTIONS:
        pages |= {f"{c}/testbed.md", f"{c}/curation/summary.md", f"{c}/report/summary.md",
                  f"{c}/evaluation/{BASELINE}/{wmodel}/means.tsv",
                  f"{c}/evaluation/{BASELINE}/{wmodel}/effort.tsv"}
        for p in PLAN_SETS[c]:
            pages |= {f"{c}/plans/{p}/plans.yaml", f"{c}/plans/{p}/selected_topics.tsv",
                      f"{c}/queries/{p}/statistics_means.tsv",
                      f"{c}/queries/{p}/syn_df_summary.tsv"}
            for m in GRID:
                pages |= {f"{c}/runs/{p}/{m}/not_ranked.tsv",
                          f"{c}/evaluation/{p}/{m}/means.tsv",
                          f"{c}/evaluation/{p}/{m}/effort.tsv"}
            for m in REPORT_MODELS:
                pages.add(f"{c}/report/{p}/{m}/verdicts.tsv")
    return [f"{REPORT_PAGES_DIR}/{page}.html" for page in sorted(pages)]
