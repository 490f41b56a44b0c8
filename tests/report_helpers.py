"""Shared builders for the report tests: config, published numbers, paper-like data."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from gradedrel.report import published as published_mod
from gradedrel.queries import query_types

ROOT = Path(__file__).resolve().parent.parent
QTS = list(query_types.LABELS)


def report_config() -> dict:
    """Every report setting, the evaluation's shared ones included (as the rules get them)."""
    from gradedrel.report.settings import SHARED, report_settings

    config = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    return report_settings(config, *config["report"], *SHARED)


def published():
    return published_mod.load(ROOT / "config" / "published" / "jk2000.yaml")


def paper_like_per_topic(pub, n_topics=30, seed=0, invert=False) -> pd.DataFrame:
    """Per-topic AvP whose means are exactly the published means: each topic adds the
    same offset to every type (so the paper's ordering holds on every topic)."""
    rng = np.random.default_rng(seed)
    offsets = rng.uniform(-0.05, 0.05, n_topics)
    offsets -= offsets.mean()
    rows = []
    for level in (1, 2, 3):
        for qt in QTS:
            mean = pub.avp_of(level, qt)
            if invert:   # a world where the baseline wins: mirror around the baseline
                mean = 2 * pub.avp_of(level, "SUM/u") - mean
            for t, off in enumerate(offsets, start=1):
                rows.append((qt, str(t), f"AvP(level={level})", mean + off))
    return pd.DataFrame(rows, columns=["run", "qid", "measure", "value"])


def means_of(per_topic: pd.DataFrame) -> pd.DataFrame:
    return (per_topic.groupby(["run", "measure"], sort=False)["value"]
            .agg(mean="mean", topics="size").reset_index())
