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
        config=lambda wc: {
            "collection": config["collections"][wc.collection],
            "index": config["index"],
            "terrier": config["terrier"],
            "baseline": config["baseline"],
        },
    log:
        f"{RESULTS}/logs/{{collection}}/baseline_run_{{wmodel}}.log",
    script:
        "../../scripts/baseline_run.py"

