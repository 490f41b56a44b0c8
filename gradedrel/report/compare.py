"""``gradedrel compare``: your run files beside the query types of a finished plan set, in
the paper's tables and figures, without the workflow.

Everything is found from the plan set's runs folder, ``results/<c>/runs/<p>/<model>``
(:func:`locate`): the query types' runs and the settings its evaluation recorded
(``results/<c>/evaluation/<p>/<model>/provenance.json``), the plan set's topics
(``results/<c>/plans/<p>/topics.tsv``), the judgements mapped to levels
(``results/<c>/qrels.tsv``), and from the project's config (``config/config.yaml`` beside
``results/``, with the files the workflow ran with laid over it) the study design
(``collections.<c>.design``), the published numbers (``report.published``) and the report's
figure settings. Your runs and the query types' are evaluated together by the one
evaluation code path (:func:`gradedrel.evaluation.files.evaluate_files`) on the plan set's
topics with the recorded settings; the tables and figures are the report's
(:func:`.tables.avp_table`, :func:`.tables.significance_table`, :func:`.figures.gain_figure`);
the summary's rows are the findings' comparison rows (:func:`.assessment._row`: bootstrap
interval and randomisation test) with the design's pre-registered constants. Everything is
checked before anything is written; the output folder appears whole or not at all
(:func:`gradedrel.core.io.atomic_folder`). docs/compare.md describes the command.
"""
from __future__ import annotations

import contextlib
import json
import logging
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Mapping, Sequence

import pandas as pd

from gradedrel.core.errors import InputError
from gradedrel.evaluation.settings import Settings

if TYPE_CHECKING:
    from gradedrel.report.reference import Reference

log = logging.getLogger("gradedrel")

PROJECT_CONFIG = "config/config.yaml"
DEFAULT_DESIGN = "config/design/jk2000.yaml"      # as gradedrel.study.CollectionStudy.design
HOW = "run the workflow first (make reproduce, or snakemake with your config)"
LABEL = re.compile(r"[^\s\x00-\x1f\x7f]+")


def _missing(path: Path, what: str, hint: str = "") -> FileNotFoundError:
    """One line: the file, what it is, how to make it."""
    return FileNotFoundError(f"{path}: no {what}{hint}; {HOW}")


# --- what a finished plan set holds ---------------------------------------------------------

def plan_set_paths(results: str | Path, c: str, p: str, m: str) -> dict[str, Path]:
    """The files of a finished plan set that a comparison reads, where the workflow writes
    them (:class:`gradedrel.study.Layout`; a test checks they are the same paths: the
    Layout's module imports the plans' and thesaurus readers, which this command needs not)."""
    root = Path(results) / c
    return {"runs": root / "runs" / p / m,
            "evaluation": root / "evaluation" / p / m,
            "provenance": root / "evaluation" / p / m / "provenance.json",
            "means": root / "evaluation" / p / m / "means.tsv",
            "topics": root / "plans" / p / "topics.tsv",
            "qrels": root / "qrels.tsv"}


def merge_config(base: dict, overlay: Mapping) -> dict:
    """``overlay`` laid over ``base`` key by key, as Snakemake merges ``--configfile``s."""
    out = dict(base)
    for key, value in overlay.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = merge_config(dict(out[key]), value)
        else:
            out[key] = value
    return out


def read_config(paths: Sequence[Path]) -> dict:
    """The configs ``paths`` merged in order, then validated with the schema's defaults
    filled, as the workflow's config (:mod:`gradedrel.core.config`; a missing, malformed
    or invalid file: one line naming the file and line that set the value)."""
    from gradedrel.core.config import read_file, validate

    config: dict = {}
    for path in paths:
        config = merge_config(config, read_file(path)[0])
    return dict(validate(config, " + ".join(map(str, paths)), files=paths))


