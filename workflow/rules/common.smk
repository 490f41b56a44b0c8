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


    if config["retrieval"]["in_default_run"]:
        targets += retrieval_targets()
    return targets
