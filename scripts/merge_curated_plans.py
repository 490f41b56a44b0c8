"""Use curated plans where they exist, automatic plans elsewhere."""
import logging

from gradedrel import plans
from gradedrel.core.steps import run_step

log = logging.getLogger("gradedrel")


def main():
    auto = plans.read_plans(snakemake.input.auto)
    files = list(snakemake.input.get("curated") or [])
    curated = plans.read_curated(files)
    merged = plans.merge_curated(auto, curated, ", ".join(files) or "<none>")
    log.info("%d plans, %d curated (%s)", len(merged), len(curated), ", ".join(files) or "none")
    plans.write_plans(merged, snakemake.output.plans)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output)
