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
    targets = []
    for c in COLLECTIONS:
        targets += [
            f"{RESULTS}/{c}/testbed.md",
            f"{RESULTS}/{c}/baseline/{config['baseline']['wmodel']}.measures.tsv",
        ]
        targets += [f"{RESULTS}/{c}/evaluation/{m}/means.tsv" for m in EVALUATED_MODELS]
    return targets
