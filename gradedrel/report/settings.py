"""The report's settings: the ``report`` section, plus the facts it shares with the
evaluation, read from the one place each is configured (no duplicate keys)."""
from __future__ import annotations

import functools
import operator
from typing import Mapping

#: Report settings that are the evaluation's: name in the report -> where config holds it.
SHARED = {
    "query_types": ("query_types", "labels"),
    "levels": ("evaluation", "levels"),
    "baseline": ("evaluation", "significance", "baseline_run"),
    "bootstrap": ("evaluation", "bootstrap"),  # with evaluation.seed
    "gains": ("evaluation", "gains"),          # the findings' gain vectors (effort, DCG)
    "gain_profiles": ("evaluation", "profiles"),
    "depth": ("evaluation", "depth"),
}


def report_settings(config: Mapping, *keys: str) -> dict:
    """Only the report settings ``keys`` (so that changing others does not re-run a
    rule): from ``report``, or for the shared ones from the evaluation's keys."""
    out = {}
    for key in keys:
        if key == "bootstrap":  # the difference figures': the evaluation's, with its seed
            out[key] = {**config["evaluation"]["bootstrap"], "seed": config["evaluation"]["seed"]}
        elif key == "baseline" and config["evaluation"].get("significance", {}) is None:
            # no tests (evaluation.significance: null): the evaluation's default baseline
            from gradedrel.evaluation.settings import Settings

            out[key] = Settings.baseline_run
        elif key in SHARED:
            value = functools.reduce(operator.getitem, SHARED[key], config)
            if value is None:
                raise ValueError(f"config: {'.'.join(SHARED[key])} is needed by the report")
            out[key] = value
        else:
            out[key] = config["report"][key]
    return out
