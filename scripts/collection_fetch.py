"""Materialise a collection's ir_datasets files (a local rule: the compute jobs only read
them) and write the manifest of what was read."""
import json
import logging
import os

from gradedrel import collection
from gradedrel.collection import fetch
from gradedrel.core.io import write_text
from gradedrel.job import run_step

log = logging.getLogger("gradedrel")


def main():
    # the spec from the (validated) config; the params hold only what decides the fetch
    name = snakemake.wildcards.collection
    spec = collection.CollectionSpec.from_config(name, snakemake.config["collections"][name])
    collection.use_ir_datasets_home(snakemake.params.ir_datasets_home)
    home = os.environ.get("IR_DATASETS_HOME") or os.path.expanduser("~/.ir_datasets")
    manifest = fetch.materialise(spec, home)
    for part, found in manifest["parts"].items():
        log.info("%s: %d records from ir_datasets:%s", part, found["records"],
                 found["ir_datasets"])
    log.info("%d files under %s, %d bytes in all", len(manifest["files"]), home,
             sum(f["bytes"] for f in manifest["files"]))
    write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", snakemake.output.manifest)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
