# Stage "evaluation" (gradedrel/evaluation/): the paper's graded measures.

rule evaluate_runs:
    """Evaluate a model's runs with the paper's graded measures: stratified AvP and P-R
    per level, CG/DCG/nCG/nDCG against the ideal, effort, significance."""
    input:
        unpack(evaluation_inputs),
    output:
        per_topic=f"{RESULTS}/{{collection}}/evaluation/{{planset}}/{{model}}/per_topic.tsv",
        means=f"{RESULTS}/{{collection}}/evaluation/{{planset}}/{{model}}/means.tsv",
        pr_curves=f"{RESULTS}/{{collection}}/evaluation/{{planset}}/{{model}}/pr_curves.tsv",
        pr_per_topic=f"{RESULTS}/{{collection}}/evaluation/{{planset}}/{{model}}/pr_per_topic.tsv",
        gain_curves=f"{RESULTS}/{{collection}}/evaluation/{{planset}}/{{model}}/gain_curves.tsv",
        effort=f"{RESULTS}/{{collection}}/evaluation/{{planset}}/{{model}}/effort.tsv",
        friedman=f"{RESULTS}/{{collection}}/evaluation/{{planset}}/{{model}}/significance_friedman.tsv",
        posthoc=f"{RESULTS}/{{collection}}/evaluation/{{planset}}/{{model}}/significance_posthoc.tsv",
        vs_baseline=f"{RESULTS}/{{collection}}/evaluation/{{planset}}/{{model}}/significance_vs_baseline.tsv",
        bootstrap=f"{RESULTS}/{{collection}}/evaluation/{{planset}}/{{model}}/bootstrap_ci.tsv",
        coverage=f"{RESULTS}/{{collection}}/evaluation/{{planset}}/{{model}}/coverage.tsv",
        ranked_grades=f"{RESULTS}/{{collection}}/evaluation/{{planset}}/{{model}}/ranked_grades.tsv",
        recall_base=f"{RESULTS}/{{collection}}/evaluation/{{planset}}/{{model}}/recall_base.tsv",
        provenance=f"{RESULTS}/{{collection}}/evaluation/{{planset}}/{{model}}/provenance.json",
    params:
        labels=evaluation_run_labels,
        evaluation=config["evaluation"],
        standard_measures=config["standard_measures"],
    log:
        f"{RESULTS}/logs/{{collection}}/{{planset}}/evaluate_runs_{{model}}.log",
    script:
        "../../scripts/evaluate_runs.py"
