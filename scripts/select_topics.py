"""Select a plan set's topics; write every topic with the reason, and the selected topics."""
import logging

import pandas as pd

from gradedrel import plans
from gradedrel.plans import selection
from gradedrel.collection.readers import read_topic_list
from gradedrel.core.io import read_tsv, write_tsv
from gradedrel.core.steps import run_step

log = logging.getLogger("gradedrel")


def main():
    recall_base = read_tsv(snakemake.input.recall_base)
    rule, inp = snakemake.params.rule, snakemake.input
    if rule == "selected":  # the expandable requests, by the topic_selection criteria
        table = selection.select(plans.read_plans(inp.plans), recall_base,
                                 selection.Criteria.from_config(snakemake.params.criteria))
    elif rule == "curated":  # the topics that have a curated plan
        files = list(inp.curated)
        table = selection.named(recall_base, [p.qid for p in plans.read_curated(files)],
                                ", ".join(files))
    else:  # a file naming the topics
        table = selection.named(recall_base, read_topic_list(inp.named), inp.named)
    log.info("%d of %d topics selected (%s)", int(table["selected"].sum()), len(table),
             inp.get("named", rule))
    topics = pd.read_csv(snakemake.input.topics, sep="\t", dtype=str, keep_default_na=False)
    chosen = set(table.loc[table["selected"] == 1, "qid"])
    write_tsv(table, snakemake.output.selected)
    write_tsv(topics[topics["qid"].isin(chosen)], snakemake.output.topics)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output)
