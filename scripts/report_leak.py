"""The leak diagnostic (Amendment 1, A6): per source class and per curator of each curated
plan set, the level-3 lift and the level-3/level-2 selectivity of its keys, with bootstrap
intervals and the flag (a flag, not a verdict)."""
import logging

import pandas as pd

from gradedrel.collection import postings
from gradedrel.core.io import read_tsv, write_text, write_tsv
from gradedrel.job import run_step
from gradedrel.plans import key_sources
from gradedrel.plans.plan_sets import input_key
from gradedrel.report import design
from gradedrel.integrity import leak

log = logging.getLogger("gradedrel")


def main():
    inp, out, params = snakemake.input, snakemake.output, snakemake.params
    documents = leak.Documents(postings.checked(inp.index, inp.postings))
    qrels = read_tsv(inp.qrels)
    rules = design.load(inp.design).constants
    tables, pair_tables, lines = [], [], [
        f"# Leak diagnostic: {snakemake.wildcards.collection}", ""]
    for plan_set in params.plan_sets:
        pairs, left = leak.pairs(key_sources.read(inp[input_key("key_sources", plan_set)]),
                                 documents, qrels)
        log.info("%s: %d (request, key) pairs; left out %d keys without a term and %d pairs of "
                 "%d requests without a level-3 document", plan_set, len(pairs),
                 left["keys_without_terms"], left["pairs_without_level3"],
                 len(left["requests_without_level3"]))
        table = leak.diagnostic(pairs, documents.N, rules)
        tables.append(table.assign(plan_set=plan_set))
        pair_tables.append(pairs.assign(plan_set=plan_set))
        lines.append(leak.leak_table(table, plan_set, rules, left).to_markdown())
    columns = ["plan_set", *leak.LEAK_COLUMNS]
    write_tsv(pd.concat(tables, ignore_index=True)[columns], out.tsv)
    write_tsv(pd.concat(pair_tables, ignore_index=True)[["plan_set", *leak.PAIR_COLUMNS]],
              out.pairs)
    write_text("\n".join(lines), out.md)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
