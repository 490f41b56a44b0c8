"""Verify a SKOS thesaurus copy; write its cached form, summary, provenance."""
import logging

from gradedrel.core import downloads, provenance
from gradedrel.core.io import write_text, write_tsv
from gradedrel.core.steps import run_step
from gradedrel.thesaurus import cache, skos, summary

log = logging.getLogger("gradedrel")


def main():
    source, path = snakemake.params.source, snakemake.input.local
    downloads.verify(path, source["sha256"])  # a local copy is used only with the pinned sha256
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
