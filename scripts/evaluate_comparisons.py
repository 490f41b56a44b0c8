"""Compute the numbers the report reads, beside one model's evaluation: every comparison of
the study design (effect, bootstrap interval, p, Holm's p, minimum detectable effect;
``comparisons.tsv``; a p the evaluation's significance tables hold is read from them) and
the difference figures' paired bootstrap intervals (``difference_bands.tsv``)."""
import pandas as pd

from gradedrel.core.io import read_tsv, write_tsv
from gradedrel.evaluation import comparisons
from gradedrel.evaluation.measures import jk
from gradedrel.evaluation.measures.effort import RequestCurves
from gradedrel.job import run_step
from gradedrel.report import design

TEXT = ("run", "qid", "measure", "baseline")   # names, read as text


def main():
    inp, out, p = snakemake.input, snakemake.output, snakemake.params
    study = design.load(inp.design[0])
    per_topic = read_tsv(inp.per_topic, TEXT)
    profiles = [c.parameter("profile") for f in study.findings for c in f.comparisons
                if c.test == "effort_ratio"]
    curves = RequestCurves.read(inp.ranked_grades, inp.recall_base,
                                {name: p.gain_profiles[name] for name in profiles},
                                {int(k): float(v) for k, v in p.gains.items()}, int(p.depth),
                                study.query_types)
    known = comparisons.Known(read_tsv(inp.friedman, TEXT), read_tsv(inp.vs_baseline, TEXT),
                              int(p.seed))
    write_tsv(comparisons.comparisons_table(per_topic, curves, study, known), out.comparisons,
              float_format="%.17g")
    boot = p.bootstrap
    bands = [comparisons.difference_bands(
        per_topic, *jk.curve(name, "report.difference_curves").curve, p.profiles, p.baseline,
        p.query_types, range(1, int(p.max_rank) + 1), boot["resamples"], boot["confidence"],
        boot["seed"]) for name in p.difference_curves]
    write_tsv(pd.concat(bands, ignore_index=True) if bands else
              pd.DataFrame(columns=comparisons.COLUMNS["difference_bands"]), out.bands,
              float_format="%.17g")


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
