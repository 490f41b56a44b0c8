# Config validation, the study and the input functions (the model itself is in the
# package: gradedrel.study; the rule files name every path through STUDY.paths or
# rules.X.output).
import os
import re
import sys
from pathlib import Path

# The project's own files are found from this file through Snakemake's source API
# (workflow.current_basedir, workflow.source_path), not from workflow.basedir, which is the
# *using* workflow's folder when this one runs as a Snakemake module, and not by joining
# strings: the module may come from a URL (github(...), http://...), whose files Snakemake
# fetches into its source cache (docs/module.md).
# Every job's software, for --software-deployment-method conda: the project's one conda
# environment (environment.yml, generated from requirements.lock), the same for every rule.
# A path relative to the files of the rules, as Snakemake reads it (also in a module).
CONDA_ENV = "../../environment.yml"


def _project_root(rules):
    """The project's folder (where gradedrel/, config/ and scripts/ are) when the rule files
    are plain local files; None when they come from a URL or a git ref."""
    from snakemake.sourcecache import LocalSourceFile

    if not isinstance(rules, LocalSourceFile):
        return None
    return os.path.normpath(rules.join("../..").get_path_or_uri(secret_free=True))


def _module_version():
    """The version of this workflow's own package (pyproject.toml beside it, fetched like
    the rule files)."""
    import tomllib

    with open(workflow.source_path("../../pyproject.toml"), "rb") as handle:
        return tomllib.load(handle)["project"]["version"]


def _wrong_package():
    """Why the gradedrel that this process imports is not this workflow's own, or None."""
    if PROJECT_ROOT is not None:
        import gradedrel

        found = os.path.dirname(os.path.dirname(os.path.abspath(gradedrel.__file__)))
        if found == PROJECT_ROOT:
            return None
        return (
            f"this workflow ({PROJECT_ROOT}) would run the gradedrel package of {found}, "
            "imported before it; run it in a fresh Snakemake process (docs/module.md)"
        )
    try:
        import gradedrel

        found = gradedrel.__version__
    except ImportError:
        found = "none"
    wanted = _module_version()
    if found == wanted:
        return None
    # said here, not by the package: the one installed may be absent or of another version
    return (
        f"this workflow ({workflow.current_basedir.get_path_or_uri(secret_free=True)}) needs "
        f"its package, gradedrel {wanted}, with its extra [workflow]; found {found}: "
        "gradedrel is on no package index: clone the repository at the module's tag or "
        "commit and pip install './gradedrel[workflow]' (docs/module.md)"
    )


def _missing_extra():
    """Why the jobs of a module from a URL would fail for want of the [workflow] extra's
    packages (PyTerrier, Snakemake, lxml, rdata: located, not imported), or None; checked
    after the package's version, before any job. Not from a local checkout (`snakemake
    --lint` reads the rule files with Snakemake alone) nor when the jobs get their software
    elsewhere (--software-deployment-method)."""
    if PROJECT_ROOT is not None or workflow.deployment_settings.deployment_method:
        return None
    from gradedrel.core import install

    return install.workflow_extra_problem()


PROJECT_ROOT = _project_root(workflow.current_basedir)
if PROJECT_ROOT is not None:
    sys.path.insert(0, PROJECT_ROOT)  # its own gradedrel package, without installing it
# Parsing reads the package (the study, the schema, the checks); the jobs run it. From a
# local checkout that is the package beside these files (put first on the jobs' PYTHONPATH
# below); from a URL the package is not fetched, so the installed one must be the module's.
_problem = _wrong_package() or _missing_extra()
if _problem:
    print(f"gradedrel: {_problem}", file=sys.stderr)
    sys.exit(1)

from gradedrel import collection
from gradedrel.collection.fetch import needs_fetch as needs_ir_datasets_fetch
from gradedrel.core import config as config_schema
from gradedrel import preflight
from gradedrel.core import downloads, ir_metadata, resources, yaml_io
from gradedrel.core.errors import InputError
from gradedrel.core.params import canonical
from gradedrel.evaluation import settings as evaluation_settings
from gradedrel.core.steps import share_package
from gradedrel.plans import plan_sets
from gradedrel.queries.query_types import with_synonym_groups
from gradedrel.report import design
from gradedrel.report.settings import report_settings
from gradedrel.retrieval.grid import Model
from gradedrel.study import BASELINE, T, Study
from gradedrel.thesaurus import sources as thesaurus_sources

