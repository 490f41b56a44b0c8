"""Index a collection with Terrier and record what the documents held."""
import json
import logging

from gradedrel import collection
from gradedrel.core import terrier
from gradedrel.core.io import write_text
from gradedrel.core.progress import progress
from gradedrel.core.steps import run_step

log = logging.getLogger("gradedrel")


def main():
    spec = collection.CollectionSpec.from_config(snakemake.wildcards.collection,
                                                 snakemake.params.documents, needs=("docs",))
    collection.use_ir_datasets_home(snakemake.params.ir_datasets_home)
    version = terrier.start(**snakemake.params.terrier)
    census = collection.DocumentCensus()
    options = snakemake.params.index
    documents = progress(collection.checked_documents(spec, census), unit="documents",
                         desc=f"indexing {spec.name}", total=collection.document_count(spec))
    with terrier.java_log_level("INFO"):  # Terrier's own account of the indexing, in the log
        terrier.build_index(documents, snakemake.output.index,
                            stemmer=options["stemmer"], stopwords=options["stopwords"],
                            blocks=options["blocks"],
                            max_docno_length=collection.DOCNO_MAX_LENGTH)
    stats = terrier.index_statistics(terrier.open_index(snakemake.output.index))
    if stats["documents"] != len(census.docnos):
        raise RuntimeError(f"Terrier indexed {stats['documents']} of {len(census.docnos)} documents")
    log.info("indexed %d documents (%d empty) with Terrier %s", len(census.docnos),
             len(census.empty), version)
    write_text(json.dumps({"documents": len(census.docnos), "empty_documents": census.empty,
                           "index": stats, "terrier": version, "options": options},
                          indent=2, sort_keys=True) + "\n", snakemake.output.census)
    write_text("".join(d + "\n" for d in census.docnos), snakemake.output.docnos)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output)
