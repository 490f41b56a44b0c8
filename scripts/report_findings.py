"""Assess the paper's four findings under the pre-registered rules and write the findings
report (Markdown and HTML), the verdict tables and the reproduction measures."""
import os

import pandas as pd

from gradedrel.collection.readers import read_qrels_tsv
from gradedrel.core.io import write_text
from gradedrel.core.steps import run_step
from gradedrel.report import evaluation_files as report_io
from gradedrel.report import findings, published, reproducibility, tables
from gradedrel.report import markdown as report_md
from gradedrel.report.html import markdown_to_html


def main():
    p, w, out, inp = snakemake.params.report, snakemake.wildcards, snakemake.output, snakemake.input
    pub = published.load(inp.published)
    means = report_io.read(inp.means, "means")
    qrels = read_qrels_tsv(inp.qrels)[["qid", "docno", "grade"]]
    topics = pd.read_csv(inp.topics, sep="\t", dtype=str, keep_default_na=False)["qid"].tolist()
    runs = {label: inp[f"run/{label}"] for label in p["query_types"]}
    comparisons, verdicts = findings.assess_files(
        report_io.read(inp.per_topic, "per_topic"), runs, qrels, topics, pub,
        {int(k): float(v) for k, v in p["gains"].items()}, p["gain_profiles"], int(p["depth"]))
    findings.write_assessment(comparisons, verdicts, out.verdicts, out.findings, out.primary)
    title = f"{w.collection}, {w.planset} plans"
    paper = {(lv, q): pub.avp_of(lv, q) for lv in p["levels"] for q in p["query_types"]}
    repro = report_md.reproduction_table(
        reproducibility.reproduction_table(findings.avp_means(means, p["levels"], p["query_types"]),
                                           paper, p["baseline"], p["query_types"], p["levels"]),
        f"Reproduction measures against {p['baseline']} — {title}, {w.model}")
    repro.write(out.repro_csv, out.repro_md, out.repro_tex, out.repro_html)
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
