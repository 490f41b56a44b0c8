"""The Snakemake report's landing page: the answer (the qualified headline and what each
verdict rests on, or the verdicts across collections), then the forest plot across
collections at screen resolution (gradedrel.report.items)."""
from pathlib import Path

from gradedrel.job import run_step
from gradedrel.report.items import screen_png, write_landing


def main():
    inp, out, params = snakemake.input, snakemake.output, snakemake.params
    screen_png(inp.figure, out.figure, params.dpi)
    write_landing(Path(inp.answer).read_text(encoding="utf-8"), out.figure,
                  "The findings across collections: a dot is the effect, a bar its 95 % "
                  "interval, the colour the verdict, the dashed line no effect.",
                  [tuple(link) for link in params.links], out.landing)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
