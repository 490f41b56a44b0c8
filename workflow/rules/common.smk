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


from gradedrel.grid import Model
from gradedrel.query_files import SLUGS as _QUERY_SLUGS

QUERY_SLUGS = list(_QUERY_SLUGS)
RETRIEVAL_MODELS = config["retrieval"]["models"]

_unknown_models = [m for m in config["retrieval"]["grid"] if m not in RETRIEVAL_MODELS]
if _unknown_models:
    raise ValueError(
        f"config: retrieval.grid names {_unknown_models}, which are not under retrieval.models "
        f"(known: {sorted(RETRIEVAL_MODELS)})"
    )


wildcard_constraints:
    collection="[A-Za-z0-9_-]+",
    model="|".join(RETRIEVAL_MODELS) or "$^",


def collection_dir(wildcards):
    return f"{RESULTS}/{wildcards.collection}"


def retrieval_inputs(wildcards):
    """The index and topics; the InQuery back end also reads the cached posting arrays."""
    inputs = {
        "index": f"{RESULTS}/{wildcards.collection}/index",
        "topics": f"{RESULTS}/{wildcards.collection}/topics.tsv",
    }
    if RETRIEVAL_MODELS[wildcards.model]["backend"] == "inquery":
        inputs["postings"] = f"{RESULTS}/{wildcards.collection}/index_arrays/postings.npz"
    return inputs


def model_parameters(name):
    """A model's back end and the parameters that back end takes."""
    model = Model.from_config(name, RETRIEVAL_MODELS[name])
    return {"backend": model.backend, **model.parameters}


def retrieval_provenance_config(wildcards):
    """The configuration behind one model's runs on one collection (hashed in provenance)."""
    return {
        "collection": config["collections"][wildcards.collection],
        "index": config["index"],
        "terrier": config["terrier"],
        "model": {wildcards.model: model_parameters(wildcards.model)},
        "depth": config["retrieval"]["depth"],
    }


def retrieval_targets():
    """Every cell of the grid: collection x model x query type, and each model's not_ranked.tsv."""
    targets = []
    for c in COLLECTIONS:
        for m in config["retrieval"]["grid"]:
            targets += [f"{RESULTS}/{c}/runs/{m}/{s}.run" for s in QUERY_SLUGS]
            targets.append(f"{RESULTS}/{c}/runs/{m}/not_ranked.tsv")
    return targets


def all_targets():
    targets = []
    for c in COLLECTIONS:
        targets += [
            f"{RESULTS}/{c}/testbed.md",
            f"{RESULTS}/{c}/baseline/{config['baseline']['wmodel']}.measures.tsv",
        ]
    if config["retrieval"]["in_default_run"]:
        targets += retrieval_targets()
    return targets
