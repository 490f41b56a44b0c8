"""Evaluate a run with ir_measures over the normalised (0-3) qrels."""
import pandas as pd

from gradedrel import standard_measures
from gradedrel.io import write_tsv
from gradedrel.steps import run_step


def main():
    topics = pd.read_csv(snakemake.input.topics, sep="\t", dtype=str, keep_default_na=False)
    qrels = pd.read_csv(snakemake.input.qrels, sep="\t", dtype={"qid": str, "docno": str})
    run = pd.read_csv(snakemake.input.run, sep=r"\s+", header=None, dtype={0: str, 2: str},
                      names=["qid", "q0", "docno", "rank", "score", "tag"])
    values = standard_measures.per_topic(qrels, run, topics["qid"].tolist(),
                                         snakemake.params.measures)
    write_tsv(values, snakemake.output.per_topic)
    write_tsv(standard_measures.means(values, snakemake.params.measures), snakemake.output.means)


run_step(snakemake.log[0], main)
