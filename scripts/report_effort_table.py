"""Write the effort table (documents to scan to reach the ideal gain at rank k)."""
from gradedrel.report import published, evaluation_files as report_io, tables
from gradedrel.core.steps import run_step


def main():
    p, w, out = snakemake.params.report, snakemake.wildcards, snakemake.output
    table = tables.effort_table(report_io.read(snakemake.input.effort, "effort"),
                                published.load(snakemake.input.published), p["query_types"],
                                p["expanded_strong"],
                                f"Effort to reach the ideal gain — {w.collection}, {w.planset} plans, {w.model}")
    table.write(out.csv, out.md, out.tex, out.html)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output)
