# Stage "evaluation" (gradedrel/evaluation/): the paper's graded measures.

EVALUATION_FILES = [
    "per_topic",
    "means",
    "pr_curves",
    "pr_per_topic",
    "gain_curves",
    "effort",
    "ranked_grades",
]
SIGNIFICANCE_FILES = {
    "friedman": "significance_friedman",
    "posthoc": "significance_posthoc",
    "vs_baseline": "significance_vs_baseline",
    "bootstrap": "bootstrap_ci",
}


def evaluation_outputs(models):
    """Per model (``means/BM25``): the evaluation's tables, the report pages of its means
    and effort, its coverage, provenance and ir_metadata."""
    out = {}
    for m in models:
        out |= {f"{name}/{m}": PATHS.evaluation(f"{name}.tsv", m=m) for name in EVALUATION_FILES}
        out |= {
            f"{name}/{m}": PATHS.evaluation(f"{file}.tsv", m=m)
            for name, file in SIGNIFICANCE_FILES.items()
        }
        for name in ("means", "effort"):
            out[f"page/{name}/{m}"] = page_of(
                PATHS.evaluation(f"{name}.tsv", m=m),
                f"evaluation_{name}.rst",
                "{collection} evaluation",
                f"{{planset}}, {m}",
            )
        out[f"coverage/{m}"] = PATHS.evaluation("coverage.tsv", m=m)
        out[f"provenance/{m}"] = PATHS.evaluation("provenance.json", m=m)
        out[f"metadata/{m}"] = PATHS.evaluation(IR_METADATA, m=m)
    return out


def per_model(file, models):
    """``{file}/{model}`` -> the evaluation's ``{file}.tsv`` of each of ``models``."""
    return {f"{file}/{m}": PATHS.evaluation(f"{file}.tsv", m=m) for m in models}


def evaluation_inputs(models):
    """The runs of each of ``models`` by model and label (``run/BM25/SUM/u``), the qrels
    and (but for the baseline) the plan set's topics."""

    def inputs(wildcards):
        out = {}
        for m in models:
            for key, path in STUDY.evaluation_inputs(
                wildcards.collection, wildcards.planset, m
            ).items():
                out[key.replace("run/", f"run/{m}/", 1) if key.startswith("run/") else key] = path
        return out

    return inputs


def evaluation_run_labels(models):
    """Per model, the labels of the runs it evaluates (the query types; the baseline: its
    one run, labelled by its model)."""
    return lambda wc: {m: list(STUDY.evaluation_runs(wc.collection, wc.planset, m)) for m in models}


# One job per plan set evaluates every model of the grid (one Python start, the judgements
# read once); the plain baseline, a plan set of one model, has its own rule.
for _name, _planset, _models in (
    (
        "evaluate_runs",
        PLAN_SETS,
        STUDY.grid,
    ),
    ("evaluate_baseline", re.escape(BASELINE), [STUDY.baseline_model]),
):

    rule:
        """Evaluate the runs of a plan set's models with the paper's graded measures:
        stratified AvP and P-R per level, CG/DCG/nCG/nDCG against the ideal, effort,
        significance."""
        name:
            _name
        input:
            unpack(evaluation_inputs(_models)),
            # for the evaluation's ir_metadata: the judgements as TREC qrels, the data files
            unpack(lambda wc: FILES.data_files(wc.collection, collection.PARTS)),
            qrels_levels=rules.prepare_topics_qrels.output.qrels_levels,
            downloads=collection_downloads,
        output:
            **evaluation_outputs(_models),
        log:
            log_of(f"{{collection}}/{{planset}}/{_name}"),
        wildcard_constraints:
            planset=_planset,
        conda:
            CONDA_ENV
        params:
            models=_models,
            labels=evaluation_run_labels(_models),
            evaluation=canonical(config["evaluation"]),
            standard_measures=config["standard_measures"],
            collection=collection_settings(EVALUATION_DATA_KEYS),
            plan_set=evaluation_plan_set,
        script:
            "../../scripts/evaluate_runs.py"


# One job per plan set computes the numbers of each report model, as the evaluation
# does (one Python start each): the findings' comparisons, and the figures' bands apart, so
# that a figure setting reruns no findings.
rule evaluate_comparisons:
    """The numbers the findings report reads beside each model's evaluation: every comparison
    of the study design (effect, bootstrap interval, p, Holm's p, minimum detectable effect;
    gradedrel.evaluation.comparisons)."""
    input:
        **per_model("per_topic", STUDY.report_models),
        **per_model("ranked_grades", STUDY.report_models),
        recall_base=rules.prepare_topics_qrels.output.recall_base,
        design=lambda wc: FILES.design_files(wc.collection),
    output:
        **per_model("comparisons", STUDY.report_models),
    log:
        log_of("{collection}/{planset}/evaluate_comparisons"),
    wildcard_constraints:
        planset=PLAN_SETS,
    conda:
        CONDA_ENV
    params:
        **report_params("gains", "gain_profiles", "depth"),
        models=STUDY.report_models,
    script:
        "../../scripts/evaluate_comparisons.py"


rule evaluate_difference_bands:
    """The difference figures' paired bootstrap intervals of each query type's mean gain
    minus the baseline's, per rank, for each report model
    (gradedrel.evaluation.comparisons.difference_bands)."""
    input:
        **per_model("per_topic", STUDY.report_models),
    output:
        **per_model("difference_bands", STUDY.report_models),
    log:
        log_of("{collection}/{planset}/evaluate_difference_bands"),
    wildcard_constraints:
        planset=PLAN_SETS,
    conda:
        CONDA_ENV
    params:
        **report_params("bootstrap", "profiles", "baseline", "query_types", "difference_curves"),
        max_rank=REPORT["figures"]["max_rank"],
        models=STUDY.report_models,
    script:
        "../../scripts/evaluate_difference_bands.py"
