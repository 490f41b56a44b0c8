rule plan_requests:
    """Analyse each request into facets, concepts and search keys, expanded through the thesaurus."""
    input:
        topics=f"{RESULTS}/{{collection}}/topics.tsv",
        index=f"{RESULTS}/{{collection}}/index",
        thesaurus=config["analysis"]["thesaurus"],
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
    conda:
        "../../environment.yml"
    script:
        "../../scripts/plan_requests.py"


rule merge_curated_plans:
    """Use the curated plan of a topic where one exists, the automatic plan elsewhere."""
    input:
        unpack(curated_plan_inputs),
    output:
        plans=report(
            f"{RESULTS}/{{collection}}/plans/plans.yaml",
            caption="../report/plans.rst",
            category="Plans",
        ),
    params:
        curated=lambda wc: config["curated_plans"].get(wc.collection),
    log:
        f"{RESULTS}/logs/{{collection}}/merge_curated_plans.log",
    conda:
        "../../environment.yml"
    script:
        "../../scripts/merge_curated_plans.py"


rule select_topics:
    """Select the expandable requests; every topic is listed with the reason."""
    input:
        plans=f"{RESULTS}/{{collection}}/plans/plans.yaml",
        recall_base=f"{RESULTS}/{{collection}}/recall_base.tsv",
    output:
        selected=report(
            f"{RESULTS}/{{collection}}/plans/selected_topics.tsv",
            caption="../report/selected_topics.rst",
            category="Plans",
        ),
    params:
        criteria=config["topic_selection"],
    log:
        f"{RESULTS}/logs/{{collection}}/select_topics.log",
    conda:
        "../../environment.yml"
    script:
        "../../scripts/select_topics.py"


rule compile_queries:
    """Compile every plan into the query types (SUM, SSYN-C, WSYN; unexpanded and expanded)."""
    input:
        plans=f"{RESULTS}/{{collection}}/plans/plans.yaml",
        index=f"{RESULTS}/{{collection}}/index",
        selected=f"{RESULTS}/{{collection}}/plans/selected_topics.tsv",
    output:
        queries=[f"{RESULTS}/{{collection}}/queries/{s}.jsonl" for s in QUERY_SLUGS],
        statistics=f"{RESULTS}/{{collection}}/queries/statistics.tsv",
        means=report(
            f"{RESULTS}/{{collection}}/queries/statistics_means.tsv",
            caption="../report/query_statistics.rst",
            category="Plans",
        ),
        excluded=f"{RESULTS}/{{collection}}/queries/excluded.tsv",
        provenance=f"{RESULTS}/{{collection}}/queries/provenance.json",
    params:
        labels=config["query_types"]["labels"],
        weights=config["analysis"]["weights"],
        phrase_operator=config["query_types"]["phrase_operator"],
        terrier=config["terrier"],
        config={k: config[k] for k in ("analysis", "expansion", "query_types", "curated_plans")},
    log:
        f"{RESULTS}/logs/{{collection}}/compile_queries.log",
    conda:
        "../../environment.yml"
    script:
        "../../scripts/compile_queries.py"


rule syn_statistics:
    """Measure how far Terrier's summed #syn df departs from the true union df."""
    input:
        queries=[
            f"{RESULTS}/{{collection}}/queries/{s}.jsonl" for s in QUERY_SLUGS if "SYN" in s
        ],
        index=f"{RESULTS}/{{collection}}/index",
        selected=f"{RESULTS}/{{collection}}/plans/selected_topics.tsv",
    output:
        groups=f"{RESULTS}/{{collection}}/queries/syn_df.tsv",
        summary=report(
            f"{RESULTS}/{{collection}}/queries/syn_df_summary.tsv",
            caption="../report/syn_df.rst",
            category="Plans",
        ),
    params:
        phrase_operator=config["query_types"]["phrase_operator"],
        terrier=config["terrier"],
    log:
        f"{RESULTS}/logs/{{collection}}/syn_statistics.log",
    conda:
        "../../environment.yml"
    script:
        "../../scripts/syn_statistics.py"
