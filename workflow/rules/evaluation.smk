# Stage "evaluation" (gradedrel/evaluation/): the paper's graded measures.

EVALUATION_FILES = [
    "per_topic",
    "means",
    "pr_curves",
    "pr_per_topic",
    "gain_curves",
    "effort",
    "ranked_grades",
    "recall_base",
]
SIGNIFICANCE_FILES = {
    "friedman": "significance_friedman",
    "posthoc": "significance_posthoc",
    "vs_baseline": "significance_vs_baseline",
    "bootstrap": "bootstrap_ci",
}


rule evaluate_runs:
    """Evaluate a model's runs with the paper's graded measures: stratified AvP and P-R
    per level, CG/DCG/nCG/nDCG against the ideal, effort, significance."""
    input:
        unpack(evaluation_inputs),
        # for the evaluation's ir_metadata: the judgements as TREC qrels, the data files
        unpack(evaluation_data_files),
        qrels_levels=rules.prepare_topics_qrels.output.qrels_levels,
        downloads=collection_downloads,
    output:
        **{name: PATHS.evaluation(f"{name}.tsv") for name in EVALUATION_FILES},
        **{name: PATHS.evaluation(f"{file}.tsv") for name, file in SIGNIFICANCE_FILES.items()},
        **{
            "page/means": page_of(
                PATHS.evaluation("means.tsv"),
                "evaluation_means.rst",
                "{collection} evaluation",
                "{planset}, {model}",
            ),
            "page/effort": page_of(
                PATHS.evaluation("effort.tsv"),
                "evaluation_effort.rst",
                "{collection} evaluation",
                "{planset}, {model}",
            ),
        },
        coverage=PATHS.evaluation("coverage.tsv"),
        provenance=PATHS.evaluation("provenance.json"),
        metadata=PATHS.evaluation(IR_METADATA),
    log:
        log_of("{collection}/{planset}/evaluate_runs_{model}"),
    conda:
        CONDA_ENV
    params:
        labels=evaluation_run_labels,
        evaluation=canonical(config["evaluation"]),
        standard_measures=config["standard_measures"],
        collection=collection_settings(EVALUATION_DATA_KEYS),
    script:
        "../../scripts/evaluate_runs.py"
