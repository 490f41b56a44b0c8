"""The findings across collections: one table (TSV, Markdown) and one figure."""
import pandas as pd

from gradedrel.core.io import write_text, write_tsv
from gradedrel.core.steps import run_step
from gradedrel.report import across, figures


def main():
    summaries = [pd.read_csv(path, sep="\t", keep_default_na=False,
                             na_values={"low": [""], "high": [""]}, dtype={"effect": str})
                 for path in snakemake.input.summaries]
    thesauri = {(c, p): t for c, p, t in snakemake.params.thesauri}
    frame = across.combine(summaries, thesauri)
    write_tsv(frame, snakemake.output.tsv)
    write_text(across.markdown(frame, "The four findings across collections"),
               snakemake.output.md)
    figures.save(across.figure(frame, snakemake.params.figures), snakemake.output.png,
                 snakemake.output.pdf, snakemake.params.figures["dpi"])


run_step(snakemake.log[0], main)
