# Stage "retrieval" (gradedrel/retrieval/): the plain baseline and the grid of
# models x query types.

# Named files per query type ("run/SUM/u"), and each run's provenance record.
RUN_FILES = {f"run/{q}": PATHS.run(q) for q in QUERY_TYPES}
RUN_PROVENANCE = {f"provenance/{q}": PATHS.run(q, ext="provenance.json") for q in QUERY_TYPES}


rule baseline_run:
    """Run the plain baseline (a Terrier model over the raw request text)."""
    input:
        index=rules.index_collection.output.index,
        topics=rules.prepare_requests.output.requests,
    output:
        run=PATHS.baseline("run"),
        excluded=PATHS.baseline("excluded.tsv"),
        provenance=PATHS.baseline("provenance.json"),
    log:
        log_of("{collection}/baseline_run_{wmodel}"),
    conda:
        CONDA_ENV
    resources:
        **job_resources("baseline_run"),
    params:
        depth=config["baseline"]["depth"],
        terrier=canonical(config["terrier"]),
        config=canonical({"terrier": config["terrier"], "baseline": config["baseline"]}),
    script:
        "../../scripts/baseline_run.py"


rule retrieve:
    """Run the query types through one model: one job, one JVM, the index loaded once."""
    input:
        unpack(lambda wc: STUDY.retrieval_inputs(wc.collection, wc.planset, wc.model)),
        # for the runs' ir_metadata: the index's settings, the data files' digests
        unpack(collection_files(RUN_DATA_KEYS)),
        census=rules.index_collection.output.census,
        downloads=collection_downloads,
    output:
        **RUN_FILES,
        **RUN_PROVENANCE,
        **{
            "page/not_ranked": page_of(
                PATHS.runs("not_ranked.tsv"),
                "not_ranked.rst",
                "{collection} retrieval",
                "{planset}, {model}",
            )
        },
        metadata=PATHS.runs(IR_METADATA),
        not_ranked=PATHS.runs("not_ranked.tsv"),
    log:
        log_of("{collection}/{planset}/retrieve_{model}"),
    conda:
        CONDA_ENV
    resources:
        **job_resources("retrieve"),
    params:
        labels=QUERY_TYPES,
        model=lambda wc: model_parameters(wc.model),
        depth=config["retrieval"]["depth"],
        terrier=canonical(config["terrier"]),
        config=retrieval_provenance_config,
        collection=collection_settings(RUN_DATA_KEYS),
        plan_set=lambda wc: canonical(STUDY.plan_set_metadata(wc.collection, wc.planset)),
    script:
        "../../scripts/retrieve.py"
