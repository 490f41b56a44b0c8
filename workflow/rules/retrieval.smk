# Stage "retrieval" (gradedrel/retrieval/): the plain baseline and the grid of
# models x query types.

rule baseline_run:
    """Run the plain baseline (a Terrier model over the raw request text)."""
    input:
        index=f"{RESULTS}/{{collection}}/index",
        topics=f"{RESULTS}/{{collection}}/topics.tsv",
    output:
        run=f"{RESULTS}/{{collection}}/baseline/{{wmodel}}.run",
        excluded=f"{RESULTS}/{{collection}}/baseline/{{wmodel}}.excluded.tsv",
        provenance=f"{RESULTS}/{{collection}}/baseline/{{wmodel}}.provenance.json",
    params:
        depth=config["baseline"]["depth"],
        terrier=config["terrier"],
        config={"terrier": config["terrier"], "baseline": config["baseline"]},
    log:
        f"{RESULTS}/logs/{{collection}}/baseline_run_{{wmodel}}.log",
    script:
        "../../scripts/baseline_run.py"


rule retrieve:
    """Run the six query types through one model: one job, one JVM, the index loaded once."""
    input:
        unpack(retrieval_inputs),
    output:
        **RUN_FILES,
        **RUN_PROVENANCE,
        not_ranked=f"{RESULTS}/{{collection}}/runs/{{planset}}/{{model}}/not_ranked.tsv",
    params:
        labels=QUERY_TYPES,
        model=lambda wc: model_parameters(wc.model),
        depth=config["retrieval"]["depth"],
        terrier=config["terrier"],
        config=retrieval_provenance_config,
    log:
        f"{RESULTS}/logs/{{collection}}/{{planset}}/retrieve_{{model}}.log",
    script:
        "../../scripts/retrieve.py"
