"""Verify a thesaurus's local copies (SKOS, MeSH, WordNet); write its cached form, summary,
provenance. The copies are made by thesaurus_fetch (declared inputs, by role)."""
import logging
from pathlib import Path

from gradedrel.core import downloads, provenance
from gradedrel.core.io import write_text, write_tsv
from gradedrel.job import run_step
from gradedrel.thesaurus import cache, sources

log = logging.getLogger("gradedrel")


def main():
    source = sources.source_of(snakemake.params.source)  # the registered reader
    files = source.file_specs()
    paths = {role: Path(snakemake.input[role]) for role in files}
    for role, path in paths.items():  # a local copy is used only with the pinned sha256
        downloads.verify(path, files[role]["sha256"])
    thesaurus = source.read(paths)
    log.info("%s: %d concepts", ", ".join(map(str, paths.values())), len(thesaurus))
    header = source.cache_header()  # source: the download URL(s)
    cache.write(snakemake.output.thesaurus, thesaurus, **header)
    write_tsv(source.summary(thesaurus), snakemake.output.summary)
    parsers = source.parsers  # the packages its reader parses with
    extra = {"reader_version": header["reader_version"],
             "cache_format_version": cache.FORMAT_VERSION, "concepts": len(thesaurus),
             **{p: provenance.package_versions(parsers)[p] for p in parsers}}
    if header["provenance"] is not None:
        extra["thesaurus_source"] = header["provenance"]
    write_text(provenance.record("thesaurus_read", snakemake.params.source, None, **extra),
               snakemake.output.provenance)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
