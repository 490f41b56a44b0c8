"""The peer of the whole-pipeline benchmark: ONE plain PyTerrier script doing what the
pipeline does for Cranfield, in one process, with no workflow, no files between steps,
no provenance, no figures: index + 18 runs + pt.Experiment.

Stand-in until the query files exist: the 18 runs are BM25 over the raw request text,
repeated for 6 query types x 3 "models" (every run the same BM25 retrieval, so the cost
of 18 retrievals is paid). When results/{c}/queries/{slug}.jsonl exist, pass --queries
RESULTS_DIR to run their Terrier MatchOp strings instead (6 types x the 3 models below).

Usage: IR_DATASETS_HOME=/tmp/idh python benchmarks/plain_pyterrier.py [--queries results/cranfield]
"""
import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path

SLUGS = ["SUM-u", "SUM-e", "SSYN-C-u", "SSYN-C-e", "WSYN-u", "WSYN-e"]
MODELS = ["BM25", "DirichletLM", "TF_IDF"]
GRADES = {"1": 3, "2": 3, "3": 2, "4": 1, "-1": 0}   # Cranfield (the project's grade map)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--queries", help="directory with queries/{slug}.jsonl (MatchOp strings)")
    args = parser.parse_args()
    start = time.perf_counter()
    import ir_datasets
    import pandas as pd
    import pyterrier as pt
    from ir_measures import AP, P, nDCG

    pt.terrier.set_version("5.11")
    pt.terrier.set_helper_version("0.0.8")
    pt.java.init()
    phases = {"start": time.perf_counter() - start}
    dataset = ir_datasets.load("cranfield")
    with tempfile.TemporaryDirectory() as tmp:
        indexer = pt.IterDictIndexer(tmp, meta={"docno": 8}, text_attrs=["text"], blocks=True,
                                     stemmer="porter", stopwords="terrier", overwrite=True)
        index = indexer.index({"docno": d.doc_id, "text": d.text} for d in dataset.docs_iter())
        phases["index"] = time.perf_counter() - start - sum(phases.values())
        topics = pd.DataFrame([(q.query_id, re.sub(r"[^\w\s]", " ", q.text))
                               for q in dataset.queries_iter()], columns=["qid", "query"])
        qrels = pd.DataFrame([(q.query_id, q.doc_id, GRADES[str(q.relevance)])
                              for q in dataset.qrels_iter()],
                             columns=["qid", "docno", "label"])
        systems, names = [], []
        for model in MODELS:
            for slug in SLUGS:
                if args.queries:
                    rows = [json.loads(line) for line in
                            Path(args.queries, "queries", f"{slug}.jsonl").read_text().splitlines()]
                    q = pd.DataFrame({"qid": [r["qid"] for r in rows],
                                      "query": [r["matchop"] for r in rows]})
                    retr = pt.terrier.Retriever(index, wmodel=model, num_results=1000)
                    systems.append(pt.apply.generic(lambda _df, q=q: q) >> retr)
                else:
                    systems.append(pt.terrier.Retriever(index, wmodel="BM25", num_results=1000))
                names.append(f"{model}-{slug}")
        result = pt.Experiment(systems, topics, qrels, names=names,
                               eval_metrics=[nDCG @ 10, AP(rel=1), AP(rel=3), P @ 10])
        phases["runs + Experiment"] = time.perf_counter() - start - sum(phases.values())
    print(result.to_string(), file=sys.stderr)
    print(json.dumps({"runs": len(names), "seconds": round(time.perf_counter() - start, 3),
                      "phases": {k: round(v, 3) for k, v in phases.items()}}))


if __name__ == "__main__":
    main()
