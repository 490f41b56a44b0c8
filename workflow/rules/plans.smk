# Stage "plans" (gradedrel/plans/): requests analysed into facets, concepts and keys;
# plan sets; topic selection.

rule plan_requests:
    """Analyse each request into facets, concepts and search keys, expanded through the thesaurus."""
    input:
        topics=f"{RESULTS}/{{collection}}/topics.tsv",
        index=f"{RESULTS}/{{collection}}/index",
        postings=f"{RESULTS}/{{collection}}/index_arrays/postings",
        thesaurus=thesaurus_cache,
    output:
        plans=f"{RESULTS}/{{collection}}/plans/auto.yaml",
        provenance=f"{RESULTS}/{{collection}}/plans/auto.provenance.json",
    params:
        analysis=analysis,
        expansion=config["expansion"],
        phrase_operator=config["query_types"]["phrase_operator"],
        terrier=config["terrier"],
    log:
        f"{RESULTS}/logs/{{collection}}/plan_requests.log",
    script:
        "../../scripts/plan_requests.py"


use rule plan_requests as plan_requests_with_thesaurus with:
    output:
        plans=f"{RESULTS}/{{collection}}/plans/auto.{{thesaurus}}.yaml",
        provenance=f"{RESULTS}/{{collection}}/plans/auto.{{thesaurus}}.provenance.json",
    log:
        f"{RESULTS}/logs/{{collection}}/plan_requests.{{thesaurus}}.log",


rule merge_curated_plans:
    """Use the curated plan of a topic where one exists, the automatic plan elsewhere."""
    input:
        unpack(plan_set_inputs),
    output:
        plans=f"{RESULTS}/{{collection}}/plans/{{planset}}/plans.yaml",
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
        selected=f"{RESULTS}/{{collection}}/plans/{{planset}}/selected_topics.tsv",
        topics=f"{RESULTS}/{{collection}}/plans/{{planset}}/topics.tsv",
    params:
        rule=lambda wc: plan_set(wc).topic_rule,
        criteria=lambda wc: config["topic_selection"] if plan_set(wc).topic_rule == "selected" else None,
    log:
        f"{RESULTS}/logs/{{collection}}/{{planset}}/select_topics.log",
    script:
        "../../scripts/select_topics.py"
