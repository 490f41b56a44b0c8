rule index_arrays:
    """Read the index's postings with positions once into numpy arrays (InQuery back end)."""
    input:
        index=f"{RESULTS}/{{collection}}/index",
    output:
        postings=f"{RESULTS}/{{collection}}/index_arrays/postings.npz",
    params:
        terrier=config["terrier"],
    log:
        f"{RESULTS}/logs/{{collection}}/index_arrays.log",
    script:
        "../../scripts/index_arrays.py"


rule retrieve:
    """Run the six query types through one model: one job, one JVM, the index loaded once."""
    input:
        unpack(retrieval_inputs),
    output:
        runs=expand(f"{RESULTS}/{{{{collection}}}}/runs/{{{{planset}}}}/{{{{model}}}}/{{slug}}.run", slug=QUERY_SLUGS),
        provenance=expand(
            f"{RESULTS}/{{{{collection}}}}/runs/{{{{planset}}}}/{{{{model}}}}/{{slug}}.provenance.json",
            slug=QUERY_SLUGS,
        ),
        not_ranked=report(
            f"{RESULTS}/{{collection}}/runs/{{planset}}/{{model}}/not_ranked.tsv",
            caption="../report/not_ranked.rst",
            category="Retrieval",
            subcategory="{planset} {model}",
        ),
    params:
        model=lambda wc: model_parameters(wc.model),
        depth=config["retrieval"]["depth"],
        terrier=config["terrier"],
        config=retrieval_provenance_config,
    log:
        f"{RESULTS}/logs/{{collection}}/{{planset}}/retrieve_{{model}}.log",
    script:
        "../../scripts/retrieve.py"
