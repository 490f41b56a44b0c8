"""Compile every plan into the six query types (query tree + Terrier MatchOp)."""
import logging

import pandas as pd

from gradedrel import plans
from gradedrel.core import provenance, terrier
from gradedrel.core.io import read_tsv, sha256_of, write_text, write_tsv
from gradedrel.queries import matchop, query_files, query_statistics
from gradedrel.job import run_step

log = logging.getLogger("gradedrel")


def main():
    version = terrier.start(**snakemake.params.terrier)
    pipeline = terrier.term_pipeline(snakemake.input.index)
    writer = matchop.MatchOpWriter(pipeline, snakemake.params.phrase_operator)
    # only the plan set's candidate topics (the expandable requests, or those it names)
    table = read_tsv(snakemake.input.candidates)
    chosen = set(table.loc[table["candidate"] == 1, "qid"])
    all_plans = [p for p in plans.read_plans(snakemake.input.plans) if p.qid in chosen]
    paths = {label: snakemake.output[f"queries/{label}"] for label in snakemake.params.labels}
    rows, excluded = query_files.write_query_files(all_plans, paths, pipeline, writer,
                                                   snakemake.params.weights)
    for qid, label, reason in excluded:
        log.warning("topic %s, %s: %s", qid, label, reason)
    per_topic = pd.DataFrame(rows)
    write_tsv(per_topic, snakemake.output.statistics)
    write_tsv(query_statistics.means_by_subset(per_topic, chosen), snakemake.output.means,
              float_format="%.3f")
    write_tsv(pd.DataFrame(excluded, columns=["qid", "query_type", "reason"]),
              snakemake.output.excluded)
    digest = sha256_of(snakemake.input.plans)
    write_text(provenance.record("compile_queries", snakemake.params.config, version,
                                 plans_sha256=digest, excluded=len(excluded)),
               snakemake.output.provenance)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
