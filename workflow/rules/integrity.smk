# Stage "integrity" (gradedrel/integrity/): the integrity annex, a study of its own beside the
# paper's report (docs/preregistration.md, Amendments 1-3). Per collection the comparison of
# its plan sets and curators, where the primary effect's keys came from and the leak
# diagnostic; with the memory probe's collections active, the probe's scores (v1 and v2) and
# the qualified headline. Output paths under results/report/ and results/{collection}/ as
# before; the report's summary, across-collections table and landing page read the headline.


rule compare_plan_sets:
    """Compare a collection's plan sets: what the plans look like, how far two curators
    agree, and how AvP moves between conditions (docs/expert-plans.md)."""
    input:
        unpack(lambda wc: STUDY.comparison_inputs(wc.collection)),
    output:
        **{
            "page/summary": page_of(
                PATHS.curation("summary.md"),
                "curation.rst",
                "{collection} plans and queries",
                "all plan sets",
            )
        },
        profiles=PATHS.curation("plan_profiles.tsv"),
        conditions=PATHS.curation("avp_by_plan_set.tsv"),
        agreement=PATHS.curation("agreement.tsv"),
        between=PATHS.curation("avp_between_curators.tsv"),
        summary=PATHS.curation("summary.md"),
    log:
        log_of("{collection}/compare_plan_sets"),
    conda:
        CONDA_ENV
    params:
        plan_sets=lambda wc: list(STUDY.collections[wc.collection].plan_sets),
        models=list(STUDY.grid),
        agreement=lambda wc: canonical(
            STUDY.collections[wc.collection].raw.get("curator_agreement")
        ),
        terrier=canonical(config["terrier"]),
    script:
        "../../scripts/compare_plan_sets.py"


rule report_key_provenance:
    """Where the primary effect comes from (docs/preregistration.md, Amendment 1, A4, A5):
    WSYN/e - SUM/u split into structure, request-word expansion, thesaurus expansion,
    other concepts' labels and the curators' own keys, each with its bootstrap interval; the
    robustness rows; the key sources per curator."""
    input:
        unpack(lambda wc: FILES.key_provenance_inputs(wc.collection)),
    output:
        **{
            "page/md": page_of(
                PATHS.collection_report("key_sources.md"),
                "key_provenance.rst",
                "{collection} findings",
                "where the keys came from",
            )
        },
        tsv=PATHS.collection_report("key_sources.tsv"),
        md=PATHS.collection_report("key_sources.md"),
        per_request=PATHS.collection_report("key_sources_per_request.tsv"),
        robustness=PATHS.collection_report("key_sources_robustness.tsv"),
    log:
        log_of("{collection}/report_key_provenance"),
    conda:
        CONDA_ENV
    params:
        primary=lambda wc: STUDY.key_provenance_plan_set(wc.collection),
        derived=lambda wc: canonical(
            {
                role: name
                for role, name in STUDY.derived_roles(
                    wc.collection, STUDY.key_provenance_plan_set(wc.collection)
                ).items()
                if role in ("request", "thesaurus", "no-own")
            }
        ),
        plan_sets=lambda wc: STUDY.curated_plan_sets(wc.collection),
    script:
        "../../scripts/report_key_provenance.py"


rule report_leak:
    """The leak diagnostic (Amendment 1, A6; a flag, not a verdict): per source class and
    per curator of each curated plan set, how much more its keys occur in the request's
    level-3 documents than in the collection, and than in its level-2 documents."""
    input:
        unpack(lambda wc: FILES.leak_inputs(wc.collection)),
    output:
        **{
            "page/md": page_of(
                PATHS.collection_report("leak.md"),
                "leak.rst",
                "{collection} findings",
                "where the keys came from",
            )
        },
        tsv=PATHS.collection_report("leak.tsv"),
        pairs=PATHS.collection_report("leak_pairs.tsv"),
        md=PATHS.collection_report("leak.md"),
    log:
        log_of("{collection}/report_leak"),
    conda:
        CONDA_ENV
    params:
        plan_sets=lambda wc: STUDY.curated_plan_sets(wc.collection),
    script:
        "../../scripts/report_leak.py"


