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


def all_targets():
    targets = thesaurus_targets()
    for c in COLLECTIONS:
        targets += [
            f"{RESULTS}/{c}/testbed.md",
            f"{RESULTS}/{c}/baseline/{config['baseline']['wmodel']}.measures.tsv",
        ]
    return targets
