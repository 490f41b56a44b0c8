"""A plain plan set's plans and keys in one job: use curated plans where they exist,
automatic plans elsewhere; list the plan set's candidate topics (what its queries and runs
cover: by the plans alone, no judgement); classify every key of the candidates by its source
(request, thesaurus, other_concept, own; docs/preregistration.md, Amendment 1, A1):
key_sources.tsv and the share tables per request and per curator."""
import logging

from gradedrel import plans, thesaurus
from gradedrel.collection.readers import read_topic_list
from gradedrel.core import terrier
from gradedrel.core.io import read_tsv, write_text, write_tsv
from gradedrel.integrity.key_provenance import shares_table
from gradedrel.job import run_step
from gradedrel.plans import analysis, key_sources, selection

log = logging.getLogger("gradedrel")


def merge(inp, out, params):
    """The plan set's plans (curated over automatic) and its candidate topics."""
    auto = plans.read_plans(inp.auto)
    files = list(inp.get("curated") or [])
    curated = plans.read_curated(files)
    merged = plans.merge_curated(auto, curated, ", ".join(files) or "<none>")
    log.info("%d plans, %d curated (%s)", len(merged), len(curated), ", ".join(files) or "none")
    plans.write_plans(merged, out.plans)
    rule = params.rule
    requests = [p.qid for p in merged]
    if rule == "selected":  # the expandable requests, by the plan criteria of topic_selection
        table = selection.candidates(merged, selection.Criteria.from_config(params.criteria))
    elif rule == "curated":  # the topics that have a curated plan
        table = selection.named_candidates(requests, [p.qid for p in curated], ", ".join(files))
    else:  # a file naming the topics
        table = selection.named_candidates(requests, read_topic_list(inp.named), inp.named)
    log.info("%d of %d topics are candidates (%s)", int(table["candidate"].sum()), len(table),
             rule)
    write_tsv(table, out.candidates)


def classify(merged, candidates, inp, out, params, w):
    """Every key of the candidate topics' plans by its source, and the shares."""
    terrier.start(**params.terrier)
    sources = key_sources.KeySources(thesaurus.load(inp.thesaurus),
                                     terrier.term_pipeline(inp.index),
                                     analysis.Rules.from_config(params.analysis))
    curators = key_sources.read_curators(inp.batches, params.curator_column) \
        if params.curator_column else {}
    requests = read_tsv(inp.requests, ("qid", "query"))
    chosen = set(candidates.loc[candidates["candidate"] == 1, "qid"])
    topics = requests[requests["qid"].isin(chosen)]
    table = key_sources.classify([p for p in merged if p.qid in chosen],
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


def main():
    inp, out, params, w = snakemake.input, snakemake.output, snakemake.params, \
        snakemake.wildcards
    merge(inp, out, params)
    # classified as a job of its own read them: from the files just written
    classify(plans.read_plans(out.plans), read_tsv(out.candidates), inp, out, params, w)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
