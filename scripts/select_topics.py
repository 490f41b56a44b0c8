"""Select the expandable requests; write every topic with the reason."""
import logging

import pandas as pd

from gradedrel import plans, selection
from gradedrel.io import write_tsv
from gradedrel.steps import run_step

log = logging.getLogger("gradedrel")


def main():
    recall_base = pd.read_csv(snakemake.input.recall_base, sep="\t", dtype={"qid": str})
    table = selection.select(plans.read_plans(snakemake.input.plans), recall_base,
                             selection.Criteria.from_config(snakemake.params.criteria))
    log.info("%d of %d topics selected", int(table["selected"].sum()), len(table))
    write_tsv(table, snakemake.output.selected)


run_step(snakemake.log[0], main)
