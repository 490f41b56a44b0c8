"""Classify every key of a plan set by its source (request, thesaurus, other_concept, own;
docs/preregistration.md, Amendment 1, A1): key_sources.tsv and the share tables per
request and per curator."""
import logging

from gradedrel import plans, thesaurus
from gradedrel.core import terrier
from gradedrel.core.io import read_tsv, write_text, write_tsv
from gradedrel.job import run_step
from gradedrel.plans import analysis, key_sources
from gradedrel.integrity.key_provenance import shares_table

log = logging.getLogger("gradedrel")


def main():
    inp, out, params, w = snakemake.input, snakemake.output, snakemake.params, \
        snakemake.wildcards
    terrier.start(**params.terrier)
    sources = key_sources.KeySources(thesaurus.load(inp.thesaurus),
                                     terrier.term_pipeline(inp.index),
                                     analysis.Rules.from_config(params.analysis))
    curators = key_sources.read_curators(inp.batches, params.curator_column) \
        if params.curator_column else {}
    requests = read_tsv(inp.requests, ("qid", "query"))
    candidates = read_tsv(inp.candidates)
    chosen = set(candidates.loc[candidates["candidate"] == 1, "qid"])
    topics = requests[requests["qid"].isin(chosen)]
    table = key_sources.classify(
        [p for p in plans.read_plans(inp.plans) if p.qid in chosen],
        dict(zip(topics["qid"], topics["query"])), sources, curators)
    counts = table["source_class"].value_counts()
    log.info("%s: %d keys of %d requests: %s; %d declared relations do not hold", w.planset,
             len(table), len(topics),
             ", ".join(f"{c} {int(counts.get(c, 0))}" for c in key_sources.SOURCE_CLASSES),
             int((table["declared_holds"] == "no").sum()))
    write_tsv(table, out.key_sources)
    per_request = key_sources.shares(table, "qid")
    per_curator = key_sources.shares(table, "curator")
    write_tsv(per_request, out.shares_requests, float_format="%.4f")
    write_tsv(per_curator, out.shares_curators, float_format="%.4f")
    title = f"Where the keys came from: {w.collection}, {w.planset}"
    write_text(f"# {title}\n\n"
               + shares_table(per_curator, "curator", "Per curator").to_markdown() + "\n"
               + shares_table(per_request, "qid", "Per request").to_markdown(),
               out.shares_md)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
