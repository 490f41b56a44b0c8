"""Normalise qrels (levels 0-3), reconcile them with the requests, record exclusions,
describe the testbed."""
import json
import logging
from pathlib import Path

from gradedrel import collection
from gradedrel.collection import readers
from gradedrel.core import text
from gradedrel.core.io import read_tsv, write_text, write_tsv
from gradedrel.job import run_step

log = logging.getLogger("gradedrel")


def main():
    name = snakemake.wildcards.collection
    spec = collection.CollectionSpec.from_config(name, snakemake.params.judgements,
                                                 needs=("topics", "qrels"))
    collection.use_ir_datasets_home(snakemake.params.ir_datasets_home)
    docnos = set(Path(snakemake.input.docnos).read_text(encoding="utf-8").split("\n")) - {""}
    census = json.loads(Path(snakemake.input.census).read_text(encoding="utf-8"))
    assembled = collection.assemble(read_tsv(snakemake.input.requests, ("qid", "query")),
                                    collection.load_qrels(spec), docnos)
    per_topic = collection.recall_base(assembled.qrels, assembled.topics)
    summary = collection.testbed_summary(per_topic)
    for (kind, reason), group in assembled.exclusions.groupby(["kind", "reason"]):
        log.warning("excluded %d %s(s): %s", len(group), kind, reason)
    write_tsv(assembled.topics, snakemake.output.topics)
    write_tsv(assembled.qrels, snakemake.output.qrels)
    write_text(collection.trec_qrels_text(assembled.qrels), snakemake.output.qrels_levels)
    write_tsv(assembled.exclusions, snakemake.output.exclusions)
    write_tsv(per_topic, snakemake.output.recall_base)
    write_tsv(summary, snakemake.output.summary, float_format="%.2f")
    requests = {q: text.dropped(t) for q, t in zip(assembled.topics["qid"],
                                                    assembled.topics["query"])}
    documents = census.get("dropped_text", {})
    dropped = collection.dropped_text_lines("requests", requests)
    if documents:
        shown = dict(sorted(documents["counts"].items(), key=lambda kv: (-kv[1], kv[0]))[:10])
        dropped += [f"- text dropped by the tokeniser from the documents: {documents['items']} "
                    f"item(s) in {documents['documents']} of {len(docnos)}"
                    + (": " + ", ".join(f"`{k}` ×{v}" for k, v in shown.items())
                       if shown else "") + " (documents.json has every count)"]
    local = [census["byte_order_mark"]] if census.get("byte_order_mark") else []
    local += [path for path in (spec.topics, spec.qrels) if path and readers.starts_with_bom(path)]
    write_text(collection.testbed_markdown(name, summary, len(assembled.topics), len(docnos),
                                           len(census["empty_documents"]),
                                           assembled.exclusions, spec.grade_map, dropped,
                                           snakemake.params.licences, local),
               snakemake.output.testbed)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
