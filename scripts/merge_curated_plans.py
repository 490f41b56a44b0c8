"""Use curated plans where they exist, automatic plans elsewhere."""
import logging

from gradedrel import plans
from gradedrel.core.steps import run_step

log = logging.getLogger("gradedrel")


def main():
    auto = plans.read_plans(snakemake.input.auto)
    curated_path = snakemake.input.get("curated")
    curated = plans.read_plans(curated_path) if curated_path else []
    merged = plans.merge_curated(auto, curated, curated_path)
    log.info("%d plans, %d curated (%s)", len(merged), len(curated), curated_path or "none")
    plans.write_plans(merged, snakemake.output.plans)


run_step(snakemake.log[0], main)
