"""Select a plan set's topics (its candidates with the judgements the evaluation needs),
then evaluate the runs of its models on them with the paper's graded measures (the code
behind `gradedrel evaluate`), each model's ir_metadata beside its tables: one job for all
the plan set's models, the judgements read once. The plain baseline: no selection, every
topic with judgements."""
import logging
from dataclasses import asdict

import pandas as pd

from gradedrel.collection.readers import read_qrels_tsv
from gradedrel.collection import spec
from gradedrel.core import ir_metadata
from gradedrel.core.io import read_tsv, write_text, write_tsv
from gradedrel.job import ir_metadata_context, per_model_pages, run_step
from gradedrel.evaluation.files import evaluate_files
from gradedrel.evaluation.settings import Settings
from gradedrel.plans import selection

log = logging.getLogger("gradedrel")


def main():
    qrels = read_qrels_tsv(snakemake.input.qrels)
    settings = Settings.from_config(snakemake.params.evaluation,
                                    snakemake.params.standard_measures)
    inp, out = snakemake.input, snakemake.output
    topics = None  # the baseline is evaluated on every topic with judgements
    if "candidates" in inp.keys():
        topics = select_topics(snakemake.params.topic_selection, inp, out)
    local = {part: snakemake.input[f"data/{part}"] for part in ("docs", "topics", "qrels")
             if f"data/{part}" in snakemake.input.keys()}
    manifest = ir_metadata.read_manifest(snakemake.input.get("downloads"))
    data = ir_metadata.data_files(local, manifest)
    for model, labels in snakemake.params.labels.items():
        log.info("%s: evaluating %d run(s)", model, len(labels))
        runs = {label: snakemake.input[f"run/{model}/{label}"] for label in labels}
        evaluate_model(model, runs, qrels, settings, topics, local, manifest, data)


def select_topics(setting, inp, out):
    """The plan set's topics (gradedrel.plans.selection.select_by), written with every
    topic's reason; their ids, in the collection's order."""
    table, rows = selection.select_by(
        setting, read_tsv(inp.candidates), read_tsv(inp.recall_base),
        pd.read_csv(inp.topics, sep="\t", dtype=str, keep_default_na=False))
    log.info("%d of %d topics selected (%s)", int(table["selected"].sum()), len(table),
             setting["source"] or setting["rule"])
    write_tsv(table, out.selected)
    write_tsv(rows, out.topics)
    return rows["qid"].tolist()


def evaluate_model(model, runs, qrels, settings, topics, local, manifest, data):
    """One model's evaluation: its tables, then its ir_metadata."""
    out = snakemake.output
    out_dir = out[f"means/{model}"].rsplit("/", 1)[0]
    tables = evaluate_files(runs, qrels, settings, out_dir, topics,
                            qrels_source=snakemake.input.qrels, data=data)
    collection = snakemake.params.collection
    method = ir_metadata.method_of_evaluation(
        dict.fromkeys(tables["means"]["measure"]), asdict(settings),
        collection.get("grade_map"), settings.baseline_run,
        snakemake.params.plan_set.get("automatic", True))
    platform, implementation = ir_metadata.gathered("evaluate_runs", "scripts/evaluate_runs.py")
    evaluated = [{"label": label, "run": ir_metadata.file_record(path)}
                 for label, path in runs.items()]
    goal, other = ir_metadata_context(snakemake.config, snakemake.wildcards.planset,
                                      snakemake.params.plan_set.get("thesaurus"))
    write_text(ir_metadata.dump(ir_metadata.evaluation_document(
        snakemake.wildcards.collection, spec.ids_of(collection, ("docs", "topics", "qrels")),
        local, manifest,
        {"mapped": snakemake.input.qrels, "mapped, TREC": snakemake.input.qrels_levels},
        method, evaluated, platform, implementation, goal, other)), out[f"metadata/{model}"])


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output,
         per_model_pages(snakemake.wildcards),
         config=snakemake.config)
