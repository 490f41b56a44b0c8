"""Draw the P-R curves per relevance level (one panel per level, six query types)."""
from gradedrel.report import figures, evaluation_files as report_io
from gradedrel.core.steps import run_step


def main():
    p, w, out = snakemake.params.report, snakemake.wildcards, snakemake.output
    fig = figures.pr_figure(report_io.read(snakemake.input.pr_curves, "pr_curves"), p["levels"],
                            p["pr_reading"], p["query_types"], snakemake.params.style,
                            f"P–R curves per relevance level — {w.collection}, {w.planset} plans, {w.model}")
    figures.save(fig, out.png, out.pdf, snakemake.params.style["dpi"])


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output)
