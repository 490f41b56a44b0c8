"""Draw each query type's gain minus the baseline's per rank, with paired bootstrap
intervals at the ranks where per-topic gain values exist."""
import logging

from gradedrel.report import bootstrap, figures, evaluation_files as report_io
from gradedrel.core.steps import run_step


def main():
    p, w, out = snakemake.params.report, snakemake.wildcards, snakemake.output
    style, boot = snakemake.params.style, p["bootstrap"]
    kind, base = figures.parse_curve(w.curve)
    bands = bootstrap.difference_bands(
        report_io.read(snakemake.input.per_topic, "per_topic"), kind, base, p["profiles"],
        p["baseline"], p["query_types"], range(1, style["max_rank"] + 1),
        boot["resamples"],
        boot["confidence"], boot["seed"])
    ranks = sorted(set(bands["rank"]))
    log = logging.getLogger("gradedrel")
    log.info("bootstrap intervals at ranks %s over %s topics", ranks,
             sorted(set(bands["topics"])))
    if bands.empty:
        log.warning("%s: no per-topic values for %s; drawing without intervals",
                    snakemake.input.per_topic, w.curve)
    shown = ", ".join(map(str, ranks)) if len(ranks) <= 5 else f"{ranks[0]}–{ranks[-1]}"
    note = (f"{'bars' if len(ranks) <= 5 else 'shaded'}: {100 * boot['confidence']:g} % paired "
            f"bootstrap interval of the mean difference over topics (ranks {shown})")
    fig = figures.difference_figure(
        report_io.read(snakemake.input.gain_curves, "gain_curves"), bands, kind, base,
        p["profiles"], p["baseline"], p["query_types"], style,
        f"Difference from {p['baseline']} per rank — {w.collection}, {w.planset} plans, {w.model}", note)
    figures.save(fig, out.png, out.pdf, style["dpi"])


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output)
