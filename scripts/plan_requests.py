"""Analyse each request into an automatic plan (facets, concepts, keys, expansion)."""
import pandas as pd

from gradedrel import plans, thesaurus
from gradedrel.collection import matches, postings
from gradedrel.core import provenance, terrier
from gradedrel.plans import key_stats, planner
from gradedrel.core.io import sha256_of, write_text
from gradedrel.job import run_step


def main():
    version = terrier.start(**snakemake.params.terrier)
    index = terrier.open_index(snakemake.input.index)
    pipeline = terrier.term_pipeline(snakemake.input.index)
    documents = terrier.index_statistics(index)["documents"]
    counter = matches.MatchCounter(postings.checked(snakemake.input.index,
                                                              snakemake.input.postings), pipeline)
    stats = key_stats.KeyStatistics(pipeline, key_stats.terrier_term_df(index), documents,
                                    key_stats.posting_phrase_df(counter,
                                                                snakemake.params.phrase_operator))
    model = planner.Planner.build(thesaurus.load(snakemake.input.thesaurus), pipeline, stats,
                                  snakemake.params.analysis, snakemake.params.expansion)
    topics = pd.read_csv(snakemake.input.topics, sep="\t", dtype=str, keep_default_na=False)
    plans.write_plans([model.plan(q, text) for q, text in zip(topics["qid"], topics["query"])],
                      snakemake.output.plans)
    digest = sha256_of(snakemake.input.thesaurus)
    write_text(provenance.record("plan_requests", {"analysis": snakemake.params.analysis,
                                                   "expansion": snakemake.params.expansion},
                                 version, thesaurus_sha256=digest, topics=len(topics)),
               snakemake.output.provenance)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
