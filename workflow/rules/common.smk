# Helpers shared across the workflow (config validation, paths, targets).
import os
import sys

from snakemake.utils import validate

sys.path.insert(0, workflow.basedir)  # the gradedrel package, without installing it

validate(config, os.path.join(workflow.basedir, "config/schema/config.schema.yaml"))

RESULTS = config["results_dir"]
COLLECTIONS = config["active_collections"]

_unknown = [c for c in COLLECTIONS if c not in config["collections"]]
if _unknown:
    raise ValueError(
        f"config: active_collections names {_unknown}, which are not under 'collections' "
        f"(known: {sorted(config['collections'])})"
    )


def thesaurus_source(name):
    """The config entry of thesaurus `name` (url, sha256, path, base)."""
    if name not in config["thesauri"]:
        raise ValueError(f"config: no thesaurus {name!r} under 'thesauri'")
    return {"base": "", **config["thesauri"][name]}


def thesaurus_targets():
    return [f"{RESULTS}/thesauri/{t}/summary.tsv" for t in config["thesauri"]]


QUERY_SLUGS = [label.replace("/", "-") for label in config["query_types"]["labels"]]


def curated_plan_inputs(wildcards):
    """The automatic plans, and the collection's curated plan file if config names one."""
    inputs = {"auto": f"{RESULTS}/{wildcards.collection}/plans/auto.yaml"}
    curated = config["curated_plans"].get(wildcards.collection)
    if curated:
        inputs["curated"] = curated
    return inputs


def all_targets():
    targets = thesaurus_targets()
    for c in COLLECTIONS:
        targets += [
            f"{RESULTS}/{c}/testbed.md",
            f"{RESULTS}/{c}/baseline/{config['baseline']['wmodel']}.measures.tsv",
            f"{RESULTS}/{c}/plans/plans.yaml",
            f"{RESULTS}/{c}/plans/selected_topics.tsv",
            f"{RESULTS}/{c}/queries/statistics_means.tsv",
            f"{RESULTS}/{c}/queries/syn_df_summary.tsv",
        ]
        targets += [f"{RESULTS}/{c}/queries/{s}.jsonl" for s in QUERY_SLUGS]
    return targets
