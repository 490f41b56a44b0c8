"""Compute the difference figures' paired bootstrap intervals beside each model's evaluation
(``difference_bands.tsv``): each query type's mean per-topic gain minus the baseline's, per
rank where the evaluation holds per-topic gain values, for each curve the figures draw."""
import pandas as pd

from gradedrel.core.io import read_tsv, write_tsv
from gradedrel.evaluation.comparisons import COLUMNS, difference_bands
from gradedrel.evaluation.measures import jk
from gradedrel.job import run_step


def main():
    p = snakemake.params
    boot = p.bootstrap
    for m in p.models:
        per_topic = read_tsv(snakemake.input[f"per_topic/{m}"], ("run", "qid", "measure"))
        bands = [difference_bands(per_topic, *jk.curve(name, "report.difference_curves").curve,
                                  p.profiles, p.baseline, p.query_types,
                                  range(1, int(p.max_rank) + 1), boot["resamples"],
                                  boot["confidence"], boot["seed"])
                 for name in p.difference_curves]
        table = pd.concat(bands, ignore_index=True) if bands else \
            pd.DataFrame(columns=COLUMNS["difference_bands"])
        write_tsv(table, snakemake.output[f"difference_bands/{m}"], float_format="%.17g")


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
