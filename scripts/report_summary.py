"""One page: each finding's verdict for every plan set and model of a collection."""
import pandas as pd

from gradedrel.core.io import write_text, write_tsv
from gradedrel.core.steps import run_step
from gradedrel.plans.plan_sets import input_key
from gradedrel.report import assessment, design


def main():
    inp, w = snakemake.input, snakemake.wildcards
    study_design = design.load(inp.design[0])
    rows = []
    for plan_set, model in snakemake.params.conditions:
        comparisons = pd.read_csv(inp[input_key("verdicts", plan_set, model)], sep="\t",
                                  keep_default_na=False, na_values={"low": [""], "high": [""]})
        findings = pd.read_csv(inp[input_key("findings", plan_set, model)], sep="\t",
                               keep_default_na=False)
        rows += assessment.summary_rows(w.collection, plan_set, model, comparisons, findings,
                                        study_design)
    summary = pd.DataFrame(rows, columns=assessment.SUMMARY_COLUMNS)
    write_tsv(summary, snakemake.output.tsv)
    write_text(assessment.summary_markdown(
        summary, f"The four findings, {w.collection}: every plan set and model"),
        snakemake.output.md)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output)
