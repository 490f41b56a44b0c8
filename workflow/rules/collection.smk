# Stage "collection" (gradedrel/collection/): the documents indexed with Terrier, the
# requests, the judgements mapped to levels 0-3, the testbed.


# Downloads, as local rules (workflow/rules/cluster.smk: run by the Snakemake process, so
# compute jobs need no network; docs/cluster.md). Their records are inputs marked ancient:
# they order the jobs, a newer record does not re-run the index.
rule collection_fetch:
    """Read a collection's ir_datasets parts once (downloading and md5-checking what is
    missing under data.ir_datasets_home); record the records and the files read."""
    output:
        manifest=PATHS.collection("downloads.json"),
    log:
        log_of("{collection}/collection_fetch"),
    conda:
        CONDA_ENV
    params:
        collection=collection_settings(COLLECTION_FETCH_KEYS),
        ir_datasets_home=config["data"]["ir_datasets_home"],
    script:
        "../../scripts/collection_fetch.py"


rule terrier_fetch:
    """The pinned Terrier jars in PyTerrier's cache (downloaded when absent); their sha256."""
    output:
        jars=PATHS.terrier_jars(),
    log:
        log_of("terrier_fetch"),
    conda:
        CONDA_ENV
    params:
        terrier=canonical(config["terrier"]),
    script:
        "../../scripts/terrier_fetch.py"


rule index_collection:
    """Index a collection's documents with Terrier (once; later rules reuse the index)."""
    input:
        unpack(collection_files(collection.DOCUMENT_KEYS)),
        downloads=collection_downloads,
        jars=ancient(rules.terrier_fetch.output.jars),
    output:
        index=directory(PATHS.index()),
        census=PATHS.collection("documents.json"),
        docnos=PATHS.collection("docnos.txt"),
    log:
        log_of("{collection}/index_collection"),
    conda:
        CONDA_ENV
    resources:
        **job_resources("index_collection"),
    params:
        documents=collection_settings(collection.DOCUMENT_KEYS),
        index=canonical(config["index"]),
        terrier=canonical(config["terrier"]),
        ir_datasets_home=config["data"]["ir_datasets_home"],
    script:
        "../../scripts/index_collection.py"


rule index_arrays:
    """Read the index's postings with positions once into numpy arrays (InQuery back end)."""
    input:
        index=rules.index_collection.output.index,
    output:
        postings=directory(PATHS.postings()),
    log:
        log_of("{collection}/index_arrays"),
    conda:
        CONDA_ENV
    resources:
        **job_resources("index_arrays"),
    params:
        terrier=canonical(config["terrier"]),
    script:
        "../../scripts/index_arrays.py"


rule prepare_requests:
    """Read the requests (every topic of the collection, its request field(s) joined):
    what the plans and the baseline read, independent of the judgements."""
    input:
        unpack(collection_files(collection.REQUEST_KEYS)),
        downloads=collection_downloads,
    output:
        requests=PATHS.collection("requests.tsv"),
    log:
        log_of("{collection}/prepare_requests"),
    conda:
        CONDA_ENV
    params:
        requests=collection_settings(collection.REQUEST_KEYS),
        ir_datasets_home=config["data"]["ir_datasets_home"],
    script:
        "../../scripts/prepare_requests.py"


rule prepare_topics_qrels:
    """Map raw labels to levels 0-3, reconcile the requests with the judgements, describe
    the testbed."""
    input:
        unpack(collection_files(("qrels",))),
        requests=rules.prepare_requests.output.requests,
        docnos=rules.index_collection.output.docnos,
        census=rules.index_collection.output.census,
        downloads=collection_downloads,
    output:
        **{
            "page/testbed": page_of(
                PATHS.collection("testbed.md"), "testbed.rst", "{collection} testbed"
            )
        },
        topics=PATHS.collection("topics.tsv"),
        qrels=PATHS.collection("qrels.tsv"),
        qrels_levels=PATHS.collection("qrels.levels.txt"),
        exclusions=PATHS.collection("exclusions.tsv"),
        recall_base=PATHS.collection("recall_base.tsv"),
        summary=PATHS.collection("testbed.tsv"),
        testbed=PATHS.collection("testbed.md"),
    log:
        log_of("{collection}/prepare_topics_qrels"),
    conda:
        CONDA_ENV
    params:
        judgements=collection_settings(collection.JUDGEMENT_KEYS),
        ir_datasets_home=config["data"]["ir_datasets_home"],
        licences=licences,
    script:
        "../../scripts/prepare_topics_qrels.py"
