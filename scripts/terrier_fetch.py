"""Make sure the pinned Terrier jars are in the local cache (a local rule: compute jobs
start the JVM from the cache, with no network) and record their sizes and sha256."""
import json
import logging

from gradedrel.core import terrier
from gradedrel.core.io import sha256_of, write_text
from gradedrel.job import run_step

log = logging.getLogger("gradedrel")


def main():
    jars = terrier.fetch_jars(**snakemake.params.terrier)
    record = {"terrier": snakemake.params.terrier,
              "jars": [{"jar": jar.name, "bytes": jar.stat().st_size, "sha256": sha256_of(jar)}
                       for jar in jars]}
    for jar in jars:
        log.info("%s (in %s)", jar.name, jar.parent)
    write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", snakemake.output.jars)


run_step(snakemake.log[0], main, None, snakemake.output, config=snakemake.config)
