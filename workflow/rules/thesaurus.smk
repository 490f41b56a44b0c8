rule thesaurus_fetch:
    """Download a thesaurus to the local copy named in config (only when it is absent).
    A run: rule, not a script, so that a copy placed by hand is never fetched again."""
    output:
        local="{local_copy}",
    wildcard_constraints:
        local_copy=THESAURUS_COPY_PATTERN,
    params:
        source=thesaurus_copy_source,
    log:
        f"{RESULTS}/logs/thesauri/fetch/{{local_copy}}.log",
    run:
        downloads.fetch_logged(params.source["url"], output.local, params.source["sha256"], log[0])


rule thesaurus_read:
    """Verify a thesaurus's local copies (SKOS, MeSH or WordNet); write its cached form and a
    summary."""
    input:
        unpack(thesaurus_files),
    output:
        thesaurus=f"{RESULTS}/thesauri/{{thesaurus}}/{{thesaurus}}.thesaurus.json.gz",
        summary=f"{RESULTS}/thesauri/{{thesaurus}}/summary.tsv",
        provenance=f"{RESULTS}/thesauri/{{thesaurus}}/provenance.json",
    params:
        source=lambda wc: thesaurus_source(wc.thesaurus),
    log:
        f"{RESULTS}/logs/thesauri/{{thesaurus}}/read.log",
    script:
        "../../scripts/thesaurus_read.py"
