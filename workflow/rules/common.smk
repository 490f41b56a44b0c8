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


# The paper's six query types: labels (in tables) and file slugs (the slash becomes '-').
QUERY_TYPES = ["SUM/u", "SUM/e", "SSYN-C/u", "SSYN-C/e", "WSYN/u", "WSYN/e"]


def query_type_slug(label):
    return label.replace("\x2f", "-")  # escaped: snakemake --lint reads "/" as a path


def evaluation_runs(collection, model):
    """Run label -> run file, for the runs evaluated together as (collection, model).

    Model ``baseline`` is the plain baseline run; any other model is the grid of
    query-type runs ``runs/{model}/{slug}.run``.
    """
    if model == "baseline":
        wmodel = config["baseline"]["wmodel"]
        return {wmodel: f"{RESULTS}/{collection}/baseline/{wmodel}.run"}
    return {label: f"{RESULTS}/{collection}/runs/{model}/{query_type_slug(label)}.run"
            for label in QUERY_TYPES}


# The models whose runs all_targets() evaluates; point it at the retrieval grid.
EVALUATED_MODELS = ["baseline"]


def evaluation_run_files(wildcards):
    return list(evaluation_runs(wildcards.collection, wildcards.model).values())


def evaluation_run_labels(wildcards):
    return list(evaluation_runs(wildcards.collection, wildcards.model))


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
        targets += [f"{RESULTS}/{c}/evaluation/{m}/means.tsv" for m in EVALUATED_MODELS]
    return targets
