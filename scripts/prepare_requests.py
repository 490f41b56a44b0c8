"""Read a collection's requests (qid, request text) from its topics, as configured."""
import logging

from gradedrel import collection
from gradedrel.core.io import write_tsv
from gradedrel.job import run_step

log = logging.getLogger("gradedrel")


def main():
    name = snakemake.wildcards.collection
    spec = collection.CollectionSpec.from_config(name, snakemake.params.requests,
                                                 needs=("topics",))
    collection.use_ir_datasets_home(snakemake.params.ir_datasets_home)
    requests = collection.load_topics(spec)
    log.info("%d requests (field %s)", len(requests), spec.topic_field)
    write_tsv(requests, snakemake.output.requests)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