@dataclass(frozen=True)
class PlanSetRuns:
    """A finished plan set of one model: what a comparison reads, found and checked."""

    against: Path
    collection: str
    plan_set: str
    model: str
    root: Path                      # the project: results/ and config/ beside each other
    runs: Mapping[str, Path | None]  # query type -> run file, as the evaluation labelled them
    topics: Path
    qrels: Path | None               # None: a reference's, read through ir_datasets
    evaluation: Path                # the finished evaluation's folder
    settings: Settings
    design: Path
    published: Path
    report: Mapping = field(default_factory=dict)   # the config's report section
    reference: "Reference | None" = None            # a shipped evaluation, not runs

    @property
    def where(self) -> str:
        """Collection, plan set and model, as a caption says them."""
        return f"{self.collection}, {self.plan_set} plans, {self.model}"


def _resolve(root: Path, path: str) -> Path:
    """A path named in config: relative to the project, else to the package's own project
    files (:func:`gradedrel.core.project.project_file`)."""
    from gradedrel.core.project import project_file

    here = root / path
    return here if here.exists() or Path(path).is_absolute() else project_file(path)


def study_files(config: Mapping, collection: str, root: Path,
                named_in: Path) -> tuple[dict, Path, Path]:
    """The config's report section, and the study design and published numbers it names for
    ``collection`` (relative to ``root``, else the package's own files: :func:`_resolve`);
    a missing one is one line naming the config file (``named_in``)."""
    report = dict(config.get("report") or {})
    collection_config = (config.get("collections") or {}).get(collection) or {}
    design = _resolve(root, collection_config.get("design", DEFAULT_DESIGN))
    published = _resolve(root, report.get("published", "config/published/jk2000.yaml"))
    for path, what in ((design, "study design"), (published, "published numbers")):
        if not path.exists():
            raise FileNotFoundError(f"{path}: no {what} (named in {named_in} or --config)")
    return report, design, published


def locate(against: str | Path, configs: Sequence[str | Path] = ()) -> PlanSetRuns:
    """The finished plan set whose runs are in ``against`` (``results/<c>/runs/<p>/<model>``)
    and the project around it; a missing piece is one line saying what it is and how to
    make it. ``configs`` are laid over the project's ``config/config.yaml`` as the
    workflow's ``--configfile`` (only the design, published numbers and report settings
    are read from them)."""
    from gradedrel.report.reference import find

    reference = find(against)
    if reference is not None:
        return locate_reference(reference, configs)
    against = Path(against)
    if not against.is_dir():
        found = ""
        runs_dir = against.parent.parent
        if runs_dir.name == "runs" and runs_dir.is_dir():
            done = sorted(f"{p.name}/{m.name}" for p in runs_dir.iterdir() if p.is_dir()
                          for m in p.iterdir() if m.is_dir())
            found = f" (finished here: {', '.join(done) or 'none'})"
        raise _missing(against, "such folder: expected a finished plan set's runs, "
                       "results/<collection>/runs/<plan set>/<model>, or a reference "
                       f"evaluation ({', '.join(packaged_references()) or 'none installed'})",
                       found)
    against = against.resolve()
    if against.parent.parent.name != "runs":
        raise InputError(against, None, "a plan set's runs folder, "
                         "results/<collection>/runs/<plan set>/<model>",
                         "/".join(against.parts[-3:]))
    model, plan_set, collection = against.name, against.parent.name, against.parents[2].name
    results = against.parents[3]
    paths = plan_set_paths(results, collection, plan_set, model)
    record_path = paths["provenance"]
    if not record_path.exists():
        raise _missing(record_path, "evaluation of this plan set")
    try:
        record = json.loads(record_path.read_text(encoding="utf-8"))
        settings = Settings.from_record(record["config"]["evaluation"], str(record_path))
        recorded = record["runs"]
    except (json.JSONDecodeError, KeyError, TypeError) as error:
        raise InputError(record_path, None, "an evaluation's provenance record with "
                         "config.evaluation and runs", repr(error)) from None
    runs = {}
    for label, entry in recorded.items():
        path = against / Path(entry["path"]).name
        if not path.exists():
            raise _missing(path, f"run of {label}")
        runs[label] = path
    for name in ("topics", "qrels"):
        if not paths[name].exists():
            raise _missing(paths[name], "plan set's topics" if name == "topics"
                           else "judgements mapped to levels")
    root = results.parent
    config_files = [_resolve(root, PROJECT_CONFIG)]
    config = read_config(config_files + [Path(c) for c in configs])
    # the query types in the config's order (the record's is alphabetical), then any other
    order = list((config.get("query_types") or {}).get("labels") or [])
    runs = {label: runs[label] for label in [*[q for q in order if q in runs],
                                             *[q for q in runs if q not in order]]}
    report, design, published = study_files(config, collection, root, config_files[0])
    if settings.baseline_run not in runs:
        raise InputError(record_path, None, f"the baseline {settings.baseline_run!r} among "
                         "the evaluated runs", sorted(runs))
    return PlanSetRuns(against, collection, plan_set, model, root, runs, paths["topics"],
                       paths["qrels"], paths["evaluation"], settings, design, published, report)


