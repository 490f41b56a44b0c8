"""Draw a plan set's figures, for each report model: P-R curves per relevance level, the
mean gain vectors (CG, DCG, nCG, nDCG) with the ideal vector, and the differences from the
baseline with their paired bootstrap intervals. One job for all the plan set's models (one
start-up); each figure keeps its own matplotlib settings (gradedrel.report.figures), so a
model's files are those it would get in a job of its own."""
import logging

from gradedrel.core import provenance
from gradedrel.core.io import read_tsv, write_text
from gradedrel.evaluation.measures import jk
from gradedrel.job import run_step
from gradedrel.report import figures, evaluation_files as report_io

log = logging.getLogger("gradedrel")


def save(fig, name, out, style):
    figures.save(fig, out[f"{name}/png"], out[f"{name}/pdf"], style["dpi"])


def of_model(files, model):
    """A job's files named ``{name}/{model}`` as ``{name}``: one model's."""
    return {key[: -len(model) - 1]: path for key, path in files.items()
            if key.endswith(f"/{model}")}


def main():
    for model in snakemake.params.models:
        log.info("%s: figures", model)
        draw(model, of_model(snakemake.input, model), of_model(snakemake.output, model))


def draw(model, inp, out):
    """One model's figures and their record."""
    p, w, style = snakemake.params.report, snakemake.wildcards, snakemake.params.style
    where = f"{w.collection}, {w.planset} plans, {model}"
    save(figures.pr_figure(report_io.read(inp["pr_curves"], "pr_curves"), p["levels"],
                           p["pr_reading"], p["query_types"], style,
                           f"P–R curves per relevance level — {where}"), "pr_levels", out, style)
    gain_curves = report_io.read(inp["gain_curves"], "gain_curves")
    for name in p["curves"]:
        curve = jk.curve(name, "report.curves")
        save(figures.gain_figure(gain_curves, curve, p["profiles"], p["query_types"], style,
                                 f"{curve.label(long=True)} — {where}"),
             curve.figure_name, out, style)
    # the evaluation's paired bootstrap intervals (evaluate_difference_bands), read exactly
    every_band = read_tsv(inp["difference_bands"], ("run", "profile", "kind"),
                          exact_floats=True)
    boot = p["bootstrap"]
    for name in p["difference_curves"]:
        curve = jk.curve(name, "report.difference_curves")
        kind, base = curve.curve
        bands = every_band[(every_band["kind"] == kind)
                           & (every_band["base"].astype(int) == int(base))
                           & (every_band["rank"].astype(int) <= style["max_rank"])]
        ranks = sorted(set(bands["rank"]))
        log.info("%s: bootstrap intervals at ranks %s over %s topics", name, ranks,
                 sorted(set(bands["topics"])))
        if bands.empty:
            log.warning("%s: no per-topic values for %s; drawing without intervals",
                        inp["difference_bands"], name)
        shown = ", ".join(map(str, ranks)) if len(ranks) <= 5 else f"{ranks[0]}–{ranks[-1]}"
        note = (f"{'bars' if len(ranks) <= 5 else 'shaded'}: {100 * boot['confidence']:g} % "
                f"paired bootstrap interval of the mean difference over topics (ranks {shown})")
        save(figures.difference_figure(
            gain_curves, bands, curve, p["profiles"], p["baseline"],
            p["query_types"], style, f"Difference from {p['baseline']} per rank — {where}", note),
            f"diff_{curve.figure_name}", out, style)
    # the figures' record (run_step adds their checksums): figures/ is copied with results/
    write_text(provenance.record("report_figures", {"report": p, "figures": style}),
               out["provenance"])


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
