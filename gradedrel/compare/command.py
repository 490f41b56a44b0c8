"""``gradedrel compare``: your run files beside the query types of a finished plan set (or a
reference evaluation, :mod:`.reference`), in the paper's tables and figures, without the
workflow (docs/compare.md).

:func:`locate` finds the plan set and the project around it. Your runs and the query types'
are evaluated together by the one evaluation code path
(:func:`gradedrel.evaluation.files.evaluate_files`); the tables and figures are the report's;
the summary's rows are the evaluation's paired comparisons, as the findings' are
(:func:`gradedrel.evaluation.comparisons.pairs_table`). Everything is
checked before anything is written, and the output folder appears whole or not at all
(:func:`gradedrel.core.io.atomic_folder`).
"""
from __future__ import annotations

import contextlib
import itertools
import json
import logging
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

import pandas as pd

from gradedrel.collection.readers import read_qrels_tsv
from gradedrel.compare.reference import MANIFEST, TABLES, Reference, closest, find, packaged
from gradedrel.core import provenance
from gradedrel.core.config import merge, read_file, validate
from gradedrel.core.errors import InputError
from gradedrel.core.io import atomic_folder, read_tsv, sha256_of, write_text
from gradedrel.core.project import CONFIG, project_file, project_root
from gradedrel.evaluation.comparisons import pairs_table
from gradedrel.evaluation.evaluate import TOPIC_WARNINGS
from gradedrel.evaluation.files import (SAME_MEANS, digested, evaluate_beside, evaluate_files,
                                        largest_difference, read_runs)
from gradedrel.evaluation.measures import jk
from gradedrel.evaluation.measures.avp import AvP
from gradedrel.evaluation.settings import Settings
from gradedrel.report import design as design_model, published as published_model
from gradedrel.report.tables import LEVEL_NAMES, Table, avp_table, mean_of, significance_table
from gradedrel.study import Layout   # where the workflow wrote a plan set's files

log = logging.getLogger("gradedrel")

DEFAULT_DESIGN = "config/design/jk2000.yaml"      # as gradedrel.study.CollectionStudy.design
HOW = "run the workflow first (make reproduce, or snakemake with your config)"
LABEL = re.compile(r"[^\s\x00-\x1f\x7f]+")


def _missing(path: Path, what: str, hint: str = "") -> FileNotFoundError:
    """One line: the file, what it is, how to make it."""
    return FileNotFoundError(f"{path}: no {what}{hint}; {HOW}")


# --- what a finished plan set holds ---------------------------------------------------------

def read_config(paths: Sequence[Path]) -> dict:
    """The configs ``paths`` layered in order as Snakemake layers ``--configfile``s, then
    validated with the schema's defaults filled, as the workflow's config
    (:mod:`gradedrel.core.config`; a missing, malformed or invalid file: one line naming the
    file and line that set the value)."""
    config: dict = {}
    for path in paths:
        merge(config, read_file(path))
    return dict(validate(config, " + ".join(map(str, paths)), files=paths))


@dataclass(frozen=True)
class PlanSetRuns:
    """A finished plan set of one model: what a comparison reads, found and checked."""

    against: Path
    collection: str
    plan_set: str
    model: str
    runs: Mapping[str, Path | None]  # query type -> run file, as the evaluation labelled them
    topics: Path
    qrels: Path | None               # None: a reference's, read through ir_datasets
    evaluation: Path                # the finished evaluation's folder
    record: Mapping                 # its provenance.json
    settings: Settings
    design: Path
    published: Path
    report: Mapping                 # the config's report section
    reference: Reference | None = None              # a shipped evaluation, not runs

    @property
    def where(self) -> str:
        """Collection, plan set and model, as a caption says them."""
        return f"{self.collection}, {self.plan_set} plans, {self.model}"

    @property
    def default_out(self) -> Path:
        """``compare/<collection>/<plan set>/<model>`` (in the working directory): where a
        comparison is written without ``--out``."""
        return Path("compare", self.collection, self.plan_set, self.model)


