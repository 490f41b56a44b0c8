# Järvelin & Kekäläinen (SIGIR 2000), reproduced: graded-relevance evaluation of
# unstructured and facet-structured queries. This file is the map of the experiment.
from snakemake.utils import min_version

min_version("9.0")


configfile: os.path.join(workflow.basedir, "config/config.yaml")


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/collection.smk"
include: "workflow/rules/index.smk"
include: "workflow/rules/baseline.smk"
include: "workflow/rules/report.smk"


rule all:
    input:
        all_targets(),
    default_target: True
