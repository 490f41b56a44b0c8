"""Write the testbed table: topics, recall base per level, mean keys per query type."""
from gradedrel.report import published, evaluation_files as report_io, tables
from gradedrel.core.steps import run_step


def main():
    p, w, out = snakemake.params.report, snakemake.wildcards, snakemake.output
    selected = report_io.read(snakemake.input.selected)
    report_io.check_columns(selected, ["qid", "selected"], snakemake.input.selected)
    topics = selected.loc[selected["selected"].astype(str).str.lower().isin(["true", "1", "yes"]),
                          "qid"].tolist()
    table = tables.testbed_table(report_io.read(snakemake.input.recall_base, "recall_base"),
                                 report_io.read(snakemake.input.statistics, "statistics"),
                                 published.load(snakemake.input.published), p["query_types"],
                                 f"Testbed — {w.collection}, {w.planset} plans, {w.model}", topics=topics)
    table.notes.append(f"Topics selected for the experiment: {len(topics)} of {len(selected)} "
                       "(plans/selected_topics.tsv gives the reason for each exclusion).")
    table.write(out.csv, out.md, out.tex, out.html)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output)
