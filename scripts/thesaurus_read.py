"""Verify a thesaurus's local copies (SKOS, MeSH, WordNet); write its cached form, summary,
provenance. The copies are made by thesaurus_fetch (declared inputs, by role)."""
import logging
from pathlib import Path

from gradedrel.core import downloads, provenance
from gradedrel.core.io import write_text, write_tsv
from gradedrel.core.steps import run_step
from gradedrel.thesaurus import cache, sources, summary

log = logging.getLogger("gradedrel")

#: The package each source's reader parses with (recorded in provenance.json);
#: WordNet needs only the standard library.
PARSERS = {"skos": ("lxml",), "mesh": ("rdata",), "wordnet": ()}


def main():
    spec = snakemake.params.source
    files = sources.file_specs(spec)
    paths = {role: Path(snakemake.input[role]) for role in files}
    for role, path in paths.items():  # a local copy is used only with the pinned sha256
        downloads.verify(path, files[role]["sha256"])
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
    write_text(provenance.record("thesaurus_read", spec, None, **extra),
               snakemake.output.provenance)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output)
