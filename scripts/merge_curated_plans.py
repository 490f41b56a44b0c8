"""Use curated plans where they exist, automatic plans elsewhere; list the plan set's
candidate topics (what its queries and runs cover: by the plans alone, no judgement)."""
import logging

from gradedrel import plans
from gradedrel.collection.readers import read_topic_list
from gradedrel.core.io import write_tsv
from gradedrel.job import run_step
from gradedrel.plans import selection

log = logging.getLogger("gradedrel")


def main():
    auto = plans.read_plans(snakemake.input.auto)
    files = list(snakemake.input.get("curated") or [])
    curated = plans.read_curated(files)
    merged = plans.merge_curated(auto, curated, ", ".join(files) or "<none>")
    log.info("%d plans, %d curated (%s)", len(merged), len(curated), ", ".join(files) or "none")
    plans.write_plans(merged, snakemake.output.plans)
    rule = snakemake.params.rule
    requests = [p.qid for p in merged]
    if rule == "selected":  # the expandable requests, by the plan criteria of topic_selection
        table = selection.candidates(merged, selection.Criteria.from_config(
            snakemake.params.criteria))
    elif rule == "curated":  # the topics that have a curated plan
        table = selection.named_candidates(requests, [p.qid for p in curated], ", ".join(files))
    else:  # a file naming the topics
        named = snakemake.input.named
        table = selection.named_candidates(requests, read_topic_list(named), named)
    log.info("%d of %d topics are candidates (%s)", int(table["candidate"].sum()), len(table),
             rule)
    write_tsv(table, snakemake.output.candidates)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