def packaged_references() -> list[str]:
    """The reference evaluations shipped with the package, by name."""
    from gradedrel.report.reference import packaged

    return packaged()


def locate_reference(reference: "Reference", configs: Sequence[str | Path] = ()) -> PlanSetRuns:
    """A reference evaluation (:mod:`.reference`) as the finished plan set a comparison
    reads: the settings its evaluation recorded; the design, published numbers and report
    settings from the package's project files (the config files the reference names, with
    ``configs`` laid over them)."""
    from gradedrel.core.project import project_file, project_root

    record_path = reference.folder / "provenance.json"
    try:
        record = json.loads(record_path.read_text(encoding="utf-8"))
        settings = Settings.from_record(record["config"]["evaluation"], str(record_path))
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as error:
        raise InputError(record_path, None, "an evaluation's provenance record with "
                         "config.evaluation", repr(error)) from None
    config_files = [project_file(f) for f in reference.manifest["config_files"]]
    config = read_config(config_files + [Path(c) for c in configs])
    report, design, published = study_files(config, reference.collection, project_root(),
                                            config_files[0])
    manifest = reference.manifest
    return PlanSetRuns(reference.folder, reference.collection, manifest["plan_set"],
                       manifest["model"], project_root(),
                       {label: None for label in reference.query_types},
                       reference.folder / "topics.tsv", None, reference.folder, settings,
                       design, published, report, reference)


def stale_runs(finished: PlanSetRuns) -> list[str]:
    """The query types whose run file is not the one the evaluation read (its sha256); none
    for a reference (it ships no runs)."""
    from gradedrel.core.io import sha256_of

    if finished.reference is not None:
        return []
    record = json.loads((finished.evaluation / "provenance.json").read_text(encoding="utf-8"))
    return [label for label, entry in record["runs"].items()
            if entry.get("sha256") and sha256_of(finished.runs[label]) != entry["sha256"]]


# --- your runs ------------------------------------------------------------------------------

def check_labels(runs: Mapping[str, str | Path], query_types: Sequence[str]) -> None:
    """A label must be one word and not a query type's: the label names a row of every
    table and a line of every figure."""
    for label, path in runs.items():
        if not LABEL.fullmatch(label):
            raise InputError(path, None, "a run label without spaces or control characters "
                             "(LABEL=RUN)", label)
        if label in query_types:
            raise InputError(path, None, "a run label that is not one of the plan set's "
                             f"query types {list(query_types)}", label)


def check_run_files(runs: Mapping[str, str | Path]) -> None:
    """Each run file is there (the first absent one: one line naming it)."""
    for label, path in runs.items():
        if not Path(path).is_file():
            raise FileNotFoundError(f"{path}: no such run file (of {label}: a TREC run, "
                                    "'qid Q0 docno rank score tag' per line)")


@dataclass(frozen=True)
class Coverage:
    """How a run's topics meet the plan set's: ranked, missing, outside."""
    label: str
    ranked: int        # plan-set topics the run ranks documents for
    missing: int       # plan-set topics it does not rank (they score as missing_topics says)
    outside: int       # run topics that are not the plan set's (left out)


