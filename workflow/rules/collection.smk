# Stage "collection" (gradedrel/collection/): the documents indexed with Terrier,
# topics and judgements mapped to levels 0-3, the testbed.

# Downloads, as local rules (workflow/rules/cluster.smk: run by the Snakemake process, so
# compute jobs need no network; docs/cluster.md). Their records are inputs marked ancient:
# they order the jobs, a newer record does not re-run the index.
rule collection_fetch:
    """Read a collection's ir_datasets parts once (downloading and md5-checking what is
    missing under data.ir_datasets_home); record the records and the files read."""
    output:
        manifest=f"{RESULTS}/{{collection}}/downloads.json",
    params:
        collection=collection_settings(COLLECTION_FETCH_KEYS),
        ir_datasets_home=config["data"]["ir_datasets_home"],
    log:
        f"{RESULTS}/logs/{{collection}}/collection_fetch.log",
    script:
        "../../scripts/collection_fetch.py"


rule terrier_fetch:
    """The pinned Terrier jars in PyTerrier's cache (downloaded when absent); their sha256."""
    output:
        jars=TERRIER_JARS_RECORD,
    params:
        terrier=config["terrier"],
    log:
        f"{RESULTS}/logs/terrier_fetch.log",
    script:
        "../../scripts/terrier_fetch.py"


rule index_collection:
    """Index a collection's documents with Terrier (once; later rules reuse the index)."""
    input:
        unpack(collection_files(collection.DOCUMENT_KEYS)),
        downloads=collection_downloads,
        jars=ancient(TERRIER_JARS_RECORD),
    output:
        index=directory(f"{RESULTS}/{{collection}}/index"),
        census=f"{RESULTS}/{{collection}}/documents.json",
        docnos=f"{RESULTS}/{{collection}}/docnos.txt",
    params:
        documents=collection_settings(collection.DOCUMENT_KEYS),
        index=config["index"],
        terrier=config["terrier"],
        ir_datasets_home=config["data"]["ir_datasets_home"],
    log:
        f"{RESULTS}/logs/{{collection}}/index_collection.log",
    script:
        "../../scripts/index_collection.py"


rule index_arrays:
    """Read the index's postings with positions once into numpy arrays (InQuery back end)."""
    input:
        index=f"{RESULTS}/{{collection}}/index",
    output:
        postings=directory(f"{RESULTS}/{{collection}}/index_arrays/postings"),
    params:
        terrier=config["terrier"],
    log:
        f"{RESULTS}/logs/{{collection}}/index_arrays.log",
    script:
        "../../scripts/index_arrays.py"


rule prepare_topics_qrels:
    """Map raw labels to levels 0-3, reconcile topics with qrels, describe the testbed."""
    input:
        unpack(collection_files(collection.JUDGEMENT_KEYS)),
        docnos=f"{RESULTS}/{{collection}}/docnos.txt",
        census=f"{RESULTS}/{{collection}}/documents.json",
        downloads=collection_downloads,
    output:
        topics=f"{RESULTS}/{{collection}}/topics.tsv",
        qrels=f"{RESULTS}/{{collection}}/qrels.tsv",
        exclusions=f"{RESULTS}/{{collection}}/exclusions.tsv",
        recall_base=f"{RESULTS}/{{collection}}/recall_base.tsv",
        summary=f"{RESULTS}/{{collection}}/testbed.tsv",
        testbed=f"{RESULTS}/{{collection}}/testbed.md",
    params:
        judgements=collection_settings(collection.JUDGEMENT_KEYS),
        ir_datasets_home=config["data"]["ir_datasets_home"],
        licences=licences,
    log:
        f"{RESULTS}/logs/{{collection}}/prepare_topics_qrels.log",
    script:
        "../../scripts/prepare_topics_qrels.py"
