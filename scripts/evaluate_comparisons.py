"""Compute the numbers the findings report reads, beside each evaluation of a collection's
plan sets and report models: every comparison of the study design (effect, bootstrap
interval, p, Holm's p, minimum detectable effect; ``comparisons.tsv``). One job for the
collection: the design read once."""
from gradedrel.core.io import read_tsv, write_tsv
from gradedrel.evaluation import comparisons
from gradedrel.evaluation.measures.effort import RequestCurves
from gradedrel.job import run_step
from gradedrel.plans.plan_sets import input_key
from gradedrel.report import design

TEXT = ("run", "qid", "measure")   # names, read as text


def main():
    inp, p = snakemake.input, snakemake.params
    study = design.load(inp.design[0])
    profiles = [c.parameter("profile") for f in study.findings for c in f.comparisons
                if c.test == "effort_ratio"]
    for plan_set, m in p.conditions:
        curves = RequestCurves.read(inp[input_key("ranked_grades", plan_set, m)],
                                    inp.recall_base,
                                    {name: p.gain_profiles[name] for name in profiles},
                                    {int(k): float(v) for k, v in p.gains.items()},
                                    int(p.depth), study.query_types)
        table = comparisons.comparisons_table(
            read_tsv(inp[input_key("per_topic", plan_set, m)], TEXT), curves, study)
        write_tsv(table, snakemake.output[input_key("comparisons", plan_set, m)],
                  float_format="%.17g")


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