def coverage(label: str, path: str | Path, run_topics: Sequence[str], topics: Sequence[str],
             topics_file: str | Path, missing_topics: str) -> Coverage:
    """The run's topics against the plan set's; a run on none of them is one line."""
    mine, theirs = set(map(str, run_topics)), set(map(str, topics))
    ranked = len(mine & theirs)
    if ranked == 0:
        shown = ", ".join(sorted(mine)[:3]) + (", ..." if len(mine) > 3 else "")
        raise InputError(path, None, f"a run on the plan set's topics ({len(theirs)} in "
                         f"{topics_file}, e.g. {', '.join(list(topics)[:3])})",
                         f"none of its {len(mine)} topics ({shown})")
    result = Coverage(label, ranked, len(theirs - mine), len(mine - theirs))
    if result.missing:
        effect = "score zero" if missing_topics == "zero" else "are left out of its means"
        log.warning("%s: %d of the plan set's %d topics are not in the run and %s "
                    "(evaluation.missing_topics: %s)", path, result.missing, len(theirs),
                    effect, missing_topics)
    return result


@contextlib.contextmanager
def topic_warnings_left_out():
    """The evaluation's warnings of each run's topics left out while it runs: the query
    types' runs are the plan set's own, and each run of yours has its :class:`Coverage`
    line (printed) and warning (:func:`coverage`)."""
    from gradedrel.evaluation.evaluate import TOPIC_WARNINGS

    def keep(record: logging.LogRecord) -> bool:
        return record.msg not in TOPIC_WARNINGS

    log.addFilter(keep)
    try:
        yield
    finally:
        log.removeFilter(keep)


# --- the tables -----------------------------------------------------------------------------

YOURS = "your run"


def avp_with_runs(means: pd.DataFrame, published, query_types: Sequence[str],
                  runs: Sequence[str], levels: Sequence[int], title: str):
    """The report's AvP table (:func:`.tables.avp_table`: level × u/e rows, ours, the paper's
    and the difference per structure) with a row per level and run of yours after the
    level's rows: the run's label in 'exp.', its AvP (%) in the column 'your run'."""
    from gradedrel.evaluation.measures.avp import AvP
    from gradedrel.report.tables import LEVEL_NAMES, avp_table, mean_of

    table = avp_table(means, published, query_types, levels, title)
    frame = table.frame
    position = list(frame.columns).index("topics")
    frame.insert(position, YOURS, math.nan)
    rows = []
    for level in sorted(levels):
        name = f"{level} {LEVEL_NAMES[level]}"
        rows += [r for r in frame.to_dict("records") if r["level"] == name]
        for run in runs:
            value, topics = mean_of(means, run, str(AvP(level=level)))
            rows.append({"level": name, "exp.": run, YOURS: 100 * value, "topics": str(topics)})
    table.frame = pd.DataFrame(rows, columns=frame.columns)
    table.digits = dict(table.digits, **{YOURS: 1})
    table.notes.append(f"Rows named after a run are yours: its AvP (%) in '{YOURS}' (the "
                       "paper has no value for it).")
    return table


def significance_with_runs(vs_baseline: pd.DataFrame, report: Mapping, settings: Settings,
                           n_tested: int, title: str):
    """Every run against the baseline, the evaluation's table (paired t and randomisation,
    p adjusted by the evaluation's correction over the runs tested at each measure), as the
    report shows it."""
    from gradedrel.report.tables import significance_table

    column = (report.get("significance_columns") or {}).get("vs_baseline",
                                                             "randomisation_p_adjusted")
    table = significance_table(vs_baseline, title, column, float(report.get("alpha", 0.05)))
    table.notes.append(f"Adjusted ({settings.correction}) over the {n_tested} runs tested "
                       f"against {settings.baseline_run} at each measure, yours included: the "
                       "query types' adjusted p-values are not the workflow's, which adjusts "
                       "over the query types alone.")
    return table


SUMMARY_COLUMNS = ["comparison", "measure", "requests", "effect", "low", "high", "confidence",
                   "p_value", "paper", "paper_comparison"]


