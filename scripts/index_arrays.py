"""Read the index's postings (with positions) once into numpy arrays for the InQuery back end."""
import logging
from pathlib import Path

from gradedrel.collection import postings
from gradedrel.core import terrier
from gradedrel.core.steps import run_step


def main():
    terrier.start(**snakemake.params.terrier)
    out = Path(snakemake.output.postings)
    arrays = postings.read_index(terrier.open_index(snakemake.input.index))
    postings.save(arrays, out, postings.index_signature(snakemake.input.index))
    logging.getLogger("gradedrel").info(
        "%d postings (%d positions) of %d terms over %d documents, avg_dl %.2f", len(arrays.docids),
        len(arrays.positions), len(arrays.terms), arrays.N, arrays.avg_dl)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output)
