"""Write a plan set's findings reports, one per report model: the paper's tables beside the
published numbers, the four findings assessed under the pre-registered rules (verdict tables
and the report in Markdown and HTML) and the reproduction measures. One job for all the
plan set's models: the published numbers and the design read once."""
import logging
import os

from gradedrel.core.io import read_tsv, write_text
from gradedrel.job import per_model_pages, run_step
from gradedrel.report import evaluation_files as report_io
from gradedrel.report import assessment, design, published, reproducibility, tables
from gradedrel.report import markdown as report_md
from gradedrel.report.html import markdown_to_html

log = logging.getLogger("gradedrel")

#: The evaluation's comparisons.tsv: its columns of names (the numbers read exactly).
NUMBERS_TEXT = ("part", "comparison", "measure", "test_of_record")
SIGNIFICANCE = {"friedman": "Friedman test per relevance level",
                "posthoc": "Post-hoc pairwise comparisons",
                "vs_baseline": "Each query type against the baseline"}


def write_table(table, name, out):
    table.write(out[f"{name}/csv"], out[f"{name}/md"], out[f"{name}/tex"], out[f"{name}/html"])


def paper_tables(p, inp, out, pub, means, where):
    """The tables of the paper's layout and the evaluation's tests."""
    write_table(tables.avp_table(means, pub, p["query_types"], p["levels"],
                                 f"Stratified AvP (%) per relevance level — {where}"), "avp", out)
    selected = report_io.read(inp.selected)
    report_io.check_columns(selected, ["qid", "selected"], inp.selected)
    topics = selected.loc[selected["selected"].astype(str).str.lower().isin(["true", "1", "yes"]),
                          "qid"].tolist()
    testbed = tables.testbed_table(report_io.read(inp.recall_base, "recall_base"),
                                   report_io.read(inp.statistics, "statistics"), pub,
                                   p["query_types"], f"Testbed — {where}", topics=topics)
    testbed.notes.append(f"Topics selected for the experiment: {len(topics)} of {len(selected)} "
                         "(plans/selected_topics.tsv gives the reason for each exclusion).")
    write_table(testbed, "testbed", out)
    write_table(tables.effort_table(report_io.read(inp.effort, "effort"), pub, p["query_types"],
                                    p["expanded_strong"], f"Effort to reach the ideal gain — {where}"),
                "effort", out)
    write_table(tables.measures_table(means, p["query_types"], f"Every measure — {where}"),
                "standard_measures", out)
    # config read here, not a param: whether the evaluation ran its tests changes only a note
    tested = snakemake.config["evaluation"].get("significance", {}) is not None
    for test, title in SIGNIFICANCE.items():
        write_table(tables.significance_table(report_io.read(inp[test]), f"{title} — {where}",
                                              p["significance_columns"][test], p["alpha"],
                                              tested),
                    f"significance_{test}", out)


class OfModel:
    """A job's named files as one model's: ``of.means`` is ``files["means/BM25"]``; a name
    the job has once (``selected``, ``design``) is the job's."""

    def __init__(self, files, model):
        self._files, self._model = files, model

    def __getitem__(self, name):
        keyed = f"{name}/{self._model}"
        return self._files[keyed] if keyed in self._files.keys() else self._files[name]

    __getattr__ = __getitem__


def main():
    pub = published.load(snakemake.input.published)
    plan_design = design.load(snakemake.input.design[0])
    for model in snakemake.params.models:
        log.info("%s: findings", model)
        write_findings(model, OfModel(snakemake.input, model), OfModel(snakemake.output, model),
                       pub, plan_design)


def write_findings(model, inp, out, pub, plan_design):
    """One model's tables, assessment and findings report."""
    p, w = snakemake.params.report, snakemake.wildcards
    means = report_io.read(inp.means, "means")
    title = f"{w.collection}, {w.planset} plans"
    where = f"{title}, {model}"
    paper_tables(p, inp, out, pub, means, where)
    comparisons = read_tsv(inp.comparisons, NUMBERS_TEXT, exact_floats=True)
    report_io.check_columns(comparisons, report_io.COLUMNS["comparisons"], inp.comparisons)
    comparisons, verdicts = assessment.assess_files(
        comparisons, report_io.read(inp.effort, "effort"),
        report_io.read(inp.gain_curves, "gain_curves"), pub, plan_design)
    assessment.write_assessment(comparisons, verdicts, out.verdicts, out.findings, out.primary)
    paper = {(lv, q): pub.avp_of(lv, q) for lv in p["levels"] for q in p["query_types"]}
    repro = report_md.reproduction_table(
        reproducibility.reproduction_table(assessment.avp_means(means, p["levels"], p["query_types"]),
                                           paper, p["baseline"], p["query_types"], p["levels"]),
        f"Reproduction measures against {p['baseline']} — {title}, {model}")
    write_table(repro, "reproduction", out)
    avp = tables.avp_table(means, pub, p["query_types"], p["levels"],
                           f"Stratified AvP (%) — {title}, {model}")
    here = os.path.dirname(out.md)
    links = {k: os.path.relpath(v, here) for k, v in snakemake.params.links[model].items()}
    setting = dict(snakemake.params.setting, engine=snakemake.params.engine[model])
    text = report_md.findings_markdown(title, model, comparisons, verdicts, repro, avp, pub,
                                       setting, links)
    write_text(text, out.md)
    write_text(markdown_to_html(text, f"Findings — {title}, {model}"), out.html)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output,
         per_model_pages(snakemake.wildcards),
         config=snakemake.config)
