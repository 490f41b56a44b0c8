"""Write the standard measures (ir_measures names) per query type."""
from gradedrel.report import evaluation_files as report_io, tables
from gradedrel.core.steps import run_step


def main():
    p, w, out = snakemake.params.report, snakemake.wildcards, snakemake.output
    table = tables.standard_measures_table(report_io.read(snakemake.input.means, "means"),
                                           p["query_types"], p["standard_measures"],
                                           f"Standard measures — {w.collection}, {w.planset} plans, {w.model}")
    table.write(out.csv, out.md, out.tex, out.html)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output)
