rule plan_requests:
    """Analyse each request into facets, concepts and search keys, expanded through the thesaurus."""
    input:
        topics=f"{RESULTS}/{{collection}}/topics.tsv",
        index=f"{RESULTS}/{{collection}}/index",
        thesaurus=thesaurus_cache,
    output:
        plans=f"{RESULTS}/{{collection}}/plans/auto.yaml",
        provenance=f"{RESULTS}/{{collection}}/plans/auto.provenance.json",
    params:
        analysis=config["analysis"],
        expansion=config["expansion"],
        phrase_operator=config["query_types"]["phrase_operator"],
        terrier=config["terrier"],
    log:
        f"{RESULTS}/logs/{{collection}}/plan_requests.log",
    script:
        "../../scripts/plan_requests.py"


rule merge_curated_plans:
    """Use the curated plan of a topic where one exists, the automatic plan elsewhere."""
    input:
        unpack(plan_set_inputs),
    output:
        plans=report(
            f"{RESULTS}/{{collection}}/plans/{{planset}}/plans.yaml",
            caption="../report/plans.rst",
            category="Plans",
        ),
    params:
        curated=lambda wc: plan_set(wc)["curated"],
    log:
        f"{RESULTS}/logs/{{collection}}/{{planset}}/merge_curated_plans.log",
    script:
        "../../scripts/merge_curated_plans.py"


rule select_topics:
    """Select a plan set's topics (the expandable requests, or those it names); every
    topic is listed with the reason."""
    input:
        unpack(selection_inputs),
    output:
        selected=report(
            f"{RESULTS}/{{collection}}/plans/{{planset}}/selected_topics.tsv",
            caption="../report/selected_topics.rst",
            category="Plans",
        ),
        topics=f"{RESULTS}/{{collection}}/plans/{{planset}}/topics.tsv",
    params:
        criteria=config["topic_selection"],
        topics=lambda wc: plan_set(wc)["topics"],
        curated=lambda wc: plan_set(wc)["curated"],
    log:
        f"{RESULTS}/logs/{{collection}}/{{planset}}/select_topics.log",
    script:
        "../../scripts/select_topics.py"


rule compile_queries:
    """Compile every plan into the query types (SUM, SSYN-C, WSYN; unexpanded and expanded)."""
    input:
        plans=f"{RESULTS}/{{collection}}/plans/{{planset}}/plans.yaml",
        topics=f"{RESULTS}/{{collection}}/plans/{{planset}}/topics.tsv",
        index=f"{RESULTS}/{{collection}}/index",
        selected=f"{RESULTS}/{{collection}}/plans/{{planset}}/selected_topics.tsv",
    output:
        queries=[f"{RESULTS}/{{collection}}/queries/{{planset}}/{s}.jsonl" for s in QUERY_SLUGS],
        statistics=f"{RESULTS}/{{collection}}/queries/{{planset}}/statistics.tsv",
        means=report(
            f"{RESULTS}/{{collection}}/queries/{{planset}}/statistics_means.tsv",
            caption="../report/query_statistics.rst",
            category="Plans",
        ),
        excluded=f"{RESULTS}/{{collection}}/queries/{{planset}}/excluded.tsv",
        provenance=f"{RESULTS}/{{collection}}/queries/{{planset}}/provenance.json",
    params:
        labels=config["query_types"]["labels"],
        weights=config["analysis"]["weights"],
        phrase_operator=config["query_types"]["phrase_operator"],
        terrier=config["terrier"],
        config=lambda wc: {
            "analysis": config["analysis"],
            "expansion": config["expansion"],
            "query_types": config["query_types"],
            "plan_set": plan_set(wc),
        },
    log:
        f"{RESULTS}/logs/{{collection}}/{{planset}}/compile_queries.log",
    script:
        "../../scripts/compile_queries.py"


rule syn_statistics:
    """Measure how far Terrier's summed #syn df departs from the true union df."""
    input:
        queries=[
            f"{RESULTS}/{{collection}}/queries/{{planset}}/{s}.jsonl" for s in QUERY_SLUGS if "SYN" in s
        ],
        index=f"{RESULTS}/{{collection}}/index",
        selected=f"{RESULTS}/{{collection}}/plans/{{planset}}/selected_topics.tsv",
    output:
        groups=f"{RESULTS}/{{collection}}/queries/{{planset}}/syn_df.tsv",
        summary=report(
            f"{RESULTS}/{{collection}}/queries/{{planset}}/syn_df_summary.tsv",
            caption="../report/syn_df.rst",
            category="Plans",
        ),
    params:
        phrase_operator=config["query_types"]["phrase_operator"],
        terrier=config["terrier"],
    log:
        f"{RESULTS}/logs/{{collection}}/{{planset}}/syn_statistics.log",
    script:
        "../../scripts/syn_statistics.py"
