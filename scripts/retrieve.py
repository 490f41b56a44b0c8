"""Compile a plan set's queries (gradedrel.queries.compilation), then run its query types
through every model of the grid: one JVM (its JIT warmed once for the compilation and all
models), the index opened once; each model's runs (plain TREC, each with its ir_metadata
record in the file beside it), their provenance, the topics not ranked beside them."""
import json
import logging
from pathlib import Path

import pandas as pd

from gradedrel.collection import spec
from gradedrel.core import ir_metadata, provenance, terrier
from gradedrel.queries import compilation, query_files
from gradedrel.retrieval import grid
from gradedrel.core.io import sha256_of, write_text, write_tsv
from gradedrel.retrieval.runs import write_run
from gradedrel.job import ir_metadata_context, per_model_pages, run_step
from gradedrel.study import run_tag

log = logging.getLogger("gradedrel")


def main():
    version = terrier.start(**snakemake.params.terrier)
    # the plan set's candidate topics (selection by the judgements comes at evaluation)
    table = pd.read_csv(snakemake.input.candidates, sep="\t", dtype=str, keep_default_na=False)
    topics = table.loc[table["candidate"] == "1", ["qid"]].reset_index(drop=True)
    index_dir = snakemake.input.index
    pipeline = terrier.term_pipeline(index_dir)
    compilation.compile_plan_set(snakemake.input.plans, snakemake.input.candidates, pipeline,
                                 snakemake.params.labels, snakemake.output,
                                 snakemake.params.query_config, version)
    index = terrier.open_index(index_dir)  # opened once, shared by the Terrier models
    local = {part: snakemake.input[part] for part in ("docs", "topics")
             if part in snakemake.input.keys()}
    manifest = ir_metadata.read_manifest(snakemake.input.get("downloads"))
    census = json.loads(Path(snakemake.input.census).read_text(encoding="utf-8"))
    # each query file read and hashed once, for every model
    queries = {label: (path, query_files.read_query_file(path), sha256_of(path))
               for label in snakemake.params.labels
               for path in [snakemake.output[f"queries/{label}"]]}
    platform, implementation = ir_metadata.gathered(
        "retrieve", "scripts/retrieve.py", version, terrier.java_version())
    context = {"version": version, "pipeline": pipeline, "topics": topics, "queries": queries,
               "data": ir_metadata.data_files(local, manifest), "local": local,
               "manifest": manifest, "census": census, "commit": ir_metadata.source(),
               "platform": platform, "implementation": implementation}
    for name, parameters in snakemake.params.models.items():
        model = grid.Model.from_config(name, parameters)
        transformer = model.engine().retriever(index_dir, snakemake.params.depth, index=index)
        run_model(model, transformer, context)


def run_model(model, transformer, context):
    """One model's runs (each with its ir_metadata record beside it), their provenance, the
    topics it did not rank."""
    out, depth, topics = snakemake.output, snakemake.params.depth, context["topics"]
    plan_set = snakemake.wildcards.planset
    goal, other = ir_metadata_context(snakemake.config, plan_set,
                                      snakemake.params.plan_set.get("thesaurus"))
    ids = spec.ids_of(snakemake.params.collection, ("docs", "topics"))
    not_ranked = []
    for label, (path, queries, digest) in context["queries"].items():
        run_path = out[f"run/{model.name}/{label}"]
        run, missing = grid.run_query_type(model, transformer, topics, queries, label,
                                           context["pipeline"])
        log.info("%s %s: %d of %d topics ranked", model.name, label, run["qid"].nunique(),
                 len(topics))
        for reason, count in missing["reason"].value_counts().sort_index().items():
            log.warning("%s %s: %d topic(s) not ranked: %s", model.name, label, count, reason)
        tag = run_tag(plan_set, model.name, label)
        method = ir_metadata.method_of_run(
            model.name, model.backend, dict(model.parameters), depth, context["census"],
            snakemake.params.plan_set, label, ir_metadata.file_record(path))
        record = ir_metadata.run_record(
            tag, snakemake.wildcards.collection, ids, context["local"], context["manifest"],
            other, method, goal, context["platform"], context["implementation"])
        write_run(run, run_path, tag=tag, topic_order=topics["qid"].tolist(), record=record)
        write_text(provenance.record(
            "retrieve", snakemake.params.config[model.name], context["version"],
            model=model.name, backend=model.backend, parameters=dict(model.parameters),
            query_type=label, query_file=path, query_file_sha256=digest, depth=depth,
            topics=len(topics), ranked=int(run["qid"].nunique()), not_ranked=len(missing),
            data=context["data"], source=context["commit"]),
            out[f"provenance/{model.name}/{label}"])
        not_ranked.append(missing)
    write_tsv(pd.concat(not_ranked, ignore_index=True), out[f"not_ranked/{model.name}"])


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output,
         per_model_pages(snakemake.wildcards),
         config=snakemake.config)
