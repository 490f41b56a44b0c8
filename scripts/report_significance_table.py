"""Write one of the evaluation's significance files as a table (p < alpha marked)."""
from gradedrel.report import evaluation_files as report_io, tables
from gradedrel.core.steps import run_step

TITLES = {"friedman": "Friedman test per relevance level",
          "posthoc": "Post-hoc pairwise comparisons",
          "vs_baseline": "Each query type against the baseline"}


def main():
    p, w, out = snakemake.params.report, snakemake.wildcards, snakemake.output
    table = tables.significance_table(report_io.read(snakemake.input.tests),
                                      f"{TITLES[w.test]} — {w.collection}, {w.planset} plans, {w.model}",
                                      p["significance_columns"][w.test], p["alpha"])
    table.write(out.csv, out.md, out.tex, out.html)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output)