def best_expanded_strong(means: pd.DataFrame, candidates: Sequence[str], level: int) -> str:
    """The expanded strong query type with the highest mean AvP at ``level`` here (ties: the
    first named)."""
    from gradedrel.evaluation.measures.avp import AvP
    from gradedrel.report.tables import mean_of

    if not candidates:
        raise ValueError("config: report.expanded_strong: no expanded strong query type "
                         "among the plan set's runs")
    values = [mean_of(means, q, str(AvP(level=level)))[0] for q in candidates]
    return candidates[max(range(len(values)), key=lambda i: (values[i], -i))]


def summary(per_topic: pd.DataFrame, runs: Sequence[str], baseline: str, best: str,
            level: int, published, constants) -> pd.DataFrame:
    """Findings-style rows at ``level``: the plan set's best expanded strong type against the
    baseline (the paper's finding 2), then each of your runs against the baseline and
    against that type. Each row is the findings report's comparison row
    (:func:`.assessment._row`: mean paired difference in AvP points over the requests where
    all have a value, its percentile bootstrap interval and the paired randomisation test,
    with the design's resamples, trials and seed); 'paper' = the paper's value of the same
    difference where it ran both (for a run of yours against the baseline: the paper's best
    type against it, the effect to beat)."""
    from gradedrel.evaluation.measures.avp import AvP
    from gradedrel.report.assessment import _row, avp_matrix

    matrix = avp_matrix(per_topic, level, [baseline, best, *runs])
    paper_gain = 100 * (published.avp_of(level, best) - published.avp_of(level, baseline))
    pairs = [(best, baseline, paper_gain, f"{best} - {baseline}")]
    for run in runs:
        pairs += [(run, baseline, paper_gain, f"{best} - {baseline}"),
                  (run, best, math.nan, "")]
    rows = []
    for first, second, paper, paper_comparison in pairs:
        row = _row(2, "", f"{first} - {second}", str(AvP(level=level)), matrix[first],
                   matrix[second], math.nan, constants, False)
        rows.append((row["comparison"], row["measure"], row["requests"], row["estimate"],
                     row["low"], row["high"], row["confidence"], row["p_value"],
                     round(paper, 6), paper_comparison if not math.isnan(paper) else ""))
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def summary_table(frame: pd.DataFrame, title: str, constants):
    """The summary rows as a report Table (effects in AvP points, the paper's value named)."""
    from gradedrel.report.tables import Table

    shown = frame.rename(columns={"effect": "effect (points)", "p_value": "randomisation p",
                                  "paper": "paper (points)", "paper_comparison": "paper's"})
    shown = shown.drop(columns=["confidence"])
    notes = [f"AvP points over the requests where every run has a value; interval: 95 % "
             f"paired percentile bootstrap ({constants.resamples} resamples), p: two-sided "
             f"paired randomisation test ({constants.trials} trials), seed {constants.seed} "
             "(the study design's constants, as the findings report uses them). 'paper': the "
             "published value of the difference named in \"paper's\" (for your run against "
             "the baseline, the paper's best type against it); '–' where the paper has none."]
    digits = {"effect (points)": 1, "low": 1, "high": 1, "paper (points)": 1,
              "randomisation p": -1}
    return Table(shown.reset_index(drop=True), title, notes, digits)


# --- the figures ----------------------------------------------------------------------------

def gain_curves_to_draw(report: Mapping) -> list:
    """The report's curves (:func:`gradedrel.evaluation.measures.jk.curve`) that have an
    ideal vector to be read against: CG and DCG, not their normalised forms."""
    from gradedrel.evaluation.measures import jk

    names = report.get("curves") or ["JK_CG", "JK_DCG(b=2)", "JK_DCG(b=10)"]
    curves = [jk.curve(name, "report.curves") for name in names]
    return [c for c in curves if not c.NORMALISED]


