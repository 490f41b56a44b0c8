"""One page: each finding's verdict for every plan set and model of a collection."""
import pandas as pd

from gradedrel.core import provenance
from gradedrel.core.io import write_text, write_tsv
from gradedrel.job import run_step
from gradedrel.plans.plan_sets import input_key
from gradedrel.core.io import read_tsv
from gradedrel.report import across, assessment, design, figures
from gradedrel.integrity import headline, key_provenance as kp


def main():
    inp, w = snakemake.input, snakemake.wildcards
    study_design = design.load(inp.design[0])
    rows = []
    for plan_set, model in snakemake.params.conditions:
        comparisons = pd.read_csv(inp[input_key("verdicts", plan_set, model)], sep="\t",
                                  keep_default_na=False, na_values={"low": [""], "high": [""]})
        findings = pd.read_csv(inp[input_key("findings", plan_set, model)], sep="\t",
                               keep_default_na=False)
        rows += assessment.summary_rows(w.collection, plan_set, model, comparisons, findings,
                                        study_design)
    summary = pd.DataFrame(rows, columns=assessment.SUMMARY_COLUMNS)
    write_tsv(summary, snakemake.output.tsv)
    rests = ""
    if snakemake.params.rests_on:
        primary, thesaurus, model = snakemake.params.rests_on
        statement = kp.own_keys_statement(read_tsv(inp.key_sources)) \
            if "key_sources" in inp.keys() else ""
        rests = assessment.rests_on(summary, primary, thesaurus, model, statement)
        leak = headline.leak_note(read_tsv(inp.leak), primary, ("own", "other_concept")) \
            if "leak" in inp.keys() else ""
        if leak:   # Amendment 3, C3: the leak diagnostic's flag beside the rows it concerns
            rests += (f" Leak diagnostic of the {primary} plans' key classes (Amendment 1, A6; "
                      f"a flag, not a verdict; level-3/level-2 selectivity): {leak}.")
    write_text(assessment.summary_markdown(
        summary, f"The four findings, {w.collection}: every plan set and model", rests),
        snakemake.output.md)
    # the forest plot: each finding with one effect, every plan set and model, the paper's
    # value marked
    thesauri = {p: t for p, t in snakemake.params.thesauri}
    frame = summary.assign(thesaurus=[thesauri[p] for p in summary["plan_set"]])
    # the deciding rows marked and drawn first (Amendment 3, C2): the primary condition's by its
    # role in the headline (deciding, the contaminated record, or none on the fresh testbed)
    table = read_tsv(inp.headline) if snakemake.input.get("headline") else None
    mark = headline.primary_mark(table, w.collection) if table is not None else "deciding"
    is_primary = ((frame["plan_set"] == study_design.primary_plan_set)
                  & (frame["model"] == study_design.primary_model))
    frame = frame.assign(mark=[mark if p else "" for p in is_primary])
    if table is not None:   # beside them, the verdicts on the probe's subsets
        primary, _, model = snakemake.params.rests_on
        frame = pd.concat([frame, headline.forest_rows(table, w.collection, model,
                                                       thesauri[primary])],
                          ignore_index=True)
    style = snakemake.params.figures
    figures.save(across.figure(frame, style, findings=[1, 2, 4], paper=True,
                               label_collection=False), snakemake.output.png,
                 snakemake.output.pdf, style["dpi"])
    # the record of the summary and its forest plot (run_step adds their checksums)
    write_text(provenance.record("report_summary", {"figures": style}), snakemake.output.provenance)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
