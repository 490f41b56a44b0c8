"""Run every query type through one retrieval model: one JVM, the index loaded once."""
import logging

import pandas as pd

from gradedrel.core import provenance, terrier
from gradedrel.queries import query_files, query_types
from gradedrel.retrieval import grid
from gradedrel.core.io import sha256_of, write_text, write_tsv
from gradedrel.retrieval.runs import write_run
from gradedrel.core.steps import run_step

log = logging.getLogger("gradedrel")


def main():
    version = terrier.start(**snakemake.params.terrier)
    model = grid.Model.from_config(snakemake.wildcards.model, snakemake.params.model)
    index_dir, depth = snakemake.input.index, snakemake.params.depth
    # the plan set's candidate topics (selection by the judgements comes at evaluation)
    table = pd.read_csv(snakemake.input.candidates, sep="\t", dtype=str, keep_default_na=False)
    topics = table.loc[table["candidate"] == "1", ["qid"]].reset_index(drop=True)
    pipeline = terrier.term_pipeline(index_dir)
    transformer = grid.retriever(model, index_dir, depth)
    not_ranked = []
    for label in snakemake.params.labels:
        path = snakemake.input[f"queries/{label}"]
        run_path = snakemake.output[f"run/{label}"]
        prov_path = snakemake.output[f"provenance/{label}"]
        queries = query_files.read_query_file(path)
        run, missing = grid.run_query_type(model, transformer, topics, queries, label, pipeline)
        log.info("%s %s: %d of %d topics ranked", model.name, label, run["qid"].nunique(),
                 len(topics))
        for reason, count in missing["reason"].value_counts().sort_index().items():
            log.warning("%s %s: %d topic(s) not ranked: %s", model.name, label, count, reason)
        write_run(run, run_path, tag=f"{model.name}-{query_types.slug(label)}",
                  topic_order=topics["qid"].tolist())
        write_text(provenance.record(
            "retrieve", snakemake.params.config, version, model=model.name,
            backend=model.backend, parameters=dict(model.parameters), query_type=label,
            query_file=path, query_file_sha256=sha256_of(path), depth=depth,
            topics=len(topics), ranked=int(run["qid"].nunique()), not_ranked=len(missing)),
            prov_path)
        not_ranked.append(missing)
    write_tsv(pd.concat(not_ranked, ignore_index=True), snakemake.output.not_ranked)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output)
