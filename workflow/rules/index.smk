rule index_collection:
    """Index a collection's documents with Terrier (once; later rules reuse the index)."""
    output:
        index=directory(f"{RESULTS}/{{collection}}/index"),
        census=f"{RESULTS}/{{collection}}/documents.json",
        docnos=f"{RESULTS}/{{collection}}/docnos.txt",
    params:
        collection=lambda wc: config["collections"][wc.collection],
        index=config["index"],
        terrier=config["terrier"],
        ir_datasets_home=config["data"]["ir_datasets_home"],
    log:
        f"{RESULTS}/logs/{{collection}}/index_collection.log",
    script:
        "../../scripts/index_collection.py"
