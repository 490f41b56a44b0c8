"""One result file (TSV, Markdown, YAML) as an HTML page for the Snakemake report, which
shows only images and HTML inline."""
from pathlib import Path

from gradedrel.core.io import write_text
from gradedrel.core.steps import run_step
from gradedrel.report import html


def main():
    source = snakemake.input.source
    text = Path(source).read_text(encoding="utf-8")
    title = html.page_title(source, snakemake.wildcards)
    write_text(html.page(text, source, title), snakemake.output.html)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output)
