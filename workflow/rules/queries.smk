# Stage "queries" (gradedrel/queries/): the query types compiled from the plans.

# Named files per query type ("queries/SUM/u"): scripts look a file up by its query type,
# never pair lists by position.
QUERY_FILES = {f"queries/{q}": PATHS.query_file(q) for q in QUERY_TYPES}


rule compile_queries:
    """Compile every candidate topic's plan into the query types (query_types.labels:
    registered structures, unexpanded and expanded)."""
    input:
        plans=rules.merge_curated_plans.output.plans,
        candidates=rules.merge_curated_plans.output.candidates,
        index=rules.index_collection.output.index,
    output:
        **QUERY_FILES,
        **{
            "page/means": page_of(
                PATHS.queries("statistics_means.tsv"),
                "query_statistics.rst",
                "{collection} plans and queries",
                "{planset}",
            )
        },
        statistics=PATHS.queries("statistics.tsv"),
        means=PATHS.queries("statistics_means.tsv"),
        excluded=PATHS.queries("excluded.tsv"),
        provenance=PATHS.queries("provenance.json"),
    log:
        log_of("{collection}/{planset}/compile_queries"),
    conda:
        CONDA_ENV
    params:
        labels=QUERY_TYPES,
        weights=lambda wc: canonical(STUDY.collections[wc.collection].analysis["weights"]),
        phrase_operator=config["query_types"]["phrase_operator"],
        terrier=canonical(config["terrier"]),
        config=lambda wc: canonical(
            {
                "query_types": config["query_types"],
                "weights": STUDY.collections[wc.collection].analysis["weights"],
            }
        ),
    script:
        "../../scripts/compile_queries.py"


rule syn_statistics:
    """Measure how far Terrier's summed #syn df departs from the true union df."""
    input:
        # the query types whose structure builds #syn groups
        queries=[PATHS.query_file(q) for q in with_synonym_groups(QUERY_TYPES)],
        index=rules.index_collection.output.index,
        postings=rules.index_arrays.output.postings,
        candidates=rules.merge_curated_plans.output.candidates,
    output:
        **{
            "page/summary": page_of(
                PATHS.queries("syn_df_summary.tsv"),
                "syn_df.rst",
                "{collection} plans and queries",
                "{planset}",
            )
        },
        groups=PATHS.queries("syn_df.tsv"),
        summary=PATHS.queries("syn_df_summary.tsv"),
    log:
        log_of("{collection}/{planset}/syn_statistics"),
    conda:
        CONDA_ENV
    resources:
        **job_resources("syn_statistics"),
    params:
        phrase_operator=config["query_types"]["phrase_operator"],
        terrier=canonical(config["terrier"]),
    script:
        "../../scripts/syn_statistics.py"
