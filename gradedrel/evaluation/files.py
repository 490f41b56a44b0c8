"""Evaluation files: run files in, the contract's tables out (``write_tables``), with
provenance — the one code path behind ``gradedrel evaluate`` and the workflow's rule."""
from __future__ import annotations

import logging
import math
from dataclasses import asdict
from pathlib import Path
from typing import Mapping

import pandas as pd

from gradedrel.core.io import sha256_of, write_text, write_tsv
from gradedrel.core.params import plain
from gradedrel.core.streams import is_regular_file
from gradedrel.evaluation.contract import SIGNIFICANCE_TABLES, TABLES
from gradedrel.evaluation.evaluate import evaluate, evaluate_runs
from gradedrel.evaluation.measures.judgements import Judgements
from gradedrel.evaluation.settings import Settings
from gradedrel.evaluation.tables import RunResult, significance_tables, tidy_tables
from gradedrel.retrieval.runs import RankedRun, read_run


def write_tables(tables: Mapping[str, pd.DataFrame], out_dir: str | Path) -> None:
    """Write every table of the contract that was computed as ``<name>.tsv``
    (deterministic float format)."""
    for name in (n for n in TABLES if n in tables):
        fmt = "%.6g" if name in SIGNIFICANCE_TABLES else "%.6f"
        write_tsv(tables[name], Path(out_dir) / f"{name}.tsv", float_format=fmt)


def read_runs(paths: Mapping[str, str | Path]) -> dict[str, RankedRun]:
    """Read and rank every run file (label → path), strictly (see :func:`runs.read_run`)."""
    return {label: read_run(path) for label, path in paths.items()}


def evaluate_files(run_paths: Mapping[str, str | Path], qrels: pd.DataFrame,
                   settings: Settings, out_dir: str | Path, topics: list[str] | None = None,
                   qrels_source: str = "<qrels>", bootstrap: bool = True,
                   data: list[dict] | None = None) -> dict[str, pd.DataFrame]:
    """Read runs, evaluate them against graded qrels, write every table and provenance.json:
    the one code path behind ``gradedrel evaluate`` and the workflow's evaluation rule."""
    from gradedrel.core import ir_metadata

    judgements = Judgements.from_qrels(qrels, topics, source=qrels_source)
    if judgements.n_topics == 0:
        raise ValueError(f"{qrels_source}: no topics to evaluate")
    runs = read_runs(run_paths)
    if topics is None:
        warn_if_most_topics_unranked(judgements, runs, settings)
    tables = evaluate(runs, judgements, settings, bootstrap=bootstrap)
    _write(tables, settings, run_paths, out_dir, topics=judgements.n_topics,
           source=ir_metadata.source(), qrels=digested(qrels_source),
           **({"data": data} if data is not None else {}))
    return tables


def evaluate_beside(shipped: Mapping[str, pd.DataFrame], query_types: list[str],
                    run_paths: Mapping[str, str | Path], qrels: pd.DataFrame,
                    settings: Settings, out_dir: str | Path, topics: list[str],
                    qrels_source: str, reference: Mapping) -> dict[str, pd.DataFrame]:
    """Evaluate ``run_paths`` (label -> run file) beside the query types of a shipped
    evaluation (``shipped``: its tables by name, per-topic values at full precision; a
    reference, :mod:`gradedrel.compare.reference`): means, per-topic values, gain curves and
    coverage are the shipped rows then yours; the significance tables test every run. Every
    table and a provenance record (``reference``: what was shipped) are written to
    ``out_dir``."""
    judgements = Judgements.from_qrels(qrels, list(topics), source=qrels_source)
    yours = evaluate_runs(read_runs(run_paths), judgements, settings)
    tables = tidy_tables(yours, judgements)
    per_topic, topic_ids = shipped["per_topic"], [str(q) for q in judgements.topics]
    tested = settings.default_significance_measures()
    theirs = []
    for label in query_types:
        values = per_topic[per_topic["run"] == label].pivot(
            index="qid", columns="measure", values="value").reindex(index=topic_ids,
                                                                    columns=tested)
        theirs.append(RunResult(label, {m: values[m].to_numpy(dtype=float) for m in tested},
                                [], {}, [], [], {}, [], {}, []))
    for name in shipped:
        tables[name] = pd.concat([shipped[name], tables[name]], ignore_index=True)
    tables.update(significance_tables([*theirs, *yours], judgements, settings))
    _write(tables, settings, run_paths, out_dir, reference=dict(reference),
           topics=judgements.n_topics)
    return tables


def _write(tables: Mapping[str, pd.DataFrame], settings: Settings,
           run_paths: Mapping[str, str | Path], out_dir: str | Path, **record) -> None:
    """Write ``tables`` (:func:`write_tables`) and provenance.json: the settings as an
    evaluation records them (``config.evaluation``; :meth:`Settings.from_record` reads them
    back: every field, ``measures`` left out when it is the default grid, what the other
    settings spell out, ``significance_tests`` only when the tests were off: ``false``;
    absent, as before the switch existed: on), the runs (:func:`digested`) and ``record``."""
    from gradedrel.core import provenance

    write_tables(tables, out_dir)
    left_out = {"measures": None, "significance_tests": True}
    recorded = {k: v for k, v in asdict(settings).items()
                if k not in left_out or v is not left_out[k]}
    runs = {label: digested(path) for label, path in run_paths.items()}
    write_text(provenance.record("evaluate", {"evaluation": plain(recorded)}, runs=runs, **record),
               Path(out_dir) / "provenance.json")


#: Two evaluations of the same runs agree when no mean differs by more than this.
SAME_MEANS = 1e-6


def largest_difference(means: pd.DataFrame, other: pd.DataFrame) -> float:
    """The largest difference between two means.tsv tables' means of the same (run,
    measure), in one NaN rule: both NaN (undefined in both) agree; a value against NaN, or
    a row in one table only, is an infinite difference."""
    joined = means.merge(other, on=["run", "measure"], how="outer", suffixes=("", "_other"))
    differences = (joined["mean"] - joined["mean_other"]).abs()
    both_nan = joined["mean"].isna() & joined["mean_other"].isna()
    return float(differences[~both_nan].fillna(math.inf).max()) if (~both_nan).any() else 0.0


def digested(path: str | Path) -> dict:
    """An input as provenance records it: its path, and its sha256 when it is a regular
    file (a pipe or ``-`` was read once, and cannot be read again for a digest)."""
    if is_regular_file(path):
        return {"path": str(path), "sha256": sha256_of(path)}
    return {"path": str(path)}


def warn_if_most_topics_unranked(judgements: Judgements, runs: Mapping[str, RankedRun],
                                 settings: Settings) -> None:
    """One line when most qrels topics are in none of the runs (their zeros would swamp
    the means), saying how to restrict the evaluation."""
    ranked = set().union(*(run.topics for run in runs.values()))
    absent = sum(topic not in ranked for topic in judgements.topics)
    if absent * 2 > judgements.n_topics:
        effect = ("score zero on every measure" if settings.missing_topics == "zero"
                  else "are left out of the means")
        logging.getLogger("gradedrel").warning(
            "%d of %d qrels topics are in none of the runs and %s; to evaluate only the "
            "topics the runs answer, pass --topics FILE (their ids, one per line)",
            absent, judgements.n_topics, effect)


