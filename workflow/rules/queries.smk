# Stage "queries" (gradedrel/queries/): the query types compiled from the plans, in the
# plan set's retrieve job (retrieval.smk: one JVM for compiling and running them), and the
# statistics of their #syn groups.


rule syn_statistics:
    """Measure how far Terrier's summed #syn df departs from the true union df."""
    input:
        # the query types whose structure builds #syn groups (the retrieve job compiles them)
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