if PROJECT_ROOT is not None:
    share_package(PROJECT_ROOT)  # the jobs' scripts import the same gradedrel as this file


def stop(*problems):
    """Stop before any job runs: one line per problem, no traceback (GRADEDREL_VERBOSE=1:
    raise the exception instead, with Snakemake's traceback)."""
    if preflight.verbose():
        raise next(
            (p for p in problems if isinstance(p, BaseException)),
            ValueError("\n".join(map(str, problems))),
        )
    for problem in problems:
        print(f"gradedrel: {problem}", file=sys.stderr)
    sys.exit(1)


# As a Snakemake module the project's config/config.yaml is not read (a module's configfile
# is skipped when the using workflow passes `config:`): its values are the defaults under
# the config passed (docs/module.md), as `--configfile` layers a file over them here.
if workflow.modifier.skip_configfile:
    import yaml as _yaml
    from snakemake.utils import update_config as _update_config

    with open(workflow.source_path("../../config/config.yaml"), encoding="utf-8") as _handle:
        _defaults = _yaml.safe_load(_handle)
    _module_config = dict(config)  # named `config` in messages, over config/config.yaml
    _update_config(_defaults, dict(config))
    config.update(_defaults)


# A key given twice in a config file is refused (PyYAML, and so Snakemake's loader, keeps the
# last silently): every config file read, read again by the project's loader.
for _path in dict.fromkeys(str(_p) for _p in workflow.configfiles):
    try:
        yaml_io.load_file(_path)
    except InputError as _error:
        stop(_error)


# The one config loader (gradedrel.core.config, also `gradedrel evaluate --config`): the
# schema's check and defaults as snakemake.utils.validate, one line on a violation.
def _config_layers(workflow):
    """The files the config was layered from, earliest first, and the values layered over
    them (named `config`), so that a violation names the file and line that set it: the
    Snakefile's configfile, then the --configfile files in order (Snakemake layers these
    over it), then --config values; as a module, config/config.yaml under the module's
    config."""
    if workflow.modifier.skip_configfile:
        # the module's defaults, where Snakemake keeps them (a local copy of a URL's file)
        return {
            "files": [workflow.source_path("../../config/config.yaml")],
            "overrides": _module_config,
        }
    return {
        "files": config_schema.snakemake_layers(
            workflow.configfiles, workflow.overwrite_configfiles
        ),
        "overrides": dict(workflow.config_settings.config or {}),
    }


if not workflow.modifier.skip_validation:  # a module's skip_validation, as validate() honours
    try:
        config_schema.validate(config, schema_path=config_schema.SCHEMA, **_config_layers(workflow))
        # settings the schema cannot judge (cutoffs beyond depth), before any job runs
        evaluation_settings.check_config(config, **_config_layers(workflow))
    except config_schema.ConfigError as _error:
        if preflight.verbose():
            raise
        stop(_error)


def config_path(path):
    """A path named in config: relative to the working directory, else (a local checkout) to
    the workflow's own directory (where config/ lives), so a run in another directory finds
    config files; a module from a URL reads them from the using directory (docs/module.md).
    Always relative (never absolute): a project moved with its results re-runs nothing."""
    if path is None or os.path.isabs(path) or os.path.exists(path) or PROJECT_ROOT is None:
        return path
    inside = os.path.join(PROJECT_ROOT, path)
    return os.path.relpath(inside) if os.path.exists(inside) else path


# A module from a URL reads the project's config/ folder (plans, designs) from the using
# directory: its absence is one line, before the study is read.
if PROJECT_ROOT is None:
    _problem = preflight.missing_config_folder(config)
    if _problem:
        stop(_problem)

try:
    STUDY = Study.from_config(config, resolve=config_path)
except ValueError as _error:  # InputError is one
    stop(_error)
# Every input file named in config, present and in its format, before any job runs.
_problems = preflight.input_errors(
    config,
    list(STUDY.collections),
    {c: cs.plan_sets for c, cs in STUDY.collections.items()},
    config_path,
    thesauri=STUDY.thesauri_used(),
)
if _problems:
    stop(*_problems)

