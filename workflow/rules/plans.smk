# Stage "plans" (gradedrel/plans/): requests analysed into facets, concepts and keys;
# plan sets and their candidate topics (the evaluation selects its topics among them).


rule plan_requests:
    """Analyse each request into facets, concepts and search keys, expanded through the thesaurus."""
    input:
        topics=rules.prepare_requests.output.requests,
        index=rules.index_collection.output.index,
        postings=rules.index_arrays.output.postings,
        thesaurus=lambda wc: FILES.thesaurus_cache(wc.collection, getattr(wc, "thesaurus", None)),
    output:
        plans=PATHS.auto_plans(),
        provenance=PATHS.auto_plans(ext="provenance.json"),
    log:
        log_of("{collection}/plan_requests"),
    conda:
        CONDA_ENV
    resources:
        **job_resources("plan_requests"),
    params:
        analysis=analysis,
        expansion=canonical(config["expansion"]),
        phrase_operator=config["query_types"]["phrase_operator"],
        terrier=canonical(config["terrier"]),
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
    the plan set's candidate topics (those its plans qualify, or those it names); classify
    every key of its candidates by where it came from: the request's words, a thesaurus
    relation of a concept the request names, another concept's label, or the curator's own
    (docs/preregistration.md, Amendment 1, A1); every declared relation checked. One job:
    Python and Terrier's term pipeline start once per plan set."""
    input:
        unpack(lambda wc: plan_set(wc).merge_inputs(STUDY.auto_plans_of(wc.collection, wc.planset))),
        unpack(lambda wc: {"named": plan_set(wc).topic_list} if plan_set(wc).topic_list else {}),
        unpack(lambda wc: FILES.classification_inputs(wc.collection, wc.planset)),
    output:
        **{
            "page/plans": page_of(
                PATHS.plan_set("plans.yaml"),
                "plans.rst",
                "{collection} plans and queries",
                "{planset}",
            ),
            "page/shares_md": page_of(
                PATHS.plan_set("key_sources.md"),
                "key_sources_shares.rst",
                "{collection} plans and queries",
                "{planset}",
            ),
        },
        plans=PATHS.plan_set("plans.yaml"),
        candidates=PATHS.plan_set("candidates.tsv"),
        key_sources=PATHS.plan_set("key_sources.tsv"),
        shares_requests=PATHS.plan_set("key_shares_requests.tsv"),
        shares_curators=PATHS.plan_set("key_shares_curators.tsv"),
        shares_md=PATHS.plan_set("key_sources.md"),
    log:
        log_of("{collection}/{planset}/merge_curated_plans"),
    wildcard_constraints:
        planset=PLAIN_PLAN_SETS,
    conda:
        CONDA_ENV
    params:
        rule=lambda wc: plan_set(wc).topic_rule,
        criteria=lambda wc: (
            canonical(config["topic_selection"]) if plan_set(wc).topic_rule == "selected" else None
        ),
        curator_column=lambda wc: (plan_set(wc).curators or {}).get("column"),
        analysis=analysis,
        terrier=canonical(config["terrier"]),
    script:
        "../../scripts/merge_curated_plans.py"


rule derive_plan_set:
    """Derive a plan set from another: the same requests and plans with only some of their
    keys (those of the source classes it keeps, or all but those the blinded rater rated
    'needs the page'); no plan analysis, no thesaurus read."""
    input:
        unpack(lambda wc: FILES.derivation_inputs(wc.collection, wc.planset)),
    output:
        **{
            "page/plans": page_of(
                PATHS.plan_set("plans.yaml"),
                "plans.rst",
                "{collection} plans and queries",
                "{planset}",
            )
        },
        plans=PATHS.plan_set("plans.yaml"),
        candidates=PATHS.plan_set("candidates.tsv"),
        key_sources=PATHS.plan_set("key_sources.tsv"),
        summary=PATHS.plan_set("derivation.tsv"),
        page_shares=PATHS.plan_set("page_shares.tsv"),
    log:
        log_of("{collection}/{planset}/derive_plan_set"),
    wildcard_constraints:
        planset=DERIVED_PLAN_SETS,
    conda:
        CONDA_ENV
    params:
        derivation=lambda wc: canonical(dict(plan_set(wc).derivation)),
        parent=lambda wc: plan_set(wc).derived_from,
        plan_set=lambda wc: wc.planset,
    script:
        "../../scripts/derive_plan_set.py"
