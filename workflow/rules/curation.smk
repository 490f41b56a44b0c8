rule compare_plan_sets:
    """Compare a collection's plan sets: what the plans look like, how far two curators
    agree, and how AvP moves between conditions (docs/expert-plans.md)."""
    input:
        unpack(comparison_inputs),
    output:
        profiles=f"{RESULTS}/{{collection}}/curation/plan_profiles.tsv",
        conditions=f"{RESULTS}/{{collection}}/curation/avp_by_plan_set.tsv",
        agreement=f"{RESULTS}/{{collection}}/curation/agreement.tsv",
        between=f"{RESULTS}/{{collection}}/curation/avp_between_curators.tsv",
        summary=report(
            f"{RESULTS}/{{collection}}/curation/summary.md",
            caption="../report/curation.rst",
            category="Plans",
        ),
    params:
        plan_sets=lambda wc: list(plan_sets(wc.collection)),
        models=GRID,
        cells=lambda wc: [(p, m) for p in plan_sets(wc.collection) for m in GRID],
        agreement=lambda wc: config["collections"][wc.collection].get("curator_agreement"),
        terrier=config["terrier"],
    log:
        f"{RESULTS}/logs/{{collection}}/compare_plan_sets.log",
    script:
        "../../scripts/compare_plan_sets.py"
