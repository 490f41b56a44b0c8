"""Reference evaluations: the workflow's evaluation of a testbed's primary plan set, shipped
with the package, so that ``gradedrel compare mine=RUN --against cranfield`` works from a
plain install, without a checkout or a workflow run (docs/compare.md).

A reference is a folder (``gradedrel/reference/<collection>/`` in the package, or any folder
:func:`build` wrote) holding what a comparison reads of a finished plan set, taken from the
workflow's results unchanged:

- ``reference.json``: the collection, plan set and model; the query types in the config's
  order; how the judgements are obtained (the collection's judgement settings: ir_datasets
  ids and grade map) and their fingerprint (:func:`judgements_fingerprint`) over the plan
  set's topics; the config files (relative to the project) whose design, published numbers
  and report settings the comparison uses;
- ``provenance.json``: the evaluation's record (its settings are read back as the same
  :class:`~gradedrel.evaluation.settings.Settings`);
- ``topics.tsv``: the plan set's topics;
- ``means.tsv``, ``gain_curves.tsv``, ``coverage.tsv``: the evaluation's tables of the
  query types; ``per_topic.tsv``: their per-topic values of the measures a comparison tests
  (AvP at each level, and the significance measures); at full precision (:func:`build`
  evaluates the runs again), so a comparison against the reference gives the numbers a
  comparison against the finished plan set gives.

The judgements are not shipped: :func:`judgements` reads them through ir_datasets on the
user's machine (as the workflow does) and stops if their fingerprint is not the reference's.
"""
from __future__ import annotations

import contextlib
import difflib
import hashlib
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from gradedrel.core import lazy
from gradedrel.core.errors import InputError

pd = lazy.module("pandas")  # `compare --help` lists the references without it

#: The packaged references (one folder per collection).
PACKAGED = Path(__file__).resolve().parents[1] / "reference"
MANIFEST = "reference.json"
#: The evaluation's tables a reference keeps (per_topic filtered to the tested measures).
TABLES = ("means", "gain_curves", "coverage", "per_topic")
FORMAT = 1
#: Floats as written: enough digits to read back the same double.
PRECISION = "%.17g"


