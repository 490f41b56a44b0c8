rule thesaurus_read:
    """Fetch (when absent) and verify a SKOS thesaurus; write its cached form and a summary."""
    output:
        thesaurus=f"{RESULTS}/thesauri/{{thesaurus}}/{{thesaurus}}.thesaurus.json.gz",
        summary=report(
            f"{RESULTS}/thesauri/{{thesaurus}}/summary.tsv",
            caption="../report/thesaurus_summary.rst",
            category="Thesaurus",
        ),
        provenance=f"{RESULTS}/thesauri/{{thesaurus}}/provenance.json",
    params:
        name=lambda wc: wc.thesaurus,
        source=lambda wc: thesaurus_source(wc.thesaurus),
    log:
        f"{RESULTS}/logs/thesauri/{{thesaurus}}/read.log",
    script:
        "../../scripts/thesaurus_read.py"
