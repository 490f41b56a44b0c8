"""Derive a plan set from another: the parent's plans with only some of their keys
(Amendment 1, A2), written with the plan writer; what was left out is counted."""
import logging
from pathlib import Path

import pandas as pd

from gradedrel import plans
from gradedrel.core.io import write_text, write_tsv
from gradedrel.job import run_step
from gradedrel.plans import key_sources, transform

log = logging.getLogger("gradedrel")


def main():
    inp, out, params = snakemake.input, snakemake.output, snakemake.params
    derivation = transform.Derivation.from_config(params.derivation, params.plan_set)
    ratings = None
    if inp.get("rating_items"):   # the blinded rating: its items and every batch's answers
        read = lambda path: pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
        frame = transform.join_ratings(read(inp.rating_items),
                                       {path: read(path) for path in inp.ratings},
                                       inp.rating_items)
        ratings = transform.ratings_table(frame, inp.rating_items, params.parent)
    sources = key_sources.read(inp.key_sources)
    derived = transform.derive(plans.read_plans(inp.plans), sources, derivation, ratings,
                               params.parent)
    # A8: the share of the parent's own/other_concept keys rated 'page', per curator and all
    shares = transform.page_shares(sources, ratings) if ratings is not None else \
        pd.DataFrame(columns=transform.RATING_COLUMNS)
    if ratings is None:
        log.info("%s: no blinded rating used, page_shares.tsv has no rows", params.plan_set)
    s = derived.summary
    log.info("%s from %s (%s): %d of %d keys kept; %d concepts and %d facets dropped; "
             "%d plans left without a key (run as no query); %d plans of other requests "
             "not derived", params.plan_set, params.parent, derivation.describe(),
             int(s["kept"].sum()), int(s["keys"].sum()), int(s["concepts_dropped"].sum()),
             int(s["facets_dropped"].sum()), int(s["empty"].sum()), len(derived.left_out_plans))
    plans.write_plans(derived.plans, out.plans)
    write_tsv(derived.key_sources, out.key_sources)
    write_tsv(s, out.summary)
    write_tsv(shares, out.page_shares)
    # the parent's candidate topics: a derived plan set runs and evaluates the same requests
    write_text(Path(inp.candidates).read_text(encoding="utf-8"), out.candidates)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