def draw(gain_curves: pd.DataFrame, report: Mapping, query_types: Sequence[str],
         runs: Sequence[str], where: str, out_dir: Path) -> list[Path]:
    """The report's CG and DCG figures (mean vectors with the ideal, a panel per gain
    profile) with your runs drawn beside the query types, each in a style of its own."""
    from gradedrel.report import figures

    style = dict(report["figures"])
    style["style"] = figures.with_runs(style["style"], runs)
    written = []
    for curve in gain_curves_to_draw(report):
        fig = figures.gain_figure(gain_curves, curve, report["profiles"],
                                  [*query_types, *runs], style,
                                  f"{curve.label(long=True)} — {where}")
        png, pdf = (out_dir / f"{curve.figure_name}.{ext}" for ext in ("png", "pdf"))
        figures.save(fig, str(png), str(pdf), style["dpi"])
        written += [png, pdf]
    return written


# --- the command ----------------------------------------------------------------------------

def default_out(against: str | Path) -> Path:
    """``compare/<collection>/<plan set>/<model>`` (in the working directory) for
    ``results/<collection>/runs/<plan set>/<model>`` or a reference evaluation."""
    from gradedrel.report.reference import find

    reference = find(against)
    if reference is not None:
        manifest = reference.manifest
        return Path("compare", reference.collection, manifest["plan_set"], manifest["model"])
    parts = Path(against).resolve().parts
    return Path("compare", parts[-4], parts[-2], parts[-1])


@dataclass
class Comparison:
    """What :func:`compare` computed and wrote."""
    finished: PlanSetRuns
    runs: list[str]
    coverage: list[Coverage]
    means: pd.DataFrame
    vs_baseline: pd.DataFrame
    summary: pd.DataFrame
    best: str
    level: int
    topics: int
    out_dir: Path
    written: list[Path]


def compare(runs: Mapping[str, str | Path], against: str | Path, out_dir: str | Path,
            configs: Sequence[str | Path] = ()) -> Comparison:
    """Evaluate ``runs`` (label -> run file) with the query types of the finished plan set
    in ``against`` and write the tables, figures and summary to ``out_dir``: every input is
    read and checked first, then all is written into a folder beside it that becomes
    ``out_dir`` only when complete (:func:`gradedrel.core.io.atomic_folder`)."""
    from gradedrel.collection.readers import read_qrels_tsv
    from gradedrel.core.io import atomic_folder, read_tsv
    from gradedrel.evaluation.files import read_runs
    from gradedrel.report import design as design_model
    from gradedrel.report import published as published_model

    finished = locate(against, configs)
    query_types = list(finished.runs)
    check_labels(runs, query_types)
    check_run_files(runs)
    stale = stale_runs(finished)
    if stale:
        raise InputError(finished.evaluation / "provenance.json", None,
                         f"the run files it evaluated; {HOW}",
                         f"changed since: {', '.join(stale)}")
    out_dir = Path(out_dir)
    check_out(out_dir)
    settings = finished.settings
    design = design_model.load(finished.design)
    published = published_model.load(finished.published)
    topics = read_tsv(finished.topics)["qid"].tolist()
    qrels = read_qrels_tsv(finished.qrels) if finished.reference is None else \
        finished.reference.judgements(topics)
    ranked = read_runs(runs)    # checked before anything is written
    covered = [coverage(label, runs[label], list(run.topics), topics, finished.topics,
                        settings.missing_topics) for label, run in ranked.items()]
    with atomic_folder(out_dir) as staging:
        result = write_comparison(finished, runs, covered, qrels, topics, design, published,
                                  staging)
    result.written = [out_dir / path.relative_to(staging) for path in result.written]
    result.out_dir = out_dir
    return result


def check_out(out_dir: Path) -> None:
    """``--out`` is replaced whole: it must be new, empty, or an earlier comparison's."""
    if not out_dir.exists():
        return
    record = out_dir / "provenance.json"
    if out_dir.is_dir() and not any(out_dir.iterdir()):
        return
    try:
        earlier = json.loads(record.read_text(encoding="utf-8")).get("step") == "compare"
    except (OSError, ValueError, AttributeError):
        earlier = False
    if not earlier:
        raise InputError(out_dir, None, "an --out folder that is new, empty or an earlier "
                         "comparison's (it is replaced whole)",
                         "a file" if not out_dir.is_dir() else "other files")


