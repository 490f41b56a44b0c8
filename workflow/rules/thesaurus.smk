# Stage "thesaurus" (gradedrel/thesaurus/): a thesaurus fetched, verified, read and cached.


rule thesaurus_fetch:
    """Download a thesaurus to the local copy named in config (only when it is absent).
    A run: rule, not a script, so that a copy placed by hand is never fetched again."""
    output:
        local="{local_copy}",
    log:
        log_of("thesauri/fetch/{local_copy}"),
    wildcard_constraints:
        local_copy=THESAURUS_COPY_PATTERN,
    params:
        source=lambda wc: FILES.thesaurus_copy_source(wc.local_copy),
    run:
        downloads.fetch_logged(params.source["url"], output.local, params.source["sha256"], log[0])


rule thesaurus_read:
    """Verify a thesaurus's local copies (SKOS, MeSH or WordNet); write its cached form and a
    summary."""
    input:
        unpack(lambda wc: FILES.thesaurus_files(wc.thesaurus)),
    output:
        **{
            "page/summary": page_of(
                PATHS.thesaurus(file="summary.tsv"),
                "thesaurus_summary.rst",
                "Thesauri",
                "{thesaurus}",
            )
        },
        thesaurus=PATHS.thesaurus(),
        summary=PATHS.thesaurus(file="summary.tsv"),
        provenance=PATHS.thesaurus(file="provenance.json"),
    log:
        log_of("thesauri/{thesaurus}/read"),
    conda:
        CONDA_ENV
    params:
        source=lambda wc: FILES.thesaurus_source(wc.thesaurus),
        reader=lambda wc: FILES.thesaurus_reader(wc.thesaurus),
    script:
        "../../scripts/thesaurus_read.py"
