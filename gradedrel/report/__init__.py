"""Stage "report" (workflow/rules/report.smk): the paper's tables (tables, markdown, html),
figures (figures, across), findings under the study design (design, assessment, verdicts,
reproducibility) against the published numbers (published), the Snakemake report's items
(items), the report's settings (settings) and the evaluation files it reads
(evaluation_files). The integrity annex is its own stage, gradedrel/integrity/."""
