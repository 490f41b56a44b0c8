"""Index a collection with Terrier and record what the documents held."""
import json
import logging
from collections import Counter

from gradedrel import collection
from gradedrel.core import terrier, text
from gradedrel.core.io import write_text
from gradedrel.core.progress import progress
from gradedrel.job import run_step

log = logging.getLogger("gradedrel")


def main():
    spec = collection.CollectionSpec.from_config(snakemake.wildcards.collection,
                                                 snakemake.params.documents, needs=("docs",))
    collection.use_ir_datasets_home(snakemake.params.ir_datasets_home)
    version = terrier.start(**snakemake.params.terrier)
    census = collection.DocumentCensus()
    options = snakemake.params.index
    dropped = {}

    def counted(documents):
        for document in documents:   # what the tokeniser drops from each document, counted
            dropped[document["docno"]] = text.dropped(document["text"])
            yield document

    limit = collection.position_limit(options,
                                      terrier.stopword_list(snakemake.params.terrier["version"]))
    # a byte-order mark the reader strips, recorded for the testbed report (only when found)
    bom = {"byte_order_mark": spec.docs} if spec.docs and not spec.ir_datasets_id("docs") \
        and collection.readers.starts_with_bom(spec.docs) else {}
    documents = progress(counted(collection.checked_documents(spec, census, limit=limit)),
                         unit="documents",
                         desc=f"indexing {spec.name}", total=collection.document_count(spec))
    with terrier.java_log_level("INFO"):  # Terrier's own account of the indexing, in the log
        terrier.build_index(documents, snakemake.output.index,
                            stemmer=options["stemmer"], stopwords=options["stopwords"],
                            blocks=options["blocks"], blocks_max=options.get("blocks_max"),
                            max_docno_length=collection.DOCNO_MAX_LENGTH, threads=snakemake.threads)
    stats = terrier.index_statistics(terrier.open_index(snakemake.output.index))
    if stats["documents"] != len(census.docnos):
        raise RuntimeError(f"Terrier indexed {stats['documents']} of {len(census.docnos)} documents")
    log.info("indexed %d documents (%d empty) with Terrier %s", len(census.docnos),
             len(census.empty), version)
    lost = Counter()
    for counts in dropped.values():
        lost.update(counts)
    write_text(json.dumps({"documents": len(census.docnos), "empty_documents": census.empty,
                           "index": stats, "terrier": version, "options": options,
                           "tokeniser": text.TERRIER_TOKENISER,
                           "dropped_text": {"items": sum(lost.values()),
                                            "documents": sum(1 for c in dropped.values() if c),
                                            "counts": dict(sorted(lost.items()))},
                           **bom},
                          indent=2, sort_keys=True) + "\n", snakemake.output.census)
    write_text("".join(d + "\n" for d in census.docnos), snakemake.output.docnos)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
