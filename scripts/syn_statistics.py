"""Measure Terrier's summed #syn df against the true union df, per synonym group."""
import json

import pandas as pd

from gradedrel.core import terrier
from gradedrel.queries import matchop, query_tree, syn_statistics
from gradedrel.core.io import write_tsv
from gradedrel.core.steps import run_step


def main():
    import pyterrier as pt

    terrier.start(**snakemake.params.terrier)
    index = terrier.open_index(snakemake.input.index)
    documents = terrier.index_statistics(index)["documents"]
    writer = matchop.MatchOpWriter(terrier.term_pipeline(snakemake.input.index),
                                   snakemake.params.phrase_operator)
    counter = pt.terrier.Retriever(index, wmodel="Tf", num_results=documents + 1)
    cache: dict[str, int] = {}

    def count(query: str) -> int:
        if query not in cache:
            cache[query] = len(counter.search(query))
        return cache[query]

    rows = []
    for path in snakemake.input.queries:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                rows += syn_statistics.group_rows(record["qid"], record["query_type"],
                                                  query_tree.from_dict(record["tree"]),
                                                  writer, count, documents)
    rows = pd.DataFrame(rows, columns=["qid", "query_type", "group", "members", "summed_df",
                                       "union_df", "ratio", "over_half", "over_n"])
    write_tsv(rows, snakemake.output.groups, float_format="%.4f")
    chosen = pd.read_csv(snakemake.input.selected, sep="\t", dtype={"qid": str})
    selected = set(chosen.loc[chosen["selected"] == 1, "qid"])
    write_tsv(syn_statistics.summary(rows, documents, selected), snakemake.output.summary,
              float_format="%.4f")


run_step(snakemake.log[0], main)
