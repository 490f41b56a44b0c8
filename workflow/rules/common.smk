# Config validation and input functions only (the data models live in the package:
# gradedrel.plans.plan_sets, gradedrel.collection.spec, gradedrel.report.settings).
import os
import re
import sys

sys.path.insert(0, workflow.basedir)  # the gradedrel package, without installing it

from gradedrel import collection
from gradedrel.collection.fetch import needs_fetch as needs_ir_datasets_fetch
from gradedrel.core import downloads
from gradedrel.plans import plan_sets
from gradedrel.plans.analysis import collection_settings as analysis_settings
from gradedrel.retrieval.grid import Model
from gradedrel.queries.query_types import slug as query_type_slug
from gradedrel.report.settings import report_settings
from gradedrel.thesaurus import sources as thesaurus_sources
from gradedrel.core import config as config_schema
from gradedrel.core import preflight


def stop(*problems):
    """Stop before any job runs: one line per problem, no traceback (GRADEDREL_VERBOSE=1:
    raise the exception instead, with Snakemake's traceback)."""
    if preflight.verbose():
        raise next((p for p in problems if isinstance(p, BaseException)),
                   ValueError("\n".join(map(str, problems))))
    for problem in problems:
        print(f"gradedrel: {problem}", file=sys.stderr)
    sys.exit(1)


# The one config loader (gradedrel.core.config, also `gradedrel evaluate --config`): the
# schema's check and defaults as snakemake.utils.validate, one line on a violation.
if not workflow.modifier.skip_validation:  # a module's skip_validation, as validate() honours
    try:
        config_schema.validate(config, schema_path=os.path.join(
            workflow.basedir, "config/schema/config.schema.yaml"))
    except config_schema.ConfigError as _error:
        if preflight.verbose():
            raise
        stop(_error)

RESULTS = config["results_dir"]
COLLECTIONS = config["active_collections"]
QUERY_TYPES = config["query_types"]["labels"]
QUERY_SLUGS = [query_type_slug(label) for label in QUERY_TYPES]
# Named files per query type ("queries/SUM/u", "run/SUM/u"): scripts look a file up by its
# query type, never pair lists by position.
QUERY_FILES = {f"queries/{q}": f"{RESULTS}/{{collection}}/queries/{{planset}}/{query_type_slug(q)}.jsonl"
               for q in QUERY_TYPES}
RUN_FILES = {f"run/{q}": f"{RESULTS}/{{collection}}/runs/{{planset}}/{{model}}/{query_type_slug(q)}.run"
             for q in QUERY_TYPES}
RUN_PROVENANCE = {
    f"provenance/{q}": f"{RESULTS}/{{collection}}/runs/{{planset}}/{{model}}/{query_type_slug(q)}.provenance.json"
    for q in QUERY_TYPES
}
RETRIEVAL_MODELS = config["retrieval"]["models"]
GRID = config["retrieval"]["grid"]
BASELINE = plan_sets.RESERVED  # the plain baseline's evaluation: results/{c}/evaluation/baseline/

_unknown = [c for c in COLLECTIONS if c not in config["collections"]]
if _unknown:
    stop(
        f"config: active_collections names {_unknown}, which are not under 'collections' "
        f"(known: {sorted(config['collections'])})"
    )
_unknown_models = [m for m in GRID if m not in RETRIEVAL_MODELS]
if _unknown_models:
    stop(
        f"config: retrieval.grid names {_unknown_models}, which are not under retrieval.models "
        f"(known: {sorted(RETRIEVAL_MODELS)})"
    )
REPORT_MODELS = config["report"].get("models") or GRID   # null: every model of the grid
_unreported = [m for m in REPORT_MODELS if m not in GRID]
if _unreported:
    stop(
        f"config: report.models names {_unreported}, which the grid does not run "
        f"(retrieval.grid: {GRID})"
    )


def config_path(path):
    """A path named in config: relative to the working directory, else to the workflow's
    own directory (where config/ lives), so a run in another directory finds config files.
    Always relative (never absolute): a project moved with its results re-runs nothing."""
    if path is None or os.path.isabs(path) or os.path.exists(path):
        return path
    inside = os.path.join(workflow.basedir, path)
    return os.path.relpath(inside) if os.path.exists(inside) else path


