"""Read the index's postings (with positions) once into numpy arrays for the InQuery back end."""
import logging
from pathlib import Path

from gradedrel.collection import postings
from gradedrel.core import terrier
from gradedrel.job import run_step


def main():
    terrier.start(**snakemake.params.terrier)
    out = Path(snakemake.output.postings)
    summary = postings.build(snakemake.input.index, out,
                             postings.index_signature(snakemake.input.index))
    logging.getLogger("gradedrel").info(
        "%d postings (%d positions) of %d terms over %d documents", summary["postings"],
        summary["positions"], summary["terms"], summary["documents"])


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
