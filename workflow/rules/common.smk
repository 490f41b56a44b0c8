# Config validation, the study and the input functions (the model itself is in the
# package: gradedrel.study; the rule files name every path through STUDY.paths or
# rules.X.output).
import os
import re
import sys

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
from gradedrel.queries.query_types import with_synonym_groups
from gradedrel.report.settings import report_settings
from gradedrel.study import BASELINE, T, Study
from gradedrel.study_outputs import ReportItem, RuleFiles, collection_rule

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
QUERY_TYPES = list(STUDY.query_types)
REPORT = config["report"]
#: The rules' inputs and outputs that are more than one path (gradedrel.study_outputs).
FILES = RuleFiles(STUDY, config_path)


def log_of(name):
    return PATHS.log(name)


def flagged(outputs):
    """A rule's outputs with each gradedrel.study_outputs.ReportItem as Snakemake's report()
    flag (its caption a file in workflow/report/, beside these rule files)."""
    return {
        name: _flag(out) if isinstance(out, ReportItem) else out for name, out in outputs.items()
    }


def _flag(item):
    return report(
        item.path,
        caption=f"../report/{item.caption}",
        category=item.category,
        subcategory=item.subcategory,
        labels=dict(item.labels),
    )


def page_of(source, caption, category, subcategory=None):
    """A rule's output ``page/<name>``: the Snakemake report's HTML page of ``source``
    (gradedrel.study_outputs.RuleFiles.page)."""
    return _flag(FILES.page(source, caption, category, subcategory))


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


# --- thesauri, plans, queries, runs -------------------------------------------------------
# The local copies of the thesauri, made by thesaurus_fetch (paths named in config).
THESAURUS_COPY_PATTERN = "|".join(re.escape(path) for path in FILES.thesaurus_copies())


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


#: What a run's ir_metadata names of its collection (gradedrel.core.ir_metadata): its
#: documents and topics, not its judgements (a qrels edit re-runs no retrieval).
RUN_DATA_KEYS = ("ir_datasets", "docs", "topics")
#: Every evaluation folder's ir_metadata file; no rule reads it.
IR_METADATA = ir_metadata.FILE_NAME


# --- evaluation and report ------------------------------------------------------------------

#: What an evaluation's ir_metadata names of its collection: every part, the grade map.
EVALUATION_DATA_KEYS = ("ir_datasets", "docs", "topics", "qrels", "grade_map")


def evaluation_plan_set(wildcards):
    """What an evaluation's ir_metadata says of its runs' plan set: automatic or not, its
    thesaurus (the plain baseline's: BASELINE_PLAN_SET)."""
    if wildcards.planset == BASELINE:
        return BASELINE_PLAN_SET
    return canonical(STUDY.plan_set_metadata(wildcards.collection, wildcards.planset))


#: What the plain baseline's ir_metadata says of its "plan set": the raw request text,
#: no person in the loop, no thesaurus.
BASELINE_PLAN_SET = {"name": BASELINE, "automatic": True, "thesaurus": None}


def report_params(*keys):
    """Only the report settings a rule reads, so that changing others does not re-run it
    (the evaluation's query types, levels, baseline and standard measures included)."""
    return canonical(report_settings(config, *keys))
