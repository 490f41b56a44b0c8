# Stage "queries" (gradedrel/queries/): the query types compiled from the plans.

rule compile_queries:
    """Compile every plan into the query types (query_types.labels: registered structures,
    unexpanded and expanded)."""
    input:
        plans=f"{RESULTS}/{{collection}}/plans/{{planset}}/plans.yaml",
        topics=f"{RESULTS}/{{collection}}/plans/{{planset}}/topics.tsv",
        index=f"{RESULTS}/{{collection}}/index",
        selected=f"{RESULTS}/{{collection}}/plans/{{planset}}/selected_topics.tsv",
    output:
        **QUERY_FILES,
        statistics=f"{RESULTS}/{{collection}}/queries/{{planset}}/statistics.tsv",
        means=f"{RESULTS}/{{collection}}/queries/{{planset}}/statistics_means.tsv",
        excluded=f"{RESULTS}/{{collection}}/queries/{{planset}}/excluded.tsv",
        provenance=f"{RESULTS}/{{collection}}/queries/{{planset}}/provenance.json",
    params:
        labels=config["query_types"]["labels"],
        weights=lambda wc: analysis(wc)["weights"],
        phrase_operator=config["query_types"]["phrase_operator"],
        terrier=config["terrier"],
        config=lambda wc: {
            "query_types": config["query_types"],
            "weights": analysis(wc)["weights"],
        },
    log:
        f"{RESULTS}/logs/{{collection}}/{{planset}}/compile_queries.log",
    script:
        "../../scripts/compile_queries.py"


rule syn_statistics:
    """Measure how far Terrier's summed #syn df departs from the true union df."""
    input:
        queries=[  # the query types whose structure builds #syn groups
            f"{RESULTS}/{{collection}}/queries/{{planset}}/{query_type_slug(q)}.jsonl"
            for q in with_synonym_groups(QUERY_TYPES)
        ],
        index=f"{RESULTS}/{{collection}}/index",
        postings=f"{RESULTS}/{{collection}}/index_arrays/postings",
        selected=f"{RESULTS}/{{collection}}/plans/{{planset}}/selected_topics.tsv",
    output:
        groups=f"{RESULTS}/{{collection}}/queries/{{planset}}/syn_df.tsv",
        summary=f"{RESULTS}/{{collection}}/queries/{{planset}}/syn_df_summary.tsv",
    params:
        phrase_operator=config["query_types"]["phrase_operator"],
        terrier=config["terrier"],
    log:
        f"{RESULTS}/logs/{{collection}}/{{planset}}/syn_statistics.log",
    script:
        "../../scripts/syn_statistics.py"
