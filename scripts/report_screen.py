"""Copy figures into the Snakemake report at screen resolution (each output from the input
of the same name; gradedrel.report.items.screen_png)."""
from gradedrel.job import run_step
from gradedrel.report.items import screen_png


def main():
    for name, target in snakemake.output.items():
        screen_png(snakemake.input[name], target, snakemake.params.dpi)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