def collection_settings(keys):
    """A params function: only the settings ``keys`` of ``collections.<c>``."""
    return lambda wc: collection.settings(config["collections"][wc.collection], keys)


def collection_files(keys):
    """An input function: the local files (docs, topics, qrels) among ``keys`` that the
    collection names (none for an ir_datasets collection)."""
    return lambda wc: collection.local_files(config["collections"][wc.collection], keys)


# The downloads' records (local rules collection_fetch, terrier_fetch in collection.smk).
COLLECTION_FETCH_KEYS = tuple(dict.fromkeys(collection.DOCUMENT_KEYS + collection.JUDGEMENT_KEYS))
TERRIER_JARS_RECORD = f"{RESULTS}/terrier/jars.json"


def collection_downloads(wildcards):
    """An input function: the collection's download manifest when a part comes from
    ir_datasets (nothing to fetch for local files)."""
    spec = collection.CollectionSpec.from_config(
        wildcards.collection, config["collections"][wildcards.collection])
    if not needs_ir_datasets_fetch(spec):
        return []
    return ancient(f"{RESULTS}/{wildcards.collection}/downloads.json")


try:
    PLAN_SETS = {
        c: plan_sets.read(c, config["collections"][c], resolve=config_path, check_files=False)
        for c in COLLECTIONS
    }
    for _c in COLLECTIONS:
        collection.CollectionSpec.from_config(_c, config["collections"][_c])  # fails at start
except ValueError as _error:  # InputError is one
    stop(_error)
# Every input file named in config, present and in its format, before any job runs.
_problems = preflight.input_errors(config, COLLECTIONS, PLAN_SETS, config_path)
if _problems:
    stop(*_problems)


def plan_set(wildcards):
    """The plan set (gradedrel.plans.plan_sets.PlanSet) of a job's wildcards."""
    return PLAN_SETS[wildcards.collection][wildcards.planset]



def thesaurus_name(collection):
    return config["collections"][collection].get("thesaurus", "nasa")


def thesaurus_source(name):
    """The config entry of thesaurus `name` (source; url, sha256, path or MeSH's files; base)."""
    if name not in config["thesauri"]:
        raise ValueError(f"config: no thesaurus {name!r} under 'thesauri'")
    return {"base": "", **config["thesauri"][name]}


# The local copies of the thesauri (paths named in config; MeSH has two files, one per
# role), made by thesaurus_fetch: path -> (thesaurus, role).
THESAURUS_COPIES = {
    file["path"]: (name, role)
    for name, source in config["thesauri"].items()
    for role, file in thesaurus_sources.file_specs(source).items()
}
THESAURUS_COPY_PATTERN = "|".join(re.escape(path) for path in THESAURUS_COPIES)


def thesaurus_copy_source(wildcards):
    """url and sha256 of the thesaurus file kept at wildcards.local_copy."""
    name, role = THESAURUS_COPIES[wildcards.local_copy]
    file = thesaurus_sources.file_specs(thesaurus_source(name))[role]
    return {"url": file["url"], "sha256": file["sha256"]}


def thesaurus_files(wildcards):
    """The local copies a thesaurus is read from, by role (``file``; MeSH: descriptors, trees)."""
    spec = thesaurus_source(wildcards.thesaurus)
    return {role: file["path"] for role, file in thesaurus_sources.file_specs(spec).items()}


def thesaurus_cache(wildcards):
    """The cached thesaurus automatic plans are built from: the one named by the output
    (plans/auto.{thesaurus}.yaml), else the collection's."""
    name = getattr(wildcards, "thesaurus", None) or thesaurus_name(wildcards.collection)
    return f"{RESULTS}/thesauri/{name}/{name}.thesaurus.json.gz"


def plan_set_thesaurus(c, p):
    """The thesaurus a plan set's automatic plans come from."""
    return PLAN_SETS[c][p].thesaurus or thesaurus_name(c)


def collection_thesauri(c):
    """Every thesaurus a collection's plan sets use, the collection's own first."""
    names = [thesaurus_name(c)] + [p.thesaurus for p in PLAN_SETS[c].values() if p.thesaurus]
    return list(dict.fromkeys(names))