PATHS = STUDY.paths
RESULTS = PATHS.results
QUERY_TYPES = list(STUDY.query_types)
REPORT = config["report"]


def log_of(name):
    return PATHS.log(name)


# --- collection ------------------------------------------------------------------------


def collection_settings(keys):
    """A params function: only the settings ``keys`` of ``collections.<c>``."""
    return lambda wc: canonical(collection.settings(STUDY.collections[wc.collection].raw, keys))


def collection_files(keys):
    """An input function: the local files (docs, topics, qrels) among ``keys`` that the
    collection names (none for an ir_datasets collection)."""
    return lambda wc: collection.local_files(STUDY.collections[wc.collection].raw, keys)


# The downloads' records (local rules collection_fetch, terrier_fetch in collection.smk).
COLLECTION_FETCH_KEYS = collection.FETCH_KEYS


def collection_downloads(wildcards):
    """An input function: the collection's download manifest when a part comes from
    ir_datasets (nothing to fetch for local files)."""
    if not needs_ir_datasets_fetch(STUDY.collections[wildcards.collection].spec):
        return []
    return ancient(PATHS.collection("downloads.json", wildcards.collection))


def licences(wildcards):
    return canonical(STUDY.collections[wildcards.collection].licences(STUDY.thesauri))


def job_resources(rule, runs=1):
    """A rule's cluster resources as callables of the collection's size (runtime, mem_mb:
    gradedrel.core.resources, calibrated on the 200k/1M-document measurements), for a
    job doing ``runs`` times the calibrated work (retrieve: one per model)."""

    def size(wc):
        spec = STUDY.collections[wc.collection].spec
        return resources.documents(spec.ir_datasets_id("docs"), spec.docs)

    return {
        "runtime": lambda wc: resources.resources(rule, size(wc), runs)["runtime"],
        "mem_mb": lambda wc: resources.resources(rule, size(wc), runs)["mem_mb"],
    }


# --- thesauri --------------------------------------------------------------------------


def thesaurus_source(name):
    """The config entry of thesaurus `name` (source; url, sha256, path or MeSH's files; base)."""
    if name not in config["thesauri"]:
        raise ValueError(f"config: no thesaurus {name!r} under 'thesauri'")
    return canonical({"base": "", **config["thesauri"][name]})


def thesaurus_reader(name):
    """What the cached form of thesaurus `name` is read and written by: its reader's
    version and the cache format's (a new one re-reads the thesaurus)."""
    return thesaurus_sources.reader_versions(config["thesauri"][name])


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
    name = (
        getattr(wildcards, "thesaurus", None) or STUDY.collections[wildcards.collection].thesaurus
    )
    return PATHS.thesaurus(name)


# --- plans, queries, runs ----------------------------------------------------------------


def analysis(wildcards):
    """The analysis settings of a collection: its own `analysis` keys over the global ones."""
    return canonical(STUDY.collections[wildcards.collection].analysis)


def plan_set(wildcards):
    """The plan set (gradedrel.plans.plan_sets.PlanSet) of a job's wildcards."""
    return STUDY.plan_set(wildcards.collection, wildcards.planset)


def names_pattern(names):
    """A wildcard constraint matching exactly these names (none: matching nothing)."""
    return "|".join(re.escape(n) for n in names) or "(?!)"


# The plans of a plan set come from merge_curated_plans (not derived) or
# derive_plan_set (derived from another plan set: docs/preregistration.md, Amendment 1).
PLAIN_PLAN_SETS = names_pattern(STUDY.plan_set_names(derived=False))
DERIVED_PLAN_SETS = names_pattern(STUDY.plan_set_names(derived=True))
#: Every plan set (not the plain baseline, which has an evaluation but no findings).
PLAN_SETS = names_pattern(STUDY.plan_set_names(derived=False) + STUDY.plan_set_names(derived=True))


def classification_inputs(wildcards):
    """What classifying a plan set's keys reads: its plans and candidates, the requests, the
    index (for the term pipeline), the thesaurus and, where the plans do not name their
    curators, the curation batches."""
    c, p = wildcards.collection, wildcards.planset
    cs = STUDY.collections[c]
    inputs = {
        "plans": PATHS.plan_set("plans.yaml", c, p),
        "candidates": PATHS.plan_set("candidates.tsv", c, p),
        "requests": PATHS.collection("requests.tsv", c),
        "index": PATHS.index(c),
        "thesaurus": PATHS.thesaurus(cs.plan_set_thesaurus(p)),
    }
    if plan_set(wildcards).curators:
        inputs["batches"] = plan_set(wildcards).curators["file"]
    return inputs


