"""Write a plan set's and model's findings report: the paper's tables beside the published
numbers, the four findings assessed under the pre-registered rules (verdict tables and the
report in Markdown and HTML) and the reproduction measures."""
import os

from gradedrel.evaluation.measures import ranked_grades
from gradedrel.core.io import write_text
from gradedrel.core.steps import run_step
from gradedrel.report import evaluation_files as report_io
from gradedrel.report import design, findings, published, reproducibility, tables
from gradedrel.report import markdown as report_md
from gradedrel.report.html import markdown_to_html

SIGNIFICANCE = {"friedman": "Friedman test per relevance level",
                "posthoc": "Post-hoc pairwise comparisons",
                "vs_baseline": "Each query type against the baseline"}


def write_table(table, name, out):
    table.write(out[f"{name}/csv"], out[f"{name}/md"], out[f"{name}/tex"], out[f"{name}/html"])


def paper_tables(p, inp, out, pub, means, where):
    """The tables of the paper's layout and the evaluation's tests."""
    write_table(tables.avp_table(means, pub, p["query_types"], p["levels"],
                                 f"Stratified AvP (%) per relevance level — {where}"), "avp", out)
    selected = report_io.read(inp.selected)
    report_io.check_columns(selected, ["qid", "selected"], inp.selected)
    topics = selected.loc[selected["selected"].astype(str).str.lower().isin(["true", "1", "yes"]),
                          "qid"].tolist()
    testbed = tables.testbed_table(report_io.read(inp.recall_base, "recall_base"),
                                   report_io.read(inp.statistics, "statistics"), pub,
                                   p["query_types"], f"Testbed — {where}", topics=topics)
    testbed.notes.append(f"Topics selected for the experiment: {len(topics)} of {len(selected)} "
                         "(plans/selected_topics.tsv gives the reason for each exclusion).")
    write_table(testbed, "testbed", out)
    write_table(tables.effort_table(report_io.read(inp.effort, "effort"), pub, p["query_types"],
                                    p["expanded_strong"], f"Effort to reach the ideal gain — {where}"),
                "effort", out)
    write_table(tables.standard_measures_table(means, p["query_types"], p["standard_measures"],
                                               f"Standard measures — {where}"),
                "standard_measures", out)
    for test, title in SIGNIFICANCE.items():
        write_table(tables.significance_table(report_io.read(inp[test]), f"{title} — {where}",
                                              p["significance_columns"][test], p["alpha"]),
                    f"significance_{test}", out)


def main():
    p, w, out, inp = snakemake.params.report, snakemake.wildcards, snakemake.output, snakemake.input
    pub = published.load(inp.published)
    means = report_io.read(inp.means, "means")
    title = f"{w.collection}, {w.planset} plans"
    where = f"{title}, {w.model}"
    paper_tables(p, inp, out, pub, means, where)
    per_topic = report_io.read(inp.per_topic, "per_topic")
    comparisons, verdicts = findings.assess_files(
        per_topic, ranked_grades.read(inp.ranked_grades, "ranked_grades"),
        ranked_grades.read(inp.evaluated_recall_base, "recall_base"), pub,
        {int(k): float(v) for k, v in p["gains"].items()}, p["gain_profiles"], int(p["depth"]),
        design.load(inp.design[0]))
    findings.write_assessment(comparisons, verdicts, out.verdicts, out.findings, out.primary)
    paper = {(lv, q): pub.avp_of(lv, q) for lv in p["levels"] for q in p["query_types"]}
    repro = report_md.reproduction_table(
        reproducibility.reproduction_table(findings.avp_means(means, p["levels"], p["query_types"]),
                                           paper, p["baseline"], p["query_types"], p["levels"]),
        f"Reproduction measures against {p['baseline']} — {title}, {w.model}")
    write_table(repro, "reproduction", out)
    avp = tables.avp_table(means, pub, p["query_types"], p["levels"],
                           f"Stratified AvP (%) — {title}, {w.model}")
    here = os.path.dirname(out.md)
    links = {k: os.path.relpath(v, here) for k, v in snakemake.params.links.items()}
    setting = dict(snakemake.params.setting, engine=snakemake.params.engine)
    text = report_md.findings_markdown(title, w.model, comparisons, verdicts, repro, avp, pub,
                                       setting, links)
    write_text(text, out.md)
    write_text(markdown_to_html(text, f"Findings — {title}, {w.model}"), out.html)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output)
