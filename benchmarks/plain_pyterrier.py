"""The peer of the whole-pipeline benchmark: ONE plain PyTerrier script doing the pipeline's
Terrier grid in one process, with no workflow, no files between steps, no provenance, no
figures: per collection an index (as the pipeline indexes it), then every plan set's query
files through every Terrier weighting model of the grid (InQuery excepted: it is the
pipeline's own engine) and ``pt.Experiment`` with the pipeline's standard measures, on each
plan set's topics.

The query files are the pipeline's own (``results/<c>/queries/<plan set>/<slug>.jsonl``,
MatchOp strings) and so are the topics and the level-mapped judgements
(``results/<c>/plans/<plan set>/topics.tsv``, ``results/<c>/qrels.tsv``): run it after the
pipeline, in the same tree. Prints one JSON line: runs, wall and CPU seconds, phases.

    IR_DATASETS_HOME=... python benchmarks/plain_pyterrier.py --results results \\
        --collections cranfield [nfcorpus] [--configfile config/config.yaml ...]
"""
from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SLUGS = ["SUM-u", "SUM-e", "SSYN-C-u", "SSYN-C-e", "WSYN-u", "WSYN-e"]
MEASURES = ["nDCG@10", "AP(rel=1)", "AP(rel=3)", "P@10"]


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def config_of(files: list[str]) -> dict:
    """The config files layered as the workflow's ``--configfile`` layers them."""
    from gradedrel.core.config import layered

    return layered(files, validated=False)


def documents(spec: dict):
    """The collection's documents as the pipeline indexes them (docno, text fields joined)."""
    import ir_datasets

    ids = spec["ir_datasets"]
    docs_id = ids if isinstance(ids, str) else ids["docs"]
    fields = spec.get("doc_text_fields", ["text"])
    for doc in ir_datasets.load(docs_id).docs_iter():
        yield {"docno": doc.doc_id, "text": " ".join(str(getattr(doc, f)) for f in fields)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=Path("results"))
    parser.add_argument("--collections", nargs="+", required=True)
    parser.add_argument("--configfile", nargs="+", default=[str(ROOT / "config/config.yaml")])
    args = parser.parse_args()
    wall0, cpu0 = time.perf_counter(), cpu()
    import pandas as pd
    import pyterrier as pt
    from ir_measures import parse_measure

    config = config_of(args.configfile)
    pt.terrier.set_version(config["terrier"]["version"])
    pt.terrier.set_helper_version(config["terrier"]["helper_version"])
    pt.java.init()
    phases = {"start": time.perf_counter() - wall0}
    models = [m for m in config["retrieval"]["grid"]
              if config["retrieval"]["models"][m]["backend"] == "terrier"]
    measures = [parse_measure(m) for m in MEASURES]
    runs = 0
    with tempfile.TemporaryDirectory() as tmp:
        for collection in args.collections:
            spec = config["collections"][collection]
            mark = time.perf_counter()
            indexer = pt.IterDictIndexer(f"{tmp}/{collection}", meta={"docno": 64},
                                         text_attrs=["text"], blocks=True, stemmer="porter",
                                         stopwords="terrier", overwrite=True)
            index = indexer.index(documents(spec))
            phases[f"{collection}: index"] = time.perf_counter() - mark
            mark = time.perf_counter()
            base = args.results / collection
            qrels = pd.read_csv(base / "qrels.tsv", sep="\t", dtype={"qid": str, "docno": str})
            qrels = qrels[["qid", "docno", "grade"]].rename(columns={"grade": "label"})
            for plan_set in sorted(p.name for p in (base / "queries").iterdir()):
                topics = pd.read_csv(base / "plans" / plan_set / "topics.tsv", sep="\t",
                                     dtype=str, keep_default_na=False)
                systems, names = [], []
                for model in models:
                    spec_m = config["retrieval"]["models"][model]
                    retriever = pt.terrier.Retriever(
                        index, wmodel=spec_m["wmodel"], num_results=config["retrieval"]["depth"],
                        controls={k: str(v) for k, v in (spec_m.get("controls") or {}).items()},
                        properties={k: str(v) for k, v in (spec_m.get("properties") or {}).items()})
                    for slug in SLUGS:
                        lines = (base / "queries" / plan_set / f"{slug}.jsonl").read_text(
                            encoding="utf-8").splitlines()
                        rows = [json.loads(line) for line in lines]
                        queries = pd.DataFrame({"qid": [str(r["qid"]) for r in rows],
                                                "query": [r["matchop"] for r in rows]})
                        queries = queries[queries["qid"].isin(topics["qid"])]
                        systems.append(pt.apply.generic(lambda _df, q=queries: q) >> retriever)
                        names.append(f"{plan_set} {model} {slug}")
                chosen = topics[topics["qid"].isin(qrels["qid"])][["qid", "query"]]
                pt.Experiment(systems, chosen, qrels[qrels["qid"].isin(chosen["qid"])],
                              eval_metrics=measures, names=names)
                runs += len(systems)
            phases[f"{collection}: runs + Experiment"] = time.perf_counter() - mark
    print(json.dumps({"runs": runs, "wall": round(time.perf_counter() - wall0, 2),
                      "cpu": round(cpu() - cpu0, 2),
                      "phases": {k: round(v, 2) for k, v in phases.items()}}))


if __name__ == "__main__":
    sys.exit(main())