def licences(wildcards):
    """The licences a collection's testbed report states: its own, and its thesauri's."""
    c = wildcards.collection
    out = {}
    if config["collections"][c].get("licence"):
        out[f"collection {c}"] = config["collections"][c]["licence"]
    for name in collection_thesauri(c):
        if config["thesauri"].get(name, {}).get("licence"):
            out[f"thesaurus {name}"] = config["thesauri"][name]["licence"]
    return out


def analysis(wildcards):
    """The analysis settings of a collection: its own `analysis` keys over the global ones."""
    return analysis_settings(config["analysis"], config["collections"][wildcards.collection])


def plan_set_inputs(wildcards):
    """The automatic plans (of the plan set's thesaurus), and its curated plan files if any."""
    c = wildcards.collection
    return plan_set(wildcards).merge_inputs(
        plan_set(wildcards).auto_plans(f"{RESULTS}/{c}", thesaurus_name(c)))


def selection_inputs(wildcards):
    c, p = wildcards.collection, wildcards.planset
    return {
        "plans": f"{RESULTS}/{c}/plans/{p}/plans.yaml",
        "recall_base": f"{RESULTS}/{c}/recall_base.tsv",
        "topics": f"{RESULTS}/{c}/topics.tsv",
        **plan_set(wildcards).selection_files(),
    }


def evaluation_runs(collection, planset, model):
    """Run label -> run file, for the runs evaluated together.

    Plan set ``baseline`` holds the plain baseline run; any other plan set the grid of
    query-type runs ``runs/{planset}/{model}/{slug}.run``.
    """
    if planset == BASELINE:
        return {model: f"{RESULTS}/{collection}/baseline/{model}.run"}
    return {
        label: f"{RESULTS}/{collection}/runs/{planset}/{model}/{query_type_slug(label)}.run"
        for label in QUERY_TYPES
    }


def evaluation_inputs(wildcards):
    """The runs by label ("run/SUM/u"), the qrels and (but for the baseline) the topics."""
    c, p, m = wildcards.collection, wildcards.planset, wildcards.model
    inputs = {f"run/{label}": path for label, path in evaluation_runs(c, p, m).items()}
    inputs["qrels"] = f"{RESULTS}/{c}/qrels.tsv"
    if p != BASELINE:
        inputs["topics"] = f"{RESULTS}/{c}/plans/{p}/topics.tsv"
    return inputs


def evaluation_run_labels(wildcards):
    return list(evaluation_runs(wildcards.collection, wildcards.planset, wildcards.model))


def retrieval_inputs(wildcards):
    """The index and the plan set's topics; InQuery also reads the cached posting arrays."""
    c, p = wildcards.collection, wildcards.planset
    inputs = {
        "index": f"{RESULTS}/{c}/index",
        "topics": f"{RESULTS}/{c}/plans/{p}/topics.tsv",
        **{key: path.format(collection=c, planset=p) for key, path in QUERY_FILES.items()},
    }
    if RETRIEVAL_MODELS[wildcards.model]["backend"] == "inquery":
        inputs["postings"] = f"{RESULTS}/{c}/index_arrays/postings"
    return inputs


def model_parameters(name):
    """A model's back end and the parameters that back end takes."""
    model = Model.from_config(name, RETRIEVAL_MODELS[name])
    return {"backend": model.backend, **model.parameters}


def retrieval_provenance_config(wildcards):
    """The configuration one model's runs used (hashed in provenance); what came before
    (plans, queries, index) is in their files, hashed beside."""
    return {
        "terrier": config["terrier"],
        "model": {wildcards.model: model_parameters(wildcards.model)},
        "depth": config["retrieval"]["depth"],
    }


def comparison_inputs(wildcards):
    """Each plan set's plans and topics, each (plan set, model)'s evaluation, by name
    (gradedrel.plans.plan_sets.input_key)."""
    c = wildcards.collection
    key = plan_sets.input_key
    inputs = {"index": f"{RESULTS}/{c}/index"}
    for p in PLAN_SETS[c]:
        inputs[key("plans", p)] = f"{RESULTS}/{c}/plans/{p}/plans.yaml"
        inputs[key("topics", p)] = f"{RESULTS}/{c}/plans/{p}/topics.tsv"
        for m in GRID:
            inputs[key("means", p, m)] = f"{RESULTS}/{c}/evaluation/{p}/{m}/means.tsv"
            inputs[key("per_topic", p, m)] = f"{RESULTS}/{c}/evaluation/{p}/{m}/per_topic.tsv"
    return inputs


