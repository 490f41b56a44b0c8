# Stage "retrieval" (gradedrel/retrieval/): the plain baseline and the grid of
# models x query types.


rule baseline_run:
    """Run the plain baseline (a Terrier model over the raw request text)."""
    input:
        # for the run's ir_metadata: the data files' digests, the index's settings
        unpack(lambda wc: FILES.data_files(wc.collection, RUN_DATA_KEYS)),
        index=rules.index_collection.output.index,
        topics=rules.prepare_requests.output.requests,
        census=rules.index_collection.output.census,
        downloads=collection_downloads,
    output:
        run=PATHS.baseline("run"),
        record=str(ir_metadata.record_path(PATHS.baseline("run"))),
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
        collection=collection_settings(RUN_DATA_KEYS),
        plan_set=BASELINE_PLAN_SET,
    script:
        "../../scripts/baseline_run.py"


rule retrieve:
    """Compile one plan set's plans into the query types (query_types.labels: registered
    structures, unexpanded and expanded), then run them through every model of the grid:
    one job, one JVM (warmed once), the index loaded once."""
    input:
        unpack(lambda wc: STUDY.retrieval_inputs(wc.collection, wc.planset)),
        # for the runs' ir_metadata: the index's settings, the data files' digests
        unpack(collection_files(RUN_DATA_KEYS)),
        census=rules.index_collection.output.census,
        downloads=collection_downloads,
    output:
        **flagged(FILES.query_outputs()),
        **flagged(FILES.retrieval_outputs()),
    log:
        log_of("{collection}/{planset}/retrieve"),
    conda:
        CONDA_ENV
    resources:
        **job_resources("retrieve", runs=len(STUDY.grid)),
    params:
        labels=QUERY_TYPES,
        # the compilation's settings: the phrase operator, the facets' weights
        query_config=lambda wc: canonical(
            {
                "query_types": config["query_types"],
                "weights": STUDY.collections[wc.collection].analysis["weights"],
            }
        ),
        models={m: FILES.model_parameters(m) for m in STUDY.grid},
        depth=config["retrieval"]["depth"],
        terrier=canonical(config["terrier"]),
        config={m: FILES.retrieval_config(m) for m in STUDY.grid},
        collection=collection_settings(RUN_DATA_KEYS),
        plan_set=lambda wc: canonical(STUDY.plan_set_metadata(wc.collection, wc.planset)),
    script:
        "../../scripts/retrieve.py"