def derivation_inputs(wildcards):
    """A derived plan set reads its parent's plans, candidates and key sources (and the
    blinded ratings, if it leaves out keys by them)."""
    c, derived = wildcards.collection, plan_set(wildcards)
    parent = derived.derived_from
    inputs = {
        "plans": PATHS.plan_set("plans.yaml", c, parent),
        "candidates": PATHS.plan_set("candidates.tsv", c, parent),
        "key_sources": PATHS.plan_set("key_sources.tsv", c, parent),
    }
    if derived.ratings:  # a folder: items.tsv and the raters' ratings_<batch>.tsv
        inputs["rating_items"] = f"{derived.ratings}/items.tsv"
        inputs["ratings"] = sorted(str(p) for p in Path(derived.ratings).glob("ratings_*.tsv"))
    return inputs


def plan_set_inputs(wildcards):
    """The automatic plans (of the plan set's thesaurus), and its curated plan files if any."""
    return plan_set(wildcards).merge_inputs(
        STUDY.auto_plans_of(wildcards.collection, wildcards.planset)
    )


def model_parameters(name):
    """A model's back end and the parameters that back end takes."""
    model = Model.from_config(name, config["retrieval"]["models"][name])
    return canonical({"backend": model.backend, **model.parameters})


#: What a run's ir_metadata names of its collection (gradedrel.core.ir_metadata): its
#: documents and topics, not its judgements (a qrels edit re-runs no retrieval).
RUN_DATA_KEYS = ("ir_datasets", "docs", "topics")
#: Every evaluation folder's ir_metadata file; no rule reads it.
IR_METADATA = ir_metadata.FILE_NAME


def run_record(run):
    """The file of a run's ir_metadata record, beside the run (``SUM-u.run`` →
    ``SUM-u.run.ir-metadata.yaml``); no rule reads it."""
    return str(ir_metadata.record_path(run))


def run_data_files(wildcards):
    """The local documents and topics files a run's ir_metadata names, as ``data/<part>``
    (the plain baseline's rule has its own ``topics`` input, the requests)."""
    files = collection_files(RUN_DATA_KEYS)(wildcards)
    return {f"data/{part}": path for part, path in files.items()}


#: What the plain baseline's ir_metadata says of its "plan set": the raw request text,
#: no person in the loop, no thesaurus.
BASELINE_PLAN_SET = {"name": BASELINE, "automatic": True, "thesaurus": None}


def evaluation_plan_set(wildcards):
    """What an evaluation's ir_metadata says of its runs' plan set: automatic or not, its
    thesaurus (the plain baseline's: :data:`BASELINE_PLAN_SET`)."""
    if wildcards.planset == BASELINE:
        return BASELINE_PLAN_SET
    return canonical(STUDY.plan_set_metadata(wildcards.collection, wildcards.planset))


def retrieval_outputs():
    """Per model of the grid (``BM25``): a run per query type (``run/BM25/SUM/u``), its
    ir_metadata record (``record/BM25/SUM/u``) and provenance record, the topics not ranked
    with their report page."""
    out = {}
    for m in STUDY.grid:
        out |= {f"run/{m}/{q}": PATHS.run(q, m=m) for q in QUERY_TYPES}
        out |= {f"record/{m}/{q}": run_record(PATHS.run(q, m=m)) for q in QUERY_TYPES}
        out |= {
            f"provenance/{m}/{q}": PATHS.run(q, m=m, ext="provenance.json") for q in QUERY_TYPES
        }
        out[f"page/not_ranked/{m}"] = page_of(
            PATHS.runs("not_ranked.tsv", m=m),
            "not_ranked.rst",
            "{collection} retrieval",
            f"{{planset}}, {m}",
        )
        out[f"not_ranked/{m}"] = PATHS.runs("not_ranked.tsv", m=m)
    return out


