"""Draw mean gain vectors (CG, DCG, nCG or nDCG) per gain profile, with the ideal vector."""
from gradedrel.report import figures, evaluation_files as report_io
from gradedrel.core.steps import run_step

NAMES = {"CG": "Cumulated gain", "DCG": "Discounted cumulated gain",
         "nCG": "Normalised cumulated gain", "nDCG": "Normalised discounted cumulated gain"}


def main():
    p, w, out = snakemake.params.report, snakemake.wildcards, snakemake.output
    kind, base = figures.parse_curve(w.curve)
    name = NAMES[kind] + (f" (b = {base})" if base else "")
    fig = figures.gain_figure(report_io.read(snakemake.input.gain_curves, "gain_curves"), kind,
                              base, p["profiles"], p["query_types"], snakemake.params.style,
                              f"{name} — {w.collection}, {w.planset} plans, {w.model}")
    figures.save(fig, out.png, out.pdf, snakemake.params.style["dpi"])


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output)
