"""Fetch (if absent) and verify a thesaurus (SKOS, MeSH, WordNet); write its cached form,
summary, provenance."""
import logging

from gradedrel import provenance
from gradedrel.io import write_text, write_tsv
from gradedrel.steps import run_step
from gradedrel.thesaurus import cache, sources, summary

log = logging.getLogger("gradedrel")

#: The package each source's reader parses with (recorded in provenance.json);
#: WordNet needs only the standard library.
PARSERS = {"skos": ("lxml",), "mesh": ("rdata",), "wordnet": ()}


def main():
    name, source = snakemake.params.name, snakemake.params.source
    config = {"thesauri": {name: source}}
    # Downloaded when absent; a local copy is used only if it has the pinned sha256.
    paths = sources.ensure_files(name, config)
    spec = sources.entry(name, config)
    thesaurus = sources.read_spec(spec, paths)
    log.info("%s: %d concepts", ", ".join(map(str, paths.values())), len(thesaurus))
    header = sources.cache_header(spec)  # source: the download URL(s)
    cache.write(snakemake.output.thesaurus, thesaurus, **header)
    write_tsv(summary.statistics(thesaurus), snakemake.output.summary)
    parsers = PARSERS[sources.kind(spec)]
    extra = {"reader_version": header["reader_version"],
             "cache_format_version": cache.FORMAT_VERSION, "concepts": len(thesaurus),
             **{p: provenance.package_versions(parsers)[p] for p in parsers}}
    if header["provenance"] is not None:
        extra["thesaurus_source"] = header["provenance"]
    write_text(provenance.record("thesaurus_read", source, None, **extra),
               snakemake.output.provenance)


run_step(snakemake.log[0], main)