def retrieval_provenance_config(model):
    """The configuration one model's runs used (hashed in provenance); what came before
    (plans, queries, index) is in their files, hashed beside."""
    return canonical(
        {
            "terrier": config["terrier"],
            "model": {model: model_parameters(model)},
            "depth": config["retrieval"]["depth"],
        }
    )


# --- evaluation and report ------------------------------------------------------------------


#: What an evaluation's ir_metadata names of its collection: every part, the grade map.
EVALUATION_DATA_KEYS = ("ir_datasets", "docs", "topics", "qrels", "grade_map")


def evaluation_data_files(wildcards):
    """The local files of the collection (``data/docs``, …), for their digests: each
    already re-runs the evaluation through the index or the judgements when edited."""
    files = collection.local_files(STUDY.collections[wildcards.collection].raw, collection.PARTS)
    return {f"data/{part}": path for part, path in files.items()}


def report_params(*keys):
    """Only the report settings a rule reads, so that changing others does not re-run it
    (the evaluation's query types, levels, baseline and standard measures included)."""
    return canonical(report_settings(config, *keys))


def design_files(wildcards):
    """The collection's study design file and the files it amends (gradedrel.report.design)."""
    return design.files(STUDY.collections[wildcards.collection].design)


def report_setting(wildcards):
    """How our setting differs from the paper's; the plan set says how its queries were built."""
    setting = dict(REPORT["setting"].get(wildcards.collection, {}))
    description = plan_set(wildcards).description
    if description:
        setting["query_construction"] = description
    return canonical(setting)


def page_of(source, caption, category, subcategory=None):
    """A rule's output ``page/<name>``: the Snakemake report's HTML page of its output
    ``<name>`` (path ``source``), captioned and filed under its collection. The job that
    writes a result writes its page too (gradedrel.core.steps.write_pages): the report
    shows images and HTML inline but other files only as downloads. Its label names it
    (gradedrel.report.items.LABELS), not its path."""
    from gradedrel.report.items import label

    return report(
        PATHS.page(source),
        caption=f"../report/{caption}",
        category=category,
        subcategory=subcategory,
        labels={"item": label(caption)},
    )


# --- the report's files ----------------------------------------------------------------------

#: The tables of a findings report (report/{p}/{m}/tables/{name}.{csv,md,tex,html}) and
#: the caption of each in the Snakemake report, in the order the findings report links them.
TABLE_CAPTIONS = {
    "avp": "avp_table.rst",
    "testbed": "testbed_table.rst",
    "effort": "effort_table.rst",
    "standard_measures": "standard_table.rst",
    "significance_friedman": "significance_friedman.rst",
    "significance_posthoc": "significance_posthoc.rst",
    "significance_vs_baseline": "significance_vs_baseline.rst",
    "reproduction": "reproduction_table.rst",
}


#: The tables the Snakemake report leaves out, to stay small (with every plan set and model,
#: the significance tables were a quarter of its bytes); each is still written in every
#: format, and the verdicts give the deciding tests' p-values.
TABLES_NOT_IN_REPORT = ("significance_friedman", "significance_posthoc", "significance_vs_baseline")


def report_tables(m):
    """The outputs ``{table}/{format}/{m}`` of the findings job: every table of model ``m``
    in CSV, Markdown, LaTeX and HTML (the HTML one an item of the Snakemake report, but for
    TABLES_NOT_IN_REPORT)."""
    from gradedrel.report.items import label

    out = {}
    for table in STUDY.REPORT_TABLES:
        caption = TABLE_CAPTIONS[table]
        category = "{collection} findings" if table == "reproduction" else "{collection} tables"
        out |= {
            f"{table}/{fmt}/{m}": PATHS.report(f"tables/{table}.{fmt}", m=m)
            for fmt in STUDY.TABLE_FORMATS
            if fmt != "html" or table in TABLES_NOT_IN_REPORT
        }
        if table in TABLES_NOT_IN_REPORT:
            continue
        out[f"{table}/html/{m}"] = report(
            PATHS.report(f"tables/{table}.html", m=m),
            caption=f"../report/{caption}",
            category=category,
            subcategory=f"{{planset}}, {m}",
            labels={"item": label(caption)},
        )
    return out