def write_comparison(finished: PlanSetRuns, runs: Mapping[str, str | Path],
                     covered: list[Coverage], qrels: pd.DataFrame, topics: list[str],
                     design, published, out_dir: Path) -> Comparison:
    """Evaluate and write every output of a comparison into ``out_dir`` (the inputs
    checked)."""
    from gradedrel.core import provenance
    from gradedrel.core.io import sha256_of, write_text
    from gradedrel.evaluation.files import evaluate_files

    settings = finished.settings
    query_types = list(finished.runs)
    labels = list(runs)
    with topic_warnings_left_out():     # said once per run of yours (:func:`coverage`)
        if finished.reference is None:
            tables = evaluate_files({**finished.runs, **runs}, qrels, settings,
                                    out_dir / "evaluation", topics,
                                    qrels_source=str(finished.qrels), bootstrap=False)
        else:
            tables = finished.reference.evaluate_beside(runs, qrels, settings,
                                                        out_dir / "evaluation", topics)
    means = tables["means"]
    if finished.reference is None:
        check_against_workflow(means, finished, query_types)
    level = max(settings.levels)
    strong = [q for q in finished.report.get("expanded_strong", []) if q in query_types]
    best = best_expanded_strong(means, strong, level)
    where = finished.where
    written = list(sorted((out_dir / "evaluation").iterdir()))
    paper_tables = {
        "avp": avp_with_runs(means, published, query_types, labels, settings.levels,
                             f"Stratified AvP (%) per relevance level — {where}, with "
                             f"{', '.join(labels)}"),
        "significance": significance_with_runs(
            tables["significance_vs_baseline"], finished.report, settings,
            len(query_types) + len(labels) - 1,
            f"Each run against {settings.baseline_run} — {where}"),
    }
    rows = summary(tables["per_topic"], labels, settings.baseline_run, best, level, published,
                   design.constants)
    paper_tables["summary"] = summary_table(
        rows, f"Your runs against {settings.baseline_run} and {best} at level {level} — "
              f"{where}", design.constants)
    for name, table in paper_tables.items():
        paths = [out_dir / f"{name}.{ext}" for ext in ("csv", "md", "tex")]
        table.write(*map(str, paths))
        written += paths
    figures = draw(tables["gain_curves"], finished.report, query_types, labels,
                   f"{where}, with {', '.join(labels)}", out_dir)
    written += figures
    page = out_dir / "compare.md"
    write_text(page_markdown(paper_tables, figures, out_dir), page)
    record = out_dir / "provenance.json"
    write_text(provenance.record(
        "compare", {"evaluation": json.loads(
            (finished.evaluation / "provenance.json").read_text())["config"]["evaluation"]},
        against=str(finished.against),
        inputs={name: {"path": str(path), "sha256": sha256_of(path)} for name, path in
                (("topics", finished.topics), ("qrels", finished.qrels),
                 ("design", finished.design), ("published", finished.published))
                if path is not None},
        **({"reference": dict(finished.reference.manifest)} if finished.reference else {}),
        runs={label: {"path": str(path), "sha256": sha256_of(path)}
              for label, path in runs.items()}), record)
    written += [page, record]
    return Comparison(finished, labels, covered, means, tables["significance_vs_baseline"],
                      rows, best, level, len(topics), out_dir, written)


def check_against_workflow(means: pd.DataFrame, finished: PlanSetRuns,
                           query_types: Sequence[str]) -> float:
    """The query types' means here against the workflow's evaluation (the same runs, topics,
    judgements and settings give the same numbers): a difference is one warning line."""
    from gradedrel.core.io import read_tsv

    path = finished.evaluation / "means.tsv"
    if not path.exists():
        return math.nan
    theirs = read_tsv(path)
    key = ["run", "measure"]
    joined = means[means["run"].isin(query_types)].merge(theirs, on=key, how="outer",
                                                          suffixes=("", "_workflow"))
    differences = (joined["mean"] - joined["mean_workflow"]).abs()
    both_nan = joined["mean"].isna() & joined["mean_workflow"].isna()
    worst = float(differences[~both_nan].fillna(math.inf).max()) if len(joined) else 0.0
    if worst > 1e-6:
        log.warning("%s: the query types evaluate differently here (largest difference %g): "
                    "its judgements or topics changed after the evaluation; %s", path, worst,
                    HOW)
    return worst


