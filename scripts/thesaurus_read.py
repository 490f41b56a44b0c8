"""Fetch (if absent) and verify a SKOS thesaurus; write its cached form, summary, provenance."""
import logging

from gradedrel import provenance
from gradedrel.io import write_text, write_tsv
from gradedrel.steps import run_step
from gradedrel.thesaurus import cache, skos, sources, summary

log = logging.getLogger("gradedrel")


def main():
    name, source = snakemake.params.name, snakemake.params.source
    # Downloaded when absent; a local copy is used only if it has the pinned sha256.
    path = sources.ensure(name, {"thesauri": {name: source}})
    base = source.get("base", "")
    thesaurus = skos.read_skos(path, base=base)
    log.info("%s: %d concepts", path, len(thesaurus))
    cache.write(snakemake.output.thesaurus, thesaurus, source_sha256=source["sha256"],
                reader_version=skos.READER_VERSION, source=source["url"], base=base)
    write_tsv(summary.statistics(thesaurus), snakemake.output.summary)
    write_text(provenance.record("thesaurus_read", source, None,
                                 reader_version=skos.READER_VERSION,
                                 cache_format_version=cache.FORMAT_VERSION,
                                 concepts=len(thesaurus),
                                 lxml=provenance.package_versions(("lxml",))["lxml"]),
               snakemake.output.provenance)


run_step(snakemake.log[0], main)
