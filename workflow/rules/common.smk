# Helpers shared by the rule files (config validation, paths, targets).
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
    model="[A-Za-z0-9_.-]+",
    curve="n?(cg|dcg_b[0-9]+)",
    test="friedman|posthoc|vs_baseline",


def collection_dir(wildcards):
    return f"{RESULTS}/{wildcards.collection}"


REPORT = config["report"]
EVALUATION = f"{RESULTS}/{{collection}}/evaluation/{{model}}"
REPORT_DIR = f"{RESULTS}/{{collection}}/report/{{model}}"
FIGURES = f"{REPORT['figures_dir']}/{{collection}}/{{model}}"
REPORT_TABLES = ["avp", "testbed", "effort", "standard_measures", "significance_friedman",
                 "significance_posthoc", "significance_vs_baseline", "reproduction"]


def report_params(*keys):
    """Only the report settings a rule reads, so that changing others does not re-run it."""
    return {k: REPORT[k] for k in keys}


def report_figures(collection, model):
    names = ["pr_levels"] + list(REPORT["curves"])
    names += [f"diff_{c}" for c in REPORT["difference_curves"]]
    return {n: f"{REPORT['figures_dir']}/{collection}/{model}/{n}.png" for n in names}


def findings_links(wildcards):
    tables = {f"table: {t}": f"{RESULTS}/{wildcards.collection}/report/{wildcards.model}/"
              f"tables/{t}.md" for t in REPORT_TABLES}
    figures = {f"figure: {n}": path
               for n, path in report_figures(wildcards.collection, wildcards.model).items()}
    return tables | figures


def report_targets():
    targets = []
    for c in COLLECTIONS:
        for m in REPORT["models"]:
            targets.append(f"{RESULTS}/{c}/report/{m}/findings.md")
            targets += [f"{RESULTS}/{c}/report/{m}/tables/{t}.csv" for t in REPORT_TABLES]
            targets += list(report_figures(c, m).values())
    return targets


def all_targets():
    targets = []
    for c in COLLECTIONS:
        targets += [
            f"{RESULTS}/{c}/testbed.md",
            f"{RESULTS}/{c}/baseline/{config['baseline']['wmodel']}.measures.tsv",
        ]
    return targets + report_targets()
