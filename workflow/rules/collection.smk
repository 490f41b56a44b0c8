rule prepare_topics_qrels:
    """Map raw labels to levels 0-3, reconcile topics with qrels, describe the testbed."""
    input:
        docnos=f"{RESULTS}/{{collection}}/docnos.txt",
        census=f"{RESULTS}/{{collection}}/documents.json",
    output:
        topics=f"{RESULTS}/{{collection}}/topics.tsv",
        qrels=f"{RESULTS}/{{collection}}/qrels.tsv",
        exclusions=f"{RESULTS}/{{collection}}/exclusions.tsv",
        recall_base=f"{RESULTS}/{{collection}}/recall_base.tsv",
        summary=f"{RESULTS}/{{collection}}/testbed.tsv",
        testbed=report(
            f"{RESULTS}/{{collection}}/testbed.md",
            caption="../report/testbed.rst",
            category="Testbed",
        ),
    params:
        collection=lambda wc: config["collections"][wc.collection],
        ir_datasets_home=config["data"]["ir_datasets_home"],
    log:
        f"{RESULTS}/logs/{{collection}}/prepare_topics_qrels.log",
    script:
        "../../scripts/prepare_topics_qrels.py"