def findings_outputs(models):
    """Per model (``md/BM25``): the tables, the findings report (Markdown; HTML, an item of
    the Snakemake report), the verdicts with their page, the findings and the primary
    comparisons."""
    from gradedrel.report.items import label as report_label

    out = {}
    for m in models:
        out |= report_tables(m)
        out[f"page/verdicts/{m}"] = page_of(
            PATHS.report("verdicts.tsv", m=m),
            "verdicts.rst",
            "{collection} findings",
            f"{{planset}}, {m}",
        )
        out[f"md/{m}"] = PATHS.report("findings.md", m=m)
        out[f"html/{m}"] = report(
            PATHS.report("findings.html", m=m),
            caption="../report/findings.rst",
            category="{collection} findings",
            subcategory=f"{{planset}}, {m}",
            labels={"item": report_label("findings.rst")},
        )
        for name in ("verdicts", "findings", "primary"):
            out[f"{name}/{m}"] = PATHS.report(f"{name}.tsv", m=m)
    return out


def figure_caption(name):
    if name == "pr_levels":
        return "figure_pr.rst"
    return "figure_difference.rst" if name.startswith("diff_") else "figure_gain.rst"


def report_figures():
    """The outputs ``{figure}/png`` and ``{figure}/pdf`` (print quality; the Snakemake report
    embeds screen copies of the primary condition's, rule report_screen_figures)."""
    out = {}
    for name in STUDY.figure_names():
        out[f"{name}/png"] = PATHS.figure(name)
        out[f"{name}/pdf"] = PATHS.figure(name, "pdf")
    return out


def findings_links(c, p, m):
    """The findings report's links to its tables and figures (made relative by the script)."""
    tables = {f"table: {t}": PATHS.report(f"tables/{t}.md", c, p, m) for t in STUDY.REPORT_TABLES}
    if not STUDY.draws_figures(c, p):
        return tables
    return tables | {f"figure: {n}": PATHS.figure(n, "png", c, p, m) for n in STUDY.figure_names()}


def key_provenance_inputs(wildcards):
    """The decomposition of a collection's primary effect reads the per-request AvP of the
    primary plan set and of its request, thesaurus and no-own plan sets (InQuery, as the
    primary comparison), the primary's key sources, the recall base, and the key shares of
    every curated plan set."""
    c = wildcards.collection
    primary = STUDY.key_provenance_plan_set(c)
    roles = STUDY.derived_roles(c, primary)
    key = plan_sets.input_key
    model = STUDY.primary_condition(c)[1]
    inputs = {
        key("per_topic", p): PATHS.evaluation("per_topic.tsv", c, p, model)
        for p in [primary] + [roles[r] for r in ("request", "thesaurus", "no-own")]
    }
    inputs[key("key_sources", primary)] = PATHS.plan_set("key_sources.tsv", c, primary)
    inputs["recall_base"] = PATHS.collection("recall_base.tsv", c)
    for p in STUDY.curated_plan_sets(c):
        inputs[key("shares_curators", p)] = PATHS.plan_set("key_shares_curators.tsv", c, p)
    return inputs


def leak_inputs(wildcards):
    """The leak diagnostic reads the index and its posting arrays, the judgements and the
    key sources of every curated plan set."""
    c = wildcards.collection
    inputs = {
        "index": PATHS.index(c),
        "postings": PATHS.postings(c),
        "qrels": PATHS.collection("qrels.tsv", c),
        "design": STUDY.collections[c].design,
        "designs": design.files(STUDY.collections[c].design),
    }
    for p in STUDY.curated_plan_sets(c):
        inputs[plan_sets.input_key("key_sources", p)] = PATHS.plan_set("key_sources.tsv", c, p)
    return inputs


