# Stage "evaluation" (gradedrel/evaluation/): the paper's graded measures.

# One job per plan set selects its topics, then evaluates every model of the grid on them
# (one Python start, the judgements read once); the plain baseline, a plan set of one model
# evaluated on every topic with judgements, has its own rule and selects nothing.
for _name, _planset, _models, _selection_outputs, _selection_setting in (
    (
        "evaluate_runs",
        PLAN_SETS,
        STUDY.grid,
        FILES.selection_outputs(),
        lambda wc: FILES.topic_selection(wc.collection, wc.planset),
    ),
    ("evaluate_baseline", re.escape(BASELINE), [STUDY.baseline_model], {}, None),
):

    rule:
        """Select a plan set's topics for the evaluation (its candidates with the judgements
        it needs; every topic listed with the reason), then evaluate the runs of its models
        with the paper's graded measures: stratified AvP and P-R per level, CG/DCG/nCG/nDCG
        against the ideal, effort, significance."""
        name:
            _name
        input:
            unpack(FILES.evaluation_inputs(_models)),
            # for the evaluation's ir_metadata: the judgements as TREC qrels, the data files
            unpack(lambda wc: FILES.data_files(wc.collection, collection.PARTS)),
            qrels_levels=rules.prepare_topics_qrels.output.qrels_levels,
            downloads=collection_downloads,
        output:
            **flagged(_selection_outputs),
            **flagged(FILES.evaluation_outputs(_models)),
        log:
            log_of(f"{{collection}}/{{planset}}/{_name}"),
        wildcard_constraints:
            planset=_planset,
        conda:
            CONDA_ENV
        params:
            models=_models,
            labels=FILES.evaluation_run_labels(_models),
            evaluation=canonical(config["evaluation"]),
            standard_measures=config["standard_measures"],
            collection=collection_settings(EVALUATION_DATA_KEYS),
            plan_set=evaluation_plan_set,
            topic_selection=_selection_setting,
        script:
            "../../scripts/evaluate_runs.py"


# One job per collection computes the findings' comparisons of each plan set and report
# model, as the evaluation does (one Python start for them all); the figures' bands apart,
# so that a figure setting reruns no findings. A rule per collection, named for it
# (evaluate_comparisons_cranfield: gradedrel.study_outputs.collection_rule): its outputs are
# its plan sets'.
for _c in STUDY.collections:

    rule:
        """The numbers the findings report reads beside each model's evaluation: every
        comparison of the study design (effect, bootstrap interval, p, Holm's p, minimum
        detectable effect; gradedrel.evaluation.comparisons), for every plan set."""
        name:
            collection_rule("evaluate_comparisons", _c)
        input:
            **FILES.per_condition("per_topic", _c),
            **FILES.per_condition("ranked_grades", _c),
            recall_base=rules.prepare_topics_qrels.output.recall_base,
            design=FILES.design_files(_c),
        output:
            **FILES.per_condition("comparisons", _c),
        log:
            log_of("{collection}/evaluate_comparisons"),
        wildcard_constraints:
            collection=re.escape(_c),
        conda:
            CONDA_ENV
        params:
            **report_params("gains", "gain_profiles", "depth"),
            conditions=STUDY.summary_conditions(_c),
        script:
            "../../scripts/evaluate_comparisons.py"


rule evaluate_difference_bands:
    """The difference figures' paired bootstrap intervals of each query type's mean gain
    minus the baseline's, per rank, for each report model
    (gradedrel.evaluation.comparisons.difference_bands)."""
    input:
        **FILES.per_model("per_topic", STUDY.report_models),
    output:
        **FILES.per_model("difference_bands", STUDY.report_models),
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
