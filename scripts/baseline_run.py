"""Run the baseline model over the raw request text (plain TREC, its ir_metadata record in
the file beside the run); report what could not run."""
import json
import logging
from pathlib import Path

import pandas as pd

from gradedrel.collection import spec
from gradedrel.core import ir_metadata, provenance, terrier
from gradedrel.retrieval import baseline
from gradedrel.core.io import write_text, write_tsv
from gradedrel.retrieval.runs import write_run
from gradedrel.job import ir_metadata_context, run_step
from gradedrel.study import BASELINE, run_tag

log = logging.getLogger("gradedrel")


def main():
    version = terrier.start(**snakemake.params.terrier)
    topics = pd.read_csv(snakemake.input.topics, sep="\t", dtype=str, keep_default_na=False)
    index = terrier.open_index(snakemake.input.index)
    queries, excluded = baseline.baseline_queries(topics,
                                                  terrier.term_pipeline(snakemake.input.index))
    wmodel = snakemake.wildcards.wmodel
    run = baseline.retrieve(snakemake.input.index, queries, wmodel, snakemake.params.depth,
                            index=index)
    excluded = pd.concat([excluded, baseline.unmatched(queries, run)], ignore_index=True)
    for row in excluded.itertuples():
        log.warning("topic %s: %s", row.qid, row.reason)
    tag = run_tag(BASELINE, wmodel)
    write_run(run, snakemake.output.run, tag=tag, topic_order=topics["qid"].tolist(),
              record=record(tag, wmodel, version))
    write_tsv(excluded, snakemake.output.excluded)
    write_text(provenance.record("baseline_run", snakemake.params.config, version,
                                 wmodel=wmodel, depth=snakemake.params.depth,
                                 topics=len(topics), ranked=int(run["qid"].nunique()),
                                 not_ranked=len(excluded)),
               snakemake.output.provenance)


def record(tag, wmodel, version):
    """The baseline run's ir_metadata record: its model over the raw request text."""
    local = {part: snakemake.input[f"data/{part}"] for part in ("docs", "topics")
             if f"data/{part}" in snakemake.input.keys()}
    census = json.loads(Path(snakemake.input.census).read_text(encoding="utf-8"))
    method = ir_metadata.method_of_run(
        f"baseline-{wmodel}", "terrier", {"wmodel": wmodel}, snakemake.params.depth, census,
        snakemake.params.plan_set, "raw request text",
        ir_metadata.file_record(snakemake.input.topics))
    platform, implementation = ir_metadata.gathered(
        "baseline_run", "scripts/baseline_run.py", version, terrier.java_version())
    goal, other = ir_metadata_context(snakemake.config, BASELINE, None)
    return ir_metadata.run_record(
        tag, snakemake.wildcards.collection,
        spec.ids_of(snakemake.params.collection, ("docs", "topics")), local,
        ir_metadata.read_manifest(snakemake.input.get("downloads")), other, method, goal,
        platform, implementation)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
