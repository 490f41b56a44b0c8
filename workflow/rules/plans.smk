# Stage "plans" (gradedrel/plans/): requests analysed into facets, concepts and keys;
# plan sets and their topics.

rule plan_requests:
    """Analyse each request into facets, concepts and search keys, expanded through the thesaurus."""
    input:
        topics=rules.prepare_requests.output.requests,
        index=rules.index_collection.output.index,
        postings=rules.index_arrays.output.postings,
        thesaurus=thesaurus_cache,
    output:
        plans=PATHS.auto_plans(),
        provenance=PATHS.auto_plans(ext="provenance.json"),
    params:
        analysis=analysis,
        expansion=canonical(config["expansion"]),
        phrase_operator=config["query_types"]["phrase_operator"],
        terrier=canonical(config["terrier"]),
    resources:
        **job_resources("plan_requests"),
    log:
        log_of("{collection}/plan_requests"),
    script:
        "../../scripts/plan_requests.py"


use rule plan_requests as plan_requests_with_thesaurus with:
    output:
        plans=PATHS.auto_plans(thesaurus=T),
        provenance=PATHS.auto_plans(thesaurus=T, ext="provenance.json"),
    log:
        log_of("{collection}/plan_requests.{thesaurus}"),


rule merge_curated_plans:
    """Use the curated plan of a topic where one exists, the automatic plan elsewhere; list
    the plan set's candidate topics (those its plans qualify, or those it names)."""
    input:
        unpack(plan_set_inputs),
        unpack(lambda wc: {"named": plan_set(wc).topic_list} if plan_set(wc).topic_list else {}),
    output:
        plans=PATHS.plan_set("plans.yaml"),
        candidates=PATHS.plan_set("candidates.tsv"),
        **{"page/plans": page_of(PATHS.plan_set("plans.yaml"), "plans.rst",
                                 "{collection} plans and queries", "{planset}")},
    params:
        rule=lambda wc: plan_set(wc).topic_rule,
        criteria=lambda wc: canonical(config["topic_selection"])
        if plan_set(wc).topic_rule == "selected" else None,
    log:
        log_of("{collection}/{planset}/merge_curated_plans"),
    script:
        "../../scripts/merge_curated_plans.py"


rule select_topics:
    """Select a plan set's topics for the evaluation: its candidates with the judgements it
    needs; every topic is listed with the reason."""
    input:
        candidates=rules.merge_curated_plans.output.candidates,
        recall_base=rules.prepare_topics_qrels.output.recall_base,
        topics=rules.prepare_topics_qrels.output.topics,
    output:
        selected=PATHS.plan_set("selected_topics.tsv"),
        topics=PATHS.plan_set("topics.tsv"),
        **{"page/selected": page_of(PATHS.plan_set("selected_topics.tsv"), "selected_topics.rst",
                                    "{collection} plans and queries", "{planset}")},
    params:
        rule=lambda wc: plan_set(wc).topic_rule,
        source=lambda wc: plan_set(wc).topic_source,
        criteria=lambda wc: canonical(config["topic_selection"])
        if plan_set(wc).topic_rule == "selected" else None,
    log:
        log_of("{collection}/{planset}/select_topics"),
    script:
        "../../scripts/select_topics.py"