REPORT = config["report"]
EVALUATION = f"{RESULTS}/{{collection}}/evaluation/{{planset}}/{{model}}"
REPORT_DIR = f"{RESULTS}/{{collection}}/report/{{planset}}/{{model}}"
FIGURES = f"{REPORT['figures_dir']}/{{collection}}/{{planset}}/{{model}}"
REPORT_TABLES = ["avp", "testbed", "effort", "standard_measures", "significance_friedman",
                 "significance_posthoc", "significance_vs_baseline", "reproduction"]


def report_params(*keys):
    """Only the report settings a rule reads, so that changing others does not re-run it
    (the evaluation's query types, levels, baseline and standard measures included)."""
    return report_settings(config, *keys)


def report_figures(collection, planset, model):
    names = ["pr_levels"] + list(REPORT["curves"])
    names += [f"diff_{c}" for c in REPORT["difference_curves"]]
    return {n: f"{REPORT['figures_dir']}/{collection}/{planset}/{model}/{n}.png" for n in names}


def findings_links(wildcards):
    c, p, m = wildcards.collection, wildcards.planset, wildcards.model
    tables = {f"table: {t}": f"{RESULTS}/{c}/report/{p}/{m}/tables/{t}.md"
              for t in REPORT_TABLES}
    figures = {f"figure: {n}": path for n, path in report_figures(c, p, m).items()}
    return tables | figures


def report_setting(wildcards):
    """How our setting differs from the paper's; the plan set says how its queries were built."""
    setting = dict(REPORT["setting"].get(wildcards.collection, {}))
    description = plan_set(wildcards).description
    if description:
        setting["query_construction"] = description
    return setting


def summary_conditions(wildcards):
    """The (plan set, model) pairs of a collection's report, in config order."""
    return [[p, m] for p in PLAN_SETS[wildcards.collection] for m in REPORT_MODELS]


def summary_inputs(wildcards):
    """Each condition's verdict tables, named ``findings/expert/InQuery`` and
    ``verdicts/expert/InQuery``."""
    c = wildcards.collection
    inputs = {}
    for p, m in summary_conditions(wildcards):
        inputs[plan_sets.input_key("findings", p, m)] = f"{RESULTS}/{c}/report/{p}/{m}/findings.tsv"
        inputs[plan_sets.input_key("verdicts", p, m)] = f"{RESULTS}/{c}/report/{p}/{m}/verdicts.tsv"
    return inputs


def report_targets():
    targets = [f"{RESULTS}/{c}/report/summary.md" for c in COLLECTIONS]
    targets += [f"{RESULTS}/report/across_collections.md",
                f"{REPORT['figures_dir']}/across_collections.png"]
    for c in COLLECTIONS:
        for p in PLAN_SETS[c]:
            for m in REPORT_MODELS:
                targets.append(f"{RESULTS}/{c}/report/{p}/{m}/findings.md")
                targets += [f"{RESULTS}/{c}/report/{p}/{m}/tables/{t}.csv"
                            for t in REPORT_TABLES]
                targets += list(report_figures(c, p, m).values())
    return targets


def all_targets():
    targets = sorted({f"{RESULTS}/thesauri/{t}/summary.tsv"
                      for c in COLLECTIONS for t in collection_thesauri(c)})
    wmodel = config["baseline"]["wmodel"]
    for c in COLLECTIONS:
        targets += [
            f"{RESULTS}/{c}/testbed.md",
            f"{RESULTS}/{c}/evaluation/{BASELINE}/{wmodel}/means.tsv",
        ]
        targets.append(f"{RESULTS}/{c}/curation/summary.md")
        for p in PLAN_SETS[c]:
            targets += [
                f"{RESULTS}/{c}/plans/{p}/selected_topics.tsv",
                f"{RESULTS}/{c}/queries/{p}/statistics_means.tsv",
                f"{RESULTS}/{c}/queries/{p}/syn_df_summary.tsv",
            ]
            for m in GRID:
                targets += [
                    f"{RESULTS}/{c}/runs/{p}/{m}/not_ranked.tsv",
                    f"{RESULTS}/{c}/evaluation/{p}/{m}/means.tsv",
                ]
    return targets + report_targets()