def _resolve(root: Path, path: str) -> Path:
    """A path named in config: relative to the project, else to the package's own project
    files (:func:`gradedrel.core.project.project_file`)."""
    here = root / path
    return here if here.exists() or Path(path).is_absolute() else project_file(path)


def _recorded(path: Path) -> tuple[dict, Settings]:
    """An evaluation's provenance record and the settings it recorded (read back as the same
    :class:`Settings`); one line if it is not one or lacks its runs."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        record["runs"]
        return record, Settings.from_record(record["config"]["evaluation"], str(path))
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as error:
        raise InputError(path, None, "an evaluation's provenance record with config.evaluation"
                         " and runs", repr(error)) from None


def _study(collection: str, root: Path, config_files: list[Path], configs: Sequence) -> tuple:
    """The config (``configs`` laid over ``config_files``), its query types' order, its
    report section, and the study design and published numbers it names for
    ``collection`` (relative to ``root``, else the package's own files); a missing one is
    one line naming the first config file."""
    config = read_config(config_files + [Path(c) for c in configs])   # schema defaults filled
    report = config["report"]
    design = _resolve(root, config["collections"].get(collection, {}).get("design",
                                                                          DEFAULT_DESIGN))
    published = _resolve(root, report["published"])
    for path, what in ((design, "study design"), (published, "published numbers")):
        if not path.exists():
            raise FileNotFoundError(f"{path}: no {what} (named in {config_files[0]} or "
                                    "--config)")
    return config["query_types"]["labels"], report, design, published


def locate(against: str | Path, configs: Sequence[str | Path] = ()) -> PlanSetRuns:
    """The finished plan set whose runs are in ``against`` (``results/<c>/runs/<p>/<model>``,
    or a reference evaluation's name or folder: :func:`.reference.find`) and the project
    around it; a missing piece is one line saying what it is and how to make it.
    ``configs`` are laid over the project's ``config/config.yaml`` (a reference's: the
    config files it names) as the workflow's ``--configfile`` (only the design, published
    numbers and report settings are read from them)."""
    reference = find(against)
    if reference is not None:
        manifest = reference.manifest
        record, settings = _recorded(reference.folder / "provenance.json")
        config_files = [project_file(f) for f in manifest["config_files"]]
        _, report, design, published = _study(reference.collection, project_root(),
                                              config_files, configs)
        return PlanSetRuns(reference.folder, reference.collection, manifest["plan_set"],
                           manifest["model"], dict.fromkeys(reference.query_types),
                           reference.folder / "topics.tsv", None, reference.folder, record,
                           settings, design, published, report, reference)
    against = Path(against)
    if not against.exists() and "/" not in str(against) and (close := closest(str(against))):
        raise FileNotFoundError(f"{against}: no such reference evaluation or folder; did you "
                                f"mean {close!r}? (shipped references: {', '.join(packaged())})")
    if not against.is_dir():
        found = ""
        runs_dir = against.parent.parent
        if runs_dir.name == "runs" and runs_dir.is_dir():
            done = sorted(f"{p.name}/{m.name}" for p in runs_dir.iterdir() if p.is_dir()
                          for m in p.iterdir() if m.is_dir())
            found = f" (finished here: {', '.join(done) or 'none'})"
        raise _missing(against, "such folder: expected a finished plan set's runs, "
                       "results/<collection>/runs/<plan set>/<model>, or a reference "
                       f"evaluation ({', '.join(packaged()) or 'none installed'})", found)
    against = against.resolve()
    if against.parent.parent.name != "runs":
        raise InputError(against, None, "a plan set's runs folder, "
                         "results/<collection>/runs/<plan set>/<model>",
                         "/".join(against.parts[-3:]))
    model, plan_set, collection = against.name, against.parent.name, against.parents[2].name

    layout = Layout(results=str(against.parents[3]))
    evaluation = Path(layout.evaluation("", collection, plan_set, model))
    paths = {"provenance": evaluation / "provenance.json",
             "topics": Path(layout.plan_set("topics.tsv", collection, plan_set)),
             "qrels": Path(layout.collection("qrels.tsv", collection))}
    if not paths["provenance"].exists():
        raise _missing(paths["provenance"], "evaluation of this plan set")
    record, settings = _recorded(paths["provenance"])
    runs = {}
    for label, entry in record["runs"].items():
        runs[label] = against / Path(entry["path"]).name
        if not runs[label].exists():
            raise _missing(runs[label], f"run of {label}")
    for name, what in (("topics", "plan set's topics"), ("qrels", "judgements mapped to levels")):
        if not paths[name].exists():
            raise _missing(paths[name], what)
    root = against.parents[4]
    order, report, design, published = _study(collection, root,
                                              [_resolve(root, CONFIG)], configs)
    # the query types in the config's order (the record's is alphabetical), then any other
    runs = dict(sorted(runs.items(), key=lambda run: order.index(run[0]) if run[0] in order
                       else len(order)))
    if settings.baseline_run not in runs:
        raise InputError(paths["provenance"], None, f"the baseline {settings.baseline_run!r} "
                         "among the evaluated runs", sorted(runs))
    return PlanSetRuns(against, collection, plan_set, model, runs, paths["topics"],
                       paths["qrels"], evaluation, record, settings, design, published, report)


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
    table = avp_table(means, published, query_types, levels, title)
    frame = table.frame
    frame.insert(list(frame.columns).index("topics"), YOURS, math.nan)
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


SUMMARY_COLUMNS = ["comparison", "measure", "requests", "effect", "low", "high", "confidence",
                   "p_value", "paper", "paper_comparison"]


def best_expanded_strong(means: pd.DataFrame, candidates: Sequence[str], level: int) -> str:
    """The expanded strong query type with the highest mean AvP at ``level`` here (ties: the
    first named)."""
    if not candidates:
        raise ValueError("config: report.expanded_strong: no expanded strong query type "
                         "among the plan set's runs")
    return max(candidates, key=lambda q: mean_of(means, q, str(AvP(level=level)))[0])


def summary(per_topic: pd.DataFrame, runs: Sequence[str], baseline: str, best: str,
            level: int, published, constants) -> pd.DataFrame:
    """Findings-style rows at ``level``: the plan set's best expanded strong type against the
    baseline (the paper's finding 2), then each of your runs against the baseline and
    against that type. Each row is the findings report's comparison row
    (the evaluation's, :func:`gradedrel.evaluation.comparisons.pairs_table`: mean paired
    difference in AvP points over the requests where all have a value, its percentile
    bootstrap interval and the paired randomisation test, with the design's resamples,
    trials and seed); 'paper' = the paper's value of the same
    difference where it ran both (for a run of yours against the baseline: the paper's best
    type against it, the effect to beat)."""
    paper_gain = 100 * (published.avp_of(level, best) - published.avp_of(level, baseline))
    pairs = [(best, baseline, paper_gain, f"{best} - {baseline}")]
    for run in runs:
        pairs += [(run, baseline, paper_gain, f"{best} - {baseline}"),
                  (run, best, math.nan, "")]
    rows = pairs_table(per_topic, str(AvP(level=level)), [p[:2] for p in pairs], constants)
    rows["paper"] = [round(paper, 6) for _, _, paper, _ in pairs]
    rows["paper_comparison"] = [named if not math.isnan(paper) else ""
                                for _, _, paper, named in pairs]
    return rows.rename(columns={"estimate": "effect"})[SUMMARY_COLUMNS]


def summary_table(frame: pd.DataFrame, title: str, constants):
    """The summary rows as a report Table (effects in AvP points, the paper's value named)."""

    shown = frame.rename(columns={"effect": "effect (points)", "p_value": "randomisation p",
                                  "paper": "paper (points)", "paper_comparison": "paper's"})
    notes = [f"AvP points over the requests where every run has a value; interval: 95 % "
             f"paired percentile bootstrap ({constants.resamples} resamples), p: two-sided "
             f"paired randomisation test ({constants.trials} trials), seed {constants.seed} "
             "(the study design's constants, as the findings report uses them). 'paper': the "
             "published value of the difference named in \"paper's\" (for your run against "
             "the baseline, the paper's best type against it); '–' where the paper has none."]
    digits = {"effect (points)": 1, "low": 1, "high": 1, "paper (points)": 1,
              "randomisation p": -1}
    return Table(shown.drop(columns=["confidence"]).reset_index(drop=True), title, notes,
                 digits)


def draw(gain_curves: pd.DataFrame, report: Mapping, query_types: Sequence[str],
         runs: Sequence[str], where: str, out_dir: Path) -> list[Path]:
    """The report's CG and DCG figures (:func:`.figures.gain_figure`: mean vectors with the
    ideal, a panel per gain profile; not the normalised forms, which have no ideal vector to
    be read against) with your runs drawn beside the query types, each in a style of its
    own."""
    from gradedrel.report import figures

    style = dict(report["figures"], style=figures.with_runs(report["figures"]["style"], runs))
    written = []
    for name in report.get("curves") or ["JK_CG", "JK_DCG(b=2)", "JK_DCG(b=10)"]:
        curve = jk.curve(name, "report.curves")
        if curve.NORMALISED:
            continue
        fig = figures.gain_figure(gain_curves, curve, report["profiles"],
                                  [*query_types, *runs], style,
                                  f"{curve.label(long=True)} — {where}")
        png, pdf = (out_dir / f"{curve.figure_name}.{ext}" for ext in ("png", "pdf"))
        figures.save(fig, str(png), str(pdf), style["dpi"])
        written += [png, pdf]
    return written


# --- the command ----------------------------------------------------------------------------

@dataclass
class Comparison:
    """What :func:`compare` computed and wrote."""
    finished: PlanSetRuns
    published: object              # the paper's numbers (:class:`.published.Published`)
    runs: list[str]
    coverage: list[Coverage]
    means: pd.DataFrame
    vs_baseline: pd.DataFrame
    summary: pd.DataFrame
    level: int
    topics: int
    out_dir: Path
    written: list[Path]


def compare(runs: Mapping[str, str | Path], against: str | Path, out_dir: str | Path | None,
            configs: Sequence[str | Path] = ()) -> Comparison:
    """Evaluate ``runs`` (label -> run file) with the query types of the finished plan set
    in ``against`` and write the tables, figures and summary to ``out_dir`` (None: the plan
    set's :attr:`PlanSetRuns.default_out`): every input is read and checked first, then all
    is written into a folder beside it that becomes ``out_dir`` only when complete
    (:func:`gradedrel.core.io.atomic_folder`)."""
    finished = locate(against, configs)
    check_labels(runs, list(finished.runs))
    check_run_files(runs)
    # the query types whose run file is not the one the evaluation read (a reference has none)
    stale = [label for label, entry in finished.record["runs"].items() if entry.get("sha256")
             and finished.runs.get(label) and sha256_of(finished.runs[label]) != entry["sha256"]]
    if stale:
        raise InputError(finished.evaluation / "provenance.json", None,
                         f"the run files it evaluated; {HOW}",
                         f"changed since: {', '.join(stale)}")
    out_dir = Path(out_dir) if out_dir else finished.default_out
    check_out(out_dir)
    design = design_model.load(finished.design)
    published = published_model.load(finished.published)
    topics = read_tsv(finished.topics)["qid"].tolist()
    qrels = read_qrels_tsv(finished.qrels) if finished.reference is None else \
        finished.reference.judgements(topics)
    ranked = read_runs(runs)    # checked before anything is written
    covered = [coverage(label, runs[label], list(run.topics), topics, finished.topics,
                        finished.settings.missing_topics) for label, run in ranked.items()]
    with atomic_folder(out_dir) as staging:
        result = write_comparison(finished, runs, covered, qrels, topics, design, published,
                                  staging)
    result.written = [out_dir / path.relative_to(staging) for path in result.written]
    result.out_dir = out_dir
    return result


def check_out(out_dir: Path) -> None:
    """``--out`` is replaced whole: it must be new, empty, or an earlier comparison's."""
    if not out_dir.exists() or out_dir.is_dir() and not any(out_dir.iterdir()):
        return
    with contextlib.suppress(OSError, ValueError, AttributeError):
        if json.loads((out_dir / "provenance.json").read_text(encoding="utf-8")).get(
                "step") == "compare":
            return
    raise InputError(out_dir, None, "an --out folder that is new, empty or an earlier "
                     "comparison's (it is replaced whole)",
                     "a file" if not out_dir.is_dir() else "other files")


def write_comparison(finished: PlanSetRuns, runs: Mapping[str, str | Path],
                     covered: list[Coverage], qrels: pd.DataFrame, topics: list[str],
                     design, published, out_dir: Path) -> Comparison:
    """Evaluate and write every output of a comparison into ``out_dir`` (the inputs
    checked)."""
    settings, report, where = finished.settings, finished.report, finished.where
    query_types, labels, shipped = list(finished.runs), list(runs), finished.reference
    with topic_warnings_left_out():     # said once per run of yours (:func:`coverage`)
        if shipped is None:
            tables = evaluate_files({**finished.runs, **runs}, qrels, settings,
                                    out_dir / "evaluation", topics,
                                    qrels_source=str(finished.qrels), bootstrap=False)
            check_against_workflow(tables["means"], finished, query_types)
        else:   # the query types' tables as shipped, at full precision, then yours
            tables = evaluate_beside({name: shipped.table(name) for name in TABLES},
                                     shipped.query_types, runs, qrels, settings,
                                     out_dir / "evaluation", topics,
                                     f"{shipped.folder / MANIFEST} (judgements)",
                                     {"folder": str(shipped.folder), **shipped.manifest})
    means, vs_baseline = tables["means"], tables["significance_vs_baseline"]
    level = max(settings.levels)
    best = best_expanded_strong(means, [q for q in report["expanded_strong"]
                                        if q in query_types], level)
    written = list(sorted((out_dir / "evaluation").iterdir()))
    significance = significance_table(
        vs_baseline, f"Each run against {settings.baseline_run} — {where}",
        report["significance_columns"]["vs_baseline"], float(report["alpha"]),
        tested=settings.significance_tests)
    if settings.significance_tests:
        significance.notes.append(
            f"Adjusted ({settings.correction}) over the {len(query_types) + len(labels) - 1} "
            f"runs tested against {settings.baseline_run} at each measure, yours included: the "
            "query types' adjusted p-values are not the workflow's, which adjusts over the "
            "query types alone.")
    rows = summary(tables["per_topic"], labels, settings.baseline_run, best, level, published,
                   design.constants)
    paper_tables = {
        "avp": avp_with_runs(means, published, query_types, labels, settings.levels,
                             f"Stratified AvP (%) per relevance level — {where}, with "
                             f"{', '.join(labels)}"),
        "significance": significance,
        "summary": summary_table(rows, f"Your runs against {settings.baseline_run} and {best} "
                                       f"at level {level} — {where}", design.constants)}
    for name, table in paper_tables.items():
        paths = [out_dir / f"{name}.{ext}" for ext in ("csv", "md", "tex")]
        table.write(*map(str, paths))
        written += paths
    figures = draw(tables["gain_curves"], report, query_types, labels,
                   f"{where}, with {', '.join(labels)}", out_dir)
    page, record = out_dir / "compare.md", out_dir / "provenance.json"
    write_text("\n".join([*(table.to_markdown() for table in paper_tables.values()),
                          *(f"![{p.stem}]({p.relative_to(out_dir)})\n" for p in figures
                            if p.suffix == ".png")]), page)
    inputs = {"topics": finished.topics, "qrels": finished.qrels, "design": finished.design,
              "published": finished.published}
    write_text(provenance.record(
        "compare", {"evaluation": finished.record["config"]["evaluation"]},
        against=str(finished.against),
        inputs={name: digested(path) for name, path in inputs.items() if path is not None},
        **({"reference": dict(shipped.manifest)} if shipped else {}),
        runs={label: digested(path) for label, path in runs.items()}), record)
    return Comparison(finished, published, labels, covered, means, vs_baseline, rows, level,
                      len(topics), out_dir, [*written, *figures, page, record])


def check_against_workflow(means: pd.DataFrame, finished: PlanSetRuns,
                           query_types: Sequence[str]) -> None:
    """The query types' means here against the workflow's evaluation (the same runs, topics,
    judgements and settings give the same numbers): a difference is one warning line."""
    path = finished.evaluation / "means.tsv"
    if not path.exists():
        return
    worst = largest_difference(means[means["run"].isin(query_types)], read_tsv(path))
    if worst > SAME_MEANS:
        log.warning("%s: the query types evaluate differently here (largest difference %g): "
                    "its judgements or topics changed after the evaluation; %s", path, worst,
                    HOW)


def printed(result: Comparison) -> str:
    """What the command prints: AvP per level of every run, the paper's in brackets, each
    run against the baseline at the highest level; the summary lines; the files written."""
    finished, settings = result.finished, result.finished.settings
    baseline, level = settings.baseline_run, result.level
    tested = result.vs_baseline[result.vs_baseline["measure"] == str(AvP(level=level))]
    tested = tested.set_index("run")
    column = finished.report["significance_columns"]["vs_baseline"]
    header = ["run"] + [f"AvP{lv} (paper)" for lv in settings.levels] + \
        [f"vs {baseline} at {level}", "p (Holm)"]
    lines = []
    for run in [*finished.runs, *result.runs]:
        row = [run]
        for lv in settings.levels:
            value = 100 * mean_of(result.means, run, str(AvP(level=lv)))[0]
            paper = 100 * result.published.avp_of(lv, run)
            row.append(f"{value:.1f}" + ("" if math.isnan(paper) else f" ({paper:.1f})"))
        lines.append(row + ([f"{100 * tested.loc[run, 'difference']:+.1f}",
                             f"{tested.loc[run, column]:.3g}"] if run in tested.index
                            else ["", ""]))
    widths = [max(len(r[i]) for r in [header, *lines]) for i in range(len(header))]
    text = [f"AvP (%) on the {result.topics} topics of {finished.where} (topics.tsv); "
            f"{settings.correction} over {len(tested)} runs tested against {baseline}"]
    for row in [header, *lines]:
        text.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                              for i, (c, w) in enumerate(zip(row, widths))).rstrip())
    for cov in result.coverage:
        outside = (f"; {cov.outside} other topic{'s' if cov.outside > 1 else ''} of the "
                   "run left out (not the plan set's)") if cov.outside else ""
        how = "they score zero" if settings.missing_topics == "zero" else "left out of its means"
        missing = f"; {cov.missing} not ranked ({how})" if cov.missing else ""
        text.append(f"{cov.label}: ranks {cov.ranked} of the {result.topics} "
                    f"topics{missing}{outside}")
    for row in result.summary.itertuples():
        paper = f"; paper {row.paper_comparison}: {row.paper:+.1f}" \
            if row.paper_comparison else ""
        text.append(f"{row.comparison}, level {level}: {row.effect:+.1f} points "
                    f"[{row.low:+.1f}, {row.high:+.1f}], randomisation p = {row.p_value:.3g}"
                    f"{paper}")
    text.append(f"wrote {len(result.written)} files to {result.out_dir}:")
    for folder, paths in itertools.groupby(result.written, lambda p: p.parent):   # in order
        relative = "" if folder == result.out_dir else f"{folder.relative_to(result.out_dir)}/"
        text.append(f"  {relative}{' '.join(p.name for p in paths)}")
    return "\n".join(text)
