# Helpers shared by the rule files: config validation, paths, targets.
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


wildcard_constraints:
    collection="[A-Za-z0-9_-]+",


def collection_dir(wildcards):
    return f"{RESULTS}/{wildcards.collection}"


from gradedrel.query_types import slug  # noqa: E402  (after sys.path is set)

QUERY_SLUGS = [slug(label) for label in config["query_types"]["labels"]]


def curated_plan_inputs(wildcards):
    """The automatic plans, and the collection's curated plan file if config names one."""
    inputs = {"auto": f"{RESULTS}/{wildcards.collection}/plans/auto.yaml"}
    curated = config["curated_plans"].get(wildcards.collection)
    if curated:
        inputs["curated"] = curated
    return inputs


def all_targets():
    targets = []
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
