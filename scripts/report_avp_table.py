"""Write the stratified AvP table in the paper's layout, beside the published numbers."""
from gradedrel.report import published, evaluation_files as report_io, tables
from gradedrel.core.steps import run_step


def main():
    p, w, out = snakemake.params.report, snakemake.wildcards, snakemake.output
    table = tables.avp_table(report_io.read(snakemake.input.means, "means"),
                             published.load(snakemake.input.published), p["query_types"],
                             p["levels"],
                             f"Stratified AvP (%) per relevance level — {w.collection}, {w.planset} plans, {w.model}")
    table.write(out.csv, out.md, out.tex, out.html)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output)