def judgements_fingerprint(qrels: pd.DataFrame, topics: Sequence[str]) -> str:
    """sha256 of the judgements of ``topics`` as ``qid<TAB>docno<TAB>grade`` lines, sorted:
    the same judgements mapped to the same levels give the same fingerprint, whatever the
    file's order or raw labels."""
    wanted = set(map(str, topics))
    rows = sorted(f"{q}\t{d}\t{int(g)}\n" for q, d, g in
                  zip(qrels["qid"].astype(str), qrels["docno"].astype(str), qrels["grade"])
                  if q in wanted)
    return hashlib.sha256("".join(rows).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Reference:
    """A reference evaluation, read and checked."""

    folder: Path
    manifest: Mapping
    collection: str             # the collection's name, as in config
    query_types: list[str]      # the query types evaluated, in the config's order

    def table(self, name: str) -> pd.DataFrame:
        """One of the evaluation's tables (:data:`TABLES`)."""
        from gradedrel.core.io import read_tsv

        return read_tsv(self.folder / f"{name}.tsv", exact_floats=True)

    def judgements(self, topics: Sequence[str]) -> pd.DataFrame:
        """The collection's judgements mapped to levels, read as the workflow reads them
        (ir_datasets, or a local file the reference names), restricted to ``topics``;
        InputError if they are not those the reference was evaluated with."""
        from gradedrel.collection.judgements import load_qrels
        from gradedrel.collection.spec import CollectionSpec

        spec = CollectionSpec.from_config(self.collection, self.manifest["judgements"],
                                          needs=("qrels",))
        through_ir_datasets = bool(spec.ir_datasets_id("qrels"))
        try:
            with _ir_datasets_quiet() if through_ir_datasets else contextlib.nullcontext():
                qrels = load_qrels(spec)
        except ImportError as error:
            raise InputError(self.folder / MANIFEST, None, "ir_datasets installed, to read "
                             f"the judgements of {self.collection}",
                             f"{error}; pip install ir_datasets") from None
        except (RuntimeError, OSError) as error:  # no network, and no copy in its home
            if not through_ir_datasets:
                raise  # a local file's: the command's one line names it
            # one line naming the ir_datasets ids, the folder ir_datasets keeps its copies in
            # and what to do (requests' own message is a paragraph: its type named instead)
            home = os.environ.get("IR_DATASETS_HOME") or "~/.ir_datasets"
            reason = error.args[0] if isinstance(error, RuntimeError) and error.args else \
                type(error).__name__
            raise ValueError(f"{self.collection}: could not read its judgements through "
                             f"ir_datasets ({', '.join(spec.ir_datasets_sources('qrels'))}: "
                             f"{reason}); connect to the network once, or put ir_datasets' "
                             f"copies into IR_DATASETS_HOME ({home})") from None
        found = judgements_fingerprint(qrels, topics)
        if found != self.manifest["judgements_sha256"]:
            where = spec.ir_datasets_id("qrels") or spec.qrels
            raise InputError(self.folder / MANIFEST, None, "the judgements the reference was "
                             f"evaluated with (sha256 {self.manifest['judgements_sha256'][:12]}"
                             f"… over its {len(topics)} topics)",
                             f"other judgements from {where} (sha256 {found[:12]}…)")
        return qrels[qrels["qid"].astype(str).isin(set(map(str, topics)))]


class _ir_datasets_quiet:
    """ir_datasets' own log lines off (up to warnings: each failed download attempt is one),
    so that a failure is the command's one line."""

    def __enter__(self):
        import logging

        self.before = logging.root.manager.disable
        logging.disable(logging.WARNING)

    def __exit__(self, *exc):
        import logging

        logging.disable(self.before)


def find(name_or_folder: str | Path) -> Reference | None:
    """The reference named (a packaged collection's name) or in the folder given (one with a
    ``reference.json``); None when it is neither (a finished plan set's runs folder, say)."""
    folder = Path(name_or_folder)
    if not (folder / MANIFEST).is_file():
        if folder.exists() or "/" in str(name_or_folder):
            return None
        folder = PACKAGED / str(name_or_folder)
        if not (folder / MANIFEST).is_file():
            return None
    path = folder / MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
        if manifest.get("format") != FORMAT:
            raise KeyError(f"format {manifest.get('format')!r}, expected {FORMAT}")
        for key in ("collection", "plan_set", "model", "query_types", "judgements",
                    "judgements_sha256", "config_files"):
            manifest[key]
        return Reference(folder, manifest, manifest["collection"], list(manifest["query_types"]))
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise InputError(path, None, "a reference evaluation's manifest (gradedrel.report."
                         "reference.build)", repr(error)) from None


def closest(name: str) -> str | None:
    """The shipped reference whose name is closest to ``name`` (a typo), or None."""
    close = difflib.get_close_matches(str(name), packaged(), n=1, cutoff=0.6)
    return close[0] if close else None


def packaged() -> list[str]:
    """The names of the references shipped with the package."""
    return sorted(p.name for p in PACKAGED.iterdir() if (p / MANIFEST).is_file()) \
        if PACKAGED.is_dir() else []


def build(evaluation: str | Path, runs: str | Path, topics: str | Path, qrels: str | Path,
          collection: str, judgement_settings: Mapping, query_types: Sequence[str],
          config_files: Sequence[str], out: str | Path) -> Path:
    """Write the reference of a finished evaluation (``results/<c>/evaluation/<p>/<m>``, the
    runs it read in ``runs``, its plan set's ``topics.tsv`` and the collection's
    ``qrels.tsv``) to ``out``, replacing it whole. The runs are evaluated again with the
    recorded settings so that the values are kept at full precision (``%.17g``: a
    comparison against the reference gives the numbers a comparison against the runs
    gives); their means must be the workflow's. ``judgement_settings``: the collection's
    config keys that say where its judgements come from
    (:data:`gradedrel.collection.spec.JUDGEMENT_KEYS`)."""
    from gradedrel.collection.readers import read_qrels_tsv
    from gradedrel.collection.spec import JUDGEMENT_KEYS
    from gradedrel.core.io import atomic_folder, read_tsv, write_text, write_tsv
    from gradedrel.evaluation.evaluate import evaluate
    from gradedrel.evaluation.files import SAME_MEANS, largest_difference, read_runs
    from gradedrel.evaluation.measures.avp import AvP
    from gradedrel.evaluation.measures.judgements import Judgements
    from gradedrel.evaluation.settings import Settings

    evaluation, runs = Path(evaluation), Path(runs)
    record = json.loads((evaluation / "provenance.json").read_text(encoding="utf-8"))
    settings = Settings.from_record(record["config"]["evaluation"])
    plan_topics = read_tsv(topics)[["qid"]]
    ids = plan_topics["qid"].tolist()
    judged = read_qrels_tsv(qrels)
    labels = [q for q in query_types if q in record["runs"]] + \
        sorted(q for q in record["runs"] if q not in query_types)
    tables = evaluate(read_runs({q: runs / Path(record["runs"][q]["path"]).name
                                 for q in labels}),
                      Judgements.from_qrels(judged, ids, source=str(qrels)), settings,
                      bootstrap=False)
    if largest_difference(tables["means"], read_tsv(evaluation / "means.tsv")) > SAME_MEANS:
        raise ValueError(f"{evaluation}: the runs in {runs} do not evaluate to its means.tsv")
    # per-topic values of the measures a comparison tests: AvP at each level and the
    # significance measures
    tested = {str(AvP(level=level)) for level in settings.levels}
    tested.update(settings.default_significance_measures())
    tables["per_topic"] = tables["per_topic"][tables["per_topic"]["measure"].isin(tested)]
    parts = evaluation.resolve().parts
    manifest = {
        "format": FORMAT, "collection": collection, "plan_set": parts[-2], "model": parts[-1],
        "query_types": labels,
        "judgements": {k: v for k, v in judgement_settings.items() if k in JUDGEMENT_KEYS},
        "judgements_sha256": judgements_fingerprint(judged, ids),
        "config_files": list(config_files),
    }
    with atomic_folder(out) as staging:
        write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", staging / MANIFEST)
        shutil.copyfile(evaluation / "provenance.json", staging / "provenance.json")
        write_tsv(plan_topics, staging / "topics.tsv")
        for name in TABLES:
            write_tsv(tables[name], staging / f"{name}.tsv", float_format=PRECISION)
    return Path(out)
