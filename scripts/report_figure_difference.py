"""Draw each query type's gain minus the baseline's per rank, with bootstrap bands."""
import logging

from gradedrel import figures, report_io
from gradedrel.steps import run_step

KEYS = ["run", "profile", "kind", "base", "rank"]


def main():
    p, w, out = snakemake.params.report, snakemake.wildcards, snakemake.output
    kind, base = figures.parse_curve(w.curve)
    boot = report_io.read(snakemake.input.bootstrap)
    lo, hi = p["bootstrap_columns"]["lo"], p["bootstrap_columns"]["hi"]
    bands = None
    if all(c in boot.columns for c in KEYS + [lo, hi]):
        bands = boot[KEYS + [lo, hi]].rename(columns={lo: "lo", hi: "hi"})
        bands = bands[(bands["kind"] == kind) & (bands["base"].astype(int) == base)]
    if bands is None or bands.empty:   # said in the log and on the figure
        logging.getLogger("gradedrel").warning(
            "%s: no per-rank bootstrap rows (columns %s) for %s; drawing without bands",
            snakemake.input.bootstrap, KEYS + [lo, hi], w.curve)
    fig = figures.difference_figure(
        report_io.read(snakemake.input.gain_curves, "gain_curves"), bands, kind, base,
        p["profiles"], p["baseline"], p["query_types"], snakemake.params.style,
        f"Difference from {p['baseline']} per rank — {w.collection}, {w.model}")
    figures.save(fig, out.png, out.pdf, snakemake.params.style["dpi"])


run_step(snakemake.log[0], main)