def page_markdown(paper_tables: Mapping, figures: Sequence[Path], out_dir: Path) -> str:
    """The tables and figures on one page (compare.md)."""
    parts = [table.to_markdown() for table in paper_tables.values()]
    parts += [f"![{p.stem}]({p.relative_to(out_dir)})\n" for p in figures
              if p.suffix == ".png"]
    return "\n".join(parts)


def printed(result: Comparison) -> str:
    """What the command prints: AvP per level of every run, the paper's in brackets, each
    run against the baseline at the highest level; the summary lines; the files written."""
    from gradedrel.evaluation.measures.avp import AvP
    from gradedrel.report import published as published_model
    from gradedrel.report.tables import mean_of

    finished, settings = result.finished, result.finished.settings
    published = published_model.load(finished.published)
    baseline, level = settings.baseline_run, result.level
    tested = result.vs_baseline[result.vs_baseline["measure"] == str(AvP(level=level))]
    tested = tested.set_index("run")
    column = (finished.report.get("significance_columns") or {}).get(
        "vs_baseline", "randomisation_p_adjusted")
    header = ["run"] + [f"AvP{lv} (paper)" for lv in settings.levels] + \
        [f"vs {baseline} at {level}", "p (Holm)"]
    lines = []
    for run in [*finished.runs, *result.runs]:
        row = [run]
        for lv in settings.levels:
            value = 100 * mean_of(result.means, run, str(AvP(level=lv)))[0]
            paper = 100 * published.avp_of(lv, run)
            row.append(f"{value:.1f}" + ("" if math.isnan(paper) else f" ({paper:.1f})"))
        if run in tested.index:
            row += [f"{100 * tested.loc[run, 'difference']:+.1f}",
                    f"{tested.loc[run, column]:.3g}"]
        else:
            row += ["", ""]
        lines.append(row)
    widths = [max(len(r[i]) for r in [header, *lines]) for i in range(len(header))]
    text = [f"AvP (%) on the {result.topics} topics of {finished.where} (topics.tsv); "
            f"{settings.correction} over {len(tested)} runs tested against {baseline}"]
    for row in [header, *lines]:
        text.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                              for i, (c, w) in enumerate(zip(row, widths))).rstrip())
    for cov in result.coverage:
        outside = (f"; {cov.outside} other topic{'s' if cov.outside > 1 else ''} of the "
                   "run left out (not the plan set's)") if cov.outside else ""
        missing = (f"; {cov.missing} not ranked (they score zero)" if cov.missing and
                   settings.missing_topics == "zero" else
                   f"; {cov.missing} not ranked (left out of its means)" if cov.missing else "")
        text.append(f"{cov.label}: ranks {cov.ranked} of the {result.topics} "
                    f"topics{missing}{outside}")
    for row in result.summary.itertuples():
        paper = f"; paper {row.paper_comparison}: {row.paper:+.1f}" \
            if row.paper_comparison else ""
        text.append(f"{row.comparison}, level {level}: {row.effect:+.1f} points "
                    f"[{row.low:+.1f}, {row.high:+.1f}], randomisation p = {row.p_value:.3g}"
                    f"{paper}")
    out = result.out_dir
    text.append(f"wrote {len(result.written)} files to {out}:")
    groups: dict[str, list[str]] = {}
    for path in result.written:
        relative = Path(path).relative_to(out)
        folder = str(relative.parent) if str(relative.parent) != "." else ""
        groups.setdefault(folder, []).append(relative.name)
    for folder, names_ in groups.items():
        text.append(f"  {folder + '/' if folder else ''}{' '.join(names_)}")
    return "\n".join(text)
