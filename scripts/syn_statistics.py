"""Measure Terrier's summed #syn df against the true union df, per synonym group (counted
from the posting arrays)."""
import pandas as pd

from gradedrel.collection import matches, postings
from gradedrel.core import terrier
from gradedrel.core.io import read_tsv, write_tsv
from gradedrel.job import run_step
from gradedrel.queries import matchop, syn_statistics


def main():
    terrier.start(**snakemake.params.terrier)
    index = terrier.open_index(snakemake.input.index)
    documents = terrier.index_statistics(index)["documents"]
    pipeline = terrier.term_pipeline(snakemake.input.index)
    writer = matchop.MatchOpWriter(pipeline, snakemake.params.phrase_operator)
    counter = matches.MatchCounter(postings.checked(snakemake.input.index,
                                                              snakemake.input.postings), pipeline)
    rows = syn_statistics.query_file_rows(snakemake.input.queries, writer, counter, documents)
    write_tsv(rows, snakemake.output.groups, float_format="%.4f")
    table = read_tsv(snakemake.input.candidates)
    candidates = set(table.loc[table["candidate"] == 1, "qid"])
    write_tsv(syn_statistics.summary(rows, documents, candidates), snakemake.output.summary,
              float_format="%.4f")


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