def headline_inputs():
    """The qualified headline reads, per probed collection, the per-topic values of its
    primary plan set and of the one with request and thesaurus keys (the primary model),
    its decomposition and design; and the probe's remembered requests."""
    probe = STUDY.memory_probe()
    v2 = (probe or {}).get("v2")
    inputs = {"published": config_path(REPORT["published"])}
    if probe:
        inputs["remembered"] = (
            PATHS.memory_probe_v2("remembered.tsv") if v2 else PATHS.memory_probe("remembered.tsv")
        )
    for c, primary in STUDY.headline_plain().items():
        model = STUDY.primary_condition(c)[1]
        inputs[f"per_topic/{c}/{primary}"] = PATHS.evaluation("per_topic.tsv", c, primary, model)
        inputs[f"comparisons/{c}/{primary}"] = PATHS.evaluation(
            "comparisons.tsv", c, primary, model
        )
        inputs[f"design/{c}"] = STUDY.collections[c].design
        inputs[f"designs/{c}"] = design.files(STUDY.collections[c].design)
    for c in [
        *STUDY.headline_plain(),
        *STUDY.headline_conditions(),
        *([STUDY.fresh_condition()[0]] if STUDY.fresh_condition() else []),
    ]:
        if STUDY.curated_plan_sets(c):
            inputs[f"leak/{c}"] = PATHS.collection_report("leak.tsv", c)
    for c, (primary, thesaurus) in STUDY.headline_conditions().items():
        model = STUDY.primary_condition(c)[1]
        for p in (primary, thesaurus):
            inputs[f"per_topic/{c}/{p}"] = PATHS.evaluation("per_topic.tsv", c, p, model)
        inputs[f"comparisons/{c}/{primary}"] = PATHS.evaluation(
            "comparisons.tsv", c, primary, model
        )
        inputs[f"key_sources/{c}"] = PATHS.collection_report("key_sources.tsv", c)
        inputs[f"design/{c}"] = STUDY.collections[c].design
        inputs[f"designs/{c}"] = design.files(STUDY.collections[c].design)
    fresh = STUDY.fresh_condition()
    if fresh:
        c, primary, thesaurus = fresh
        model = STUDY.primary_condition(c)[1]
        for p in (primary, thesaurus, *STUDY.fresh_extra().values()):
            inputs[f"per_topic/{c}/{p}"] = PATHS.evaluation("per_topic.tsv", c, p, model)
        inputs[f"design/{c}"] = STUDY.collections[c].design
        inputs[f"designs/{c}"] = design.files(STUDY.collections[c].design)
        inputs["fresh_pool"] = config_path(v2["fresh"]["pool"])
        inputs["fresh_recall_base"] = PATHS.collection("recall_base.tsv", c)
        inputs["fresh_decisions"] = PATHS.memory_probe_v2("decisions.json")
    return inputs


def memory_probe_v2_inputs():
    """Probe v2's texts, batches, answers and v1 files, and per scored source the index of
    its collection (the term pipeline) (docs/memory-probe.md, "Probe v2")."""
    probe = STUDY.memory_probe()
    if not probe or not probe.get("v2"):
        return {}
    v2 = probe["v2"]
    inputs = {
        "requests": config_path(v2["requests"]),
        "batches": config_path(v2["batches"]),
        "answers": sorted(str(p) for p in Path(config_path(v2["answers"])).glob("*.yaml")),
        "requests_v1": config_path(probe["requests"]),
        "answers_v1": sorted(str(p) for p in Path(config_path(probe["answers"])).glob("*.yaml")),
        **probe_design_inputs(probe),
    }
    if v2.get("match_checks"):
        checks = config_path(v2["match_checks"])
        inputs |= {"check_items": f"{checks}/items.tsv", "checks": f"{checks}/checks.tsv"}
    for source, c in probe["collections"].items():
        inputs[f"index/{source}"] = PATHS.index(c)
    return inputs


def probe_design_inputs(probe):
    """The study design whose seed the probe's scorers draw with: the design of the collection
    the probe's real (NutritionFacts) requests come from, and the files it amends."""
    d = STUDY.collections[probe["collections"]["nfcorpus"]].design
    return {"design": d, "designs": design.files(d)}


def memory_probe_inputs():
    """The probe's requests and answers, and per scored collection its index, posting
    arrays and judgements (docs/memory-probe.md)."""
    probe = STUDY.memory_probe()
    if not probe:
        return {}
    answers = sorted(str(p) for p in Path(config_path(probe["answers"])).glob("*.yaml"))
    inputs = {
        "requests": config_path(probe["requests"]),
        "answers": answers,
        **probe_design_inputs(probe),
    }
    for source, c in probe["collections"].items():
        inputs |= {
            f"index/{source}": PATHS.index(c),
            f"postings/{source}": PATHS.postings(c),
            f"qrels/{source}": PATHS.collection("qrels.tsv", c),
        }
    return inputs
