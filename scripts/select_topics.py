"""Select a plan set's topics: its candidates with the judgements the evaluation needs;
write every topic with the reason, and the selected topics."""
import logging

import pandas as pd

from gradedrel.core.io import read_tsv, write_tsv
from gradedrel.job import run_step
from gradedrel.plans import selection

log = logging.getLogger("gradedrel")


def main():
    inp, params = snakemake.input, snakemake.params
    criteria = selection.Criteria.from_config(params.criteria) if params.rule == "selected" \
        else None
    table = selection.select(read_tsv(inp.candidates), read_tsv(inp.recall_base), criteria,
                             params.source)
    log.info("%d of %d topics selected (%s)", int(table["selected"].sum()), len(table),
             params.source or params.rule)
    topics = pd.read_csv(inp.topics, sep="\t", dtype=str, keep_default_na=False)
    chosen = set(table.loc[table["selected"] == 1, "qid"])
    write_tsv(table, snakemake.output.selected)
    write_tsv(topics[topics["qid"].isin(chosen)], snakemake.output.topics)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
