# Järvelin & Kekäläinen (SIGIR 2000), reproduced: graded-relevance evaluation of
# unstructured and facet-structured queries. This file is the map of the experiment.
from snakemake.utils import min_version

min_version("9.0")


# The project's defaults, found beside this file (also when it is included from
# workflow/Snakefile or run from another directory); --configfile layers files over them.
configfile: os.path.join(workflow.current_basedir.get_path_or_uri(secret_free=True), "config/config.yaml")


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"


# Defined first, so that it is also the default target where this workflow is used as a
# module (a module's default_target flag does not carry over: docs/module.md).
rule all:
    default_target: True
    input:
        STUDY.targets(),


wildcard_constraints:
    collection="[A-Za-z0-9_-]+",
    thesaurus="[A-Za-z0-9_-]+",
    planset="[A-Za-z0-9_-]+",
    model="[A-Za-z0-9_.-]+",
    slug="[A-Za-z0-9_-]+",


# The stages, as the data flows (each rule file has its folder in gradedrel/).
include: "workflow/rules/thesaurus.smk"
include: "workflow/rules/collection.smk"
include: "workflow/rules/plans.smk"
include: "workflow/rules/queries.smk"
include: "workflow/rules/retrieval.smk"
include: "workflow/rules/evaluation.smk"
include: "workflow/rules/report.smk"
include: "workflow/rules/integrity.smk"
include: "workflow/rules/cluster.smk"


# The libraries the package left to first use while the rule files were read (numpy and
# pandas: gradedrel.core.lazy) are loaded now, in this thread, before Snakemake's job threads
# start (Python 3.11's lazy modules are not thread-safe on their first use).
from gradedrel.core import lazy as _lazy

_lazy.realise()