rule report_memory_probe:
    """Score the memory probe (docs/memory-probe.md; Amendment 1, A7): did fresh sessions
    of the curators' model remember the requests' source pages and the studies they cite?"""
    input:
        **FILES.memory_probe_inputs(),
    output:
        **{
            "page/md": page_of(
                PATHS.memory_probe("md"), "memory_probe.rst", "Findings", "Memory probe"
            )
        },
        per_request=PATHS.memory_probe("tsv"),
        per_source=PATHS.memory_probe("sources.tsv"),
        remembered=PATHS.memory_probe("remembered.tsv"),
        decisions=PATHS.memory_probe("decisions.json"),
        md=PATHS.memory_probe("md"),
    log:
        log_of("report_memory_probe"),
    conda:
        CONDA_ENV
    params:
        terrier=canonical(config["terrier"]),
        docs=canonical(
            {
                source: STUDY.collections[c].spec.ir_datasets_id("docs")
                for source, c in (STUDY.memory_probe() or {}).get("collections", {}).items()
            }
        ),
        ir_datasets_home=config["data"]["ir_datasets_home"],
    script:
        "../../scripts/report_memory_probe.py"


rule report_memory_probe_v2:
    """Score probe v2 (Amendment 2, B4-B6): the amended cited-study rule, its null rates on
    placebos and permuted requests, θ, and which requests the curators' model remembers."""
    input:
        **FILES.memory_probe_v2_inputs(),
    output:
        **{
            "page/md": page_of(
                PATHS.memory_probe_v2("md"), "memory_probe_v2.rst", "Findings", "Memory probe v2"
            )
        },
        per_request=PATHS.memory_probe_v2("tsv"),
        nulls=PATHS.memory_probe_v2("null.tsv"),
        rates=PATHS.memory_probe_v2("rates.tsv"),
        remembered=PATHS.memory_probe_v2("remembered.tsv"),
        decisions=PATHS.memory_probe_v2("decisions.json"),
        md=PATHS.memory_probe_v2("md"),
    log:
        log_of("report_memory_probe_v2"),
    conda:
        CONDA_ENV
    params:
        terrier=canonical(config["terrier"]),
        collections=canonical(
            {
                source: {
                    "docs": STUDY.collections[c].spec.ir_datasets_id("docs"),
                    "grade_map": config["collections"][c]["grade_map"],
                    "qrels": (STUDY.memory_probe() or {})
                    .get("v2", {})
                    .get("qrels", {})
                    .get(source),
                }
                for source, c in (STUDY.memory_probe() or {}).get("collections", {}).items()
            }
        ),
        ir_datasets_home=config["data"]["ir_datasets_home"],
    script:
        "../../scripts/report_memory_probe_v2.py"


rule report_headline:
    """The qualified headline of each probed testbed (docs/preregistration.md, Amendment 1,
    A3): the pre-registered primary comparison, and beside it with request and thesaurus
    keys only on the requests the memory probe clears (H2q), on the cleared and on the
    remembered requests, and how many points come from the curators' own keys."""
    input:
        **FILES.headline_inputs(),
    output:
        **{
            "page/md": page_of(
                STUDY.headline("md"), "headline.rst", "Findings", "Across collections"
            )
        },
        tsv=STUDY.headline("tsv"),
        md=STUDY.headline("md"),
    log:
        log_of("report_headline"),
    conda:
        CONDA_ENV
    params:
        conditions=canonical({c: list(v) for c, v in STUDY.headline_conditions().items()}),
        sources=canonical(
            {c: s for s, c in (STUDY.memory_probe() or {}).get("collections", {}).items()}
        ),
        fresh=canonical(list(STUDY.fresh_condition() or [])),
        fresh_extra=canonical(STUDY.fresh_extra()),
        plain=canonical(STUDY.headline_plain()),
    script:
        "../../scripts/report_headline.py"
