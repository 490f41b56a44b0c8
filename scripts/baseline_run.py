"""Run the baseline model over the raw request text; report what could not run."""
import logging

import pandas as pd

from gradedrel.core import provenance, terrier
from gradedrel.retrieval import baseline
from gradedrel.core.io import write_text, write_tsv
from gradedrel.retrieval.runs import write_run
from gradedrel.job import run_step

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
    write_run(run, snakemake.output.run, tag=f"baseline-{wmodel}",
              topic_order=topics["qid"].tolist())
    write_tsv(excluded, snakemake.output.excluded)
    write_text(provenance.record("baseline_run", snakemake.params.config, version,
                                 wmodel=wmodel, depth=snakemake.params.depth,
                                 topics=len(topics), ranked=int(run["qid"].nunique()),
                                 not_ranked=len(excluded)),
               snakemake.output.provenance)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output)
