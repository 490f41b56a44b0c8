"""Check the paper's four findings and write the findings report (Markdown and HTML)
with the reproduction measures (Breuer et al. 2020) as a table."""
import logging
import os

from gradedrel.report import findings, published, evaluation_files as report_io, markdown as report_md, reproducibility, tables
from gradedrel.core.io import write_text
from gradedrel.report.html import markdown_to_html
from gradedrel.core.steps import run_step


def main():
    p, w, out, inp = snakemake.params.report, snakemake.wildcards, snakemake.output, snakemake.input
    pub = published.load(inp.published)
    means = report_io.read(inp.means, "means")
    tests = None
    if p["paired_test"] == "evaluation":
        tests = findings.EvaluationTests(report_io.read(inp.friedman),
                                         report_io.read(inp.posthoc),
                                         report_io.read(inp.vs_baseline),
                                         p["significance_columns"])
    ev, left_out = findings.build_evidence(
        report_io.read(inp.per_topic, "per_topic"), means, report_io.read(inp.effort, "effort"),
        report_io.read(inp.gain_curves, "gain_curves"), p, tests)
    for level, qids in left_out.items():
        if qids:
            logging.getLogger("gradedrel").warning(
                "level %s: %d topics lack a value for some query type and are left out of the "
                "tests: %s", level, len(qids), " ".join(qids))
    result = findings.all_findings(ev, p, pub)
    paper = {(lv, q): pub.avp_of(lv, q) for lv in p["levels"] for q in p["query_types"]}
    repro = report_md.reproduction_table(
        reproducibility.reproduction_table(ev.avp, paper, p["baseline"], p["query_types"],
                                           p["levels"]),
        f"Reproduction measures against {p['baseline']} — {w.collection}, {w.planset} plans, {w.model}")
    repro.write(out.repro_csv, out.repro_md, out.repro_tex, out.repro_html)
    avp = tables.avp_table(means, pub, p["query_types"], p["levels"],
                           f"Stratified AvP (%) — {w.collection}, {w.planset} plans, {w.model}")
    here = os.path.dirname(out.md)
    links = {k: os.path.relpath(v, here) for k, v in snakemake.params.links.items()}
    setting = dict(snakemake.params.setting, engine=snakemake.params.engine)
    text = report_md.findings_markdown(f"{w.collection}, {w.planset} plans", w.model, result, repro, avp, pub, setting,
                                       p["verdict"], p["alpha"], p["paired_test"], links)
    write_text(text, out.md)
    write_text(markdown_to_html(text, f"Findings — {w.collection}, {w.planset} plans, {w.model}"), out.html)


run_step(snakemake.log[0], main)
