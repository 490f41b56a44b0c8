"""Classify every key of one or more plan sets by its source (request, thesaurus,
other_concept, own; Amendment 1, A1): key_sources.tsv and the share tables per request and
per curator, for the plan sets of one collection that share a thesaurus (read once)."""
import logging

from gradedrel import plans, thesaurus
from gradedrel.core import terrier
from gradedrel.core.io import read_tsv, write_text, write_tsv
from gradedrel.core.steps import run_step
from gradedrel.plans import analysis, key_sources
from gradedrel.plans.plan_sets import input_key
from gradedrel.report.key_provenance import shares_table

log = logging.getLogger("gradedrel")


def main():
    inp, out, params = snakemake.input, snakemake.output, snakemake.params
    terrier.start(**params.terrier)
    sources = key_sources.KeySources(thesaurus.load(inp.thesaurus),
                                     terrier.term_pipeline(inp.index),
                                     analysis.Rules.from_config(params.analysis))
    for plan_set in params.plan_sets:
        column = (params.curator_columns or {}).get(plan_set)
        curators = key_sources.read_curators(inp.batches, column) if column else {}
        topics = read_tsv(inp[input_key("topics", plan_set)])
        table = key_sources.classify(plans.read_plans(inp[input_key("plans", plan_set)]),
                                     dict(zip(topics["qid"], topics["query"])), sources,
                                     curators)
        counts = table["source_class"].value_counts()
        log.info("%s: %d keys of %d requests: %s; %d declared relations do not hold",
                 plan_set, len(table), len(topics),
                 ", ".join(f"{c} {int(counts.get(c, 0))}" for c in key_sources.SOURCE_CLASSES),
                 int((table["declared_holds"] == "no").sum()))
        write_tsv(table, out[input_key("key_sources", plan_set)])
        per_request = key_sources.shares(table, "qid")
        per_curator = key_sources.shares(table, "curator")
        write_tsv(per_request, out[input_key("shares_requests", plan_set)], float_format="%.4f")
        write_tsv(per_curator, out[input_key("shares_curators", plan_set)], float_format="%.4f")
        title = f"Where the keys came from: {snakemake.wildcards.collection}, {plan_set}"
        write_text(f"# {title}\n\n"
                   + shares_table(per_curator, "curator", "Per curator").to_markdown() + "\n"
                   + shares_table(per_request, "qid", "Per request").to_markdown(),
                   out[input_key("shares_md", plan_set)])


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output)
