"""Evaluate a set of runs with the paper's graded measures (the code behind `gradedrel evaluate`)."""
from gradedrel.collection.readers import read_qrels_tsv
from gradedrel.evaluation.files import evaluate_files
from gradedrel.evaluation.settings import Settings
from gradedrel.core.io import read_tsv
from gradedrel.core.steps import run_step


def main():
    qrels = read_qrels_tsv(snakemake.input.qrels)
    settings = Settings.from_config(snakemake.params.evaluation,
                                    snakemake.params.standard_measures)
    runs = {label: snakemake.input[f"run/{label}"] for label in snakemake.params.labels}
    out_dir = snakemake.output.means.rsplit("/", 1)[0]
    topics = None  # the baseline is evaluated on every topic with judgements
    if "topics" in snakemake.input.keys():
        topics = read_tsv(snakemake.input.topics)["qid"].tolist()
    evaluate_files(runs, qrels, settings, out_dir, topics, qrels_source=snakemake.input.qrels)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output)
