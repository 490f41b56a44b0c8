"""The ``gradedrel`` command: one subcommand per task.

A subcommand is a *registrar* in :data:`COMMANDS` under its command word: a function
that adds its parser to the subparsers and sets ``handler`` (``args -> int``). Only the
registrar of the command named on the command line runs (all of them for ``--help`` or an
unknown word), so a command does not pay for another's imports (``thesaurus`` loads lxml).

    gradedrel evaluate --qrels qrels.txt --grade-map 1=3,2=3,3=2,4=1,-1=0 \\
        --out results/x SUM/u=runs/SUM-u.run WSYN/e=runs/WSYN-e.run
"""
from __future__ import annotations

import argparse
import errno
import importlib
import json
import os
import re
import sys
from pathlib import Path
from typing import Callable

from gradedrel.core.errors import InputError

Registrar = Callable[[argparse._SubParsersAction], None]


# --- evaluate -------------------------------------------------------------------------------

GRADE_MAP_REMEDY = ("pass --grade-map naming every label of the qrels, "
                    "e.g. --grade-map 1=3,2=3,3=2,4=1,-1=0")


def parse_grade_map(text: str | None):
    """``1=3,2=3,3=2,4=1,-1=0`` or a JSON object → GradeMap (default: levels 0–3 as given)."""
    from gradedrel.collection.grades import GradeMap

    if not text:  # a label the default lacks: the command's option says how to map it
        return GradeMap.from_config({"0": 0, "1": 1, "2": 2, "3": 3}, source="--grade-map",
                                    remedy=f"the default, labels as levels; {GRADE_MAP_REMEDY}")
    text = text.strip()
    if text.startswith("{"):
        try:
            pairs = json.loads(text, object_pairs_hook=list)
        except json.JSONDecodeError as error:
            raise InputError("--grade-map", None, "a JSON object label -> level", str(error)) \
                from None  # text starting with "{" parses to an object (pairs) or not at all
    else:
        pairs = []
        for item in text.split(","):
            label, sep, level = item.partition("=")
            if not sep or not re.fullmatch(r"-?[0-9]+", level.strip()):
                raise InputError("--grade-map", None, "label=level pairs, comma-separated", item)
            pairs.append((label.strip(), int(level)))
    # a label given twice (1 and 01 are one) is refused there: the last would win silently
    return GradeMap.from_config(pairs, source="--grade-map", remedy=GRADE_MAP_REMEDY)


def parse_run_arguments(items: list[str]) -> dict[str, str]:
    """``[LABEL=]PATH`` → {label: path}; the label defaults to the file name without suffix."""
    runs: dict[str, str] = {}
    for item in items:
        label, sep, path = item.partition("=")
        if not sep or Path(item).exists():
            label, path = Path(item).stem, item
        if label in runs:
            raise InputError(item, None, "a distinct label per run", label)
        runs[label] = path
    return runs


BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def one_blas_thread_unless_chosen(environ=os.environ) -> bool:
    """Ask for one BLAS thread when the user has not chosen a number (none of
    :data:`BLAS_THREAD_VARIABLES` set); True when it did. Effective only before NumPy is
    first imported. The command's matrix products are small (the randomisation test's
    signs, the bootstrap's resample counts), and OpenBLAS's idle threads spin: 0.2–0.4 s
    more CPU per evaluation for no shorter wall time (benchmarks/README.md)."""
    if any(name in environ for name in BLAS_THREAD_VARIABLES):
        return False
    environ["OPENBLAS_NUM_THREADS"] = "1"
    return True


def run_evaluate(args: argparse.Namespace) -> int:
    """Run ``gradedrel evaluate``: read the runs and qrels, evaluate, write the TSVs; the exit
    code.
    """
    one_blas_thread_unless_chosen()
    from gradedrel.core.io import file_in_the_way, what_is_in_the_way

    # --out can become a folder: not a file, not under a file, not a link to nothing
    # (checked before any work)
    blocking = file_in_the_way(args.out)
    if blocking is not None:
        raise InputError(blocking, None, "--out: a folder, or a path where one can be made",
                         what_is_in_the_way(blocking))
    from gradedrel.collection.readers import read_qrels, read_qrels_tsv, read_topic_list
    from gradedrel.evaluation.files import evaluate_files
    from gradedrel.evaluation.measures import registry
    from gradedrel.evaluation.settings import Settings, SettingError, located, with_also

    section, standard = {}, []
    if args.config:
        from gradedrel.core.config import load_file

        # the workflow's schema and defaults, for the sections the file has; a misspelled
        # key or a wrong value is one line naming the file, line and key
        config = load_file(args.config)
        section = dict(config.get("evaluation") or {})
        standard = list(config.get("standard_measures") or [])
    # the options that set the evaluation key of their name
    section.update({key: getattr(args, key) for key in ("missing_topics", "depth")
                    if getattr(args, key)})
    if args.no_significance or section.get("significance", {}) is None:
        # no tests (or the config's evaluation.significance: null); --baseline still names
        # the baseline run
        section["significance"], section["significance_tests"] = {}, False
    if args.baseline:
        section.setdefault("significance", {})["baseline_run"] = args.baseline
    if args.standard_measures is not None:
        standard = [m for m in args.standard_measures.split(";") if m.strip()]
    for name in args.measure:  # an unknown name: one error naming the closest registered one
        try:
            registry.parse(name)
        except ValueError as error:
            raise ValueError(f"--measure: {error}") from None
    if args.measure:  # added to the configured measures (None: the paper's grid)
        section["measures"] = list(with_also(section.get("measures"), args.measure))
    try:
        settings = Settings.from_config(section, standard)
    except SettingError as error:  # named by the line of --config that set it
        raise located(error, [args.config] if args.config else []) from None
    # TREC qrels: their label field mapped (default: labels are levels 0-3); a graded TSV:
    # its label column mapped, or without a map its grade column as it is
    grade_map = parse_grade_map(args.grade_map) if args.grade_map else None
    if (args.qrels_format or ("tsv" if args.qrels.endswith(".tsv") else "trec")) == "trec":
        qrels = read_qrels(args.qrels, grade_map or parse_grade_map(None))
    else:
        qrels = read_qrels_tsv(args.qrels, grade_map)
    topics = read_topic_list(args.topics) if args.topics else None
    runs = parse_run_arguments(args.runs)
    tables = evaluate_files(runs, qrels, settings, args.out, topics, qrels_source=args.qrels,
                            bootstrap=args.bootstrap)
    means = tables["means"]
    asked = {str(m) for m in registry.expand(args.measure, settings)} if args.measure else set()
    shown = means[means["measure"].str.startswith("AvP(") | means["measure"].isin(asked)]
    print(shown.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    print(f"wrote {len(tables)} tables to {args.out}")
    if not settings.significance_tests:
        print("significance: not tested (--no-significance or evaluation.significance: null); "
              "the significance_*.tsv files have their columns and no rows")
    return 0


def register_evaluate(subparsers) -> None:
    """Add the ``evaluate`` command and its options to ``subparsers``."""
    parser = subparsers.add_parser(
        "evaluate", help="evaluate TREC runs with the paper's graded measures",
        description="Stratified AvP and P-R per relevance level, J&K CG/DCG/nCG/nDCG curves "
                    "against the ideal, effort and significance, written as tidy TSVs "
                    "(docs/measures.md).")
    parser.add_argument("runs", nargs="+", metavar="[LABEL=]RUN",
                        help="TREC run files, optionally labelled (e.g. WSYN/e=WSYN-e.run)")
    parser.add_argument("--qrels", required=True, help="TREC qrels (or a graded qrels.tsv)")
    parser.add_argument("--qrels-format", choices=["trec", "tsv"],
                        help="default: tsv for *.tsv, else trec")
    parser.add_argument("--grade-map", help="raw label -> level 0-3, e.g. 1=3,2=3,3=2,4=1,-1=0 "
                        "or a JSON object; maps a TREC qrels' label field or a TSV's 'label' "
                        "column (default: TREC labels are levels 0-3, a TSV's 'grade' column "
                        "is used)")
    parser.add_argument("--out", required=True, help="output directory")
    parser.add_argument("--config", help="a YAML config whose 'evaluation' section (and "
                        "'standard_measures') sets the measures")
    parser.add_argument("--topics", help="evaluate only these topics (one qid per line)")
    parser.add_argument("--missing-topics", choices=["zero", "skip"],
                        help="a qrels topic the run lacks: scores zero (default) or is skipped")
    parser.add_argument("--depth", type=int, help="rank to which gain curves run (default 100)")
    parser.add_argument("--baseline", help="label of the run the others are tested against")
    parser.add_argument("--no-significance", action="store_true",
                        help="no significance tests (as config's evaluation.significance: "
                        "null): the significance_*.tsv files are written with their columns "
                        "and no rows, provenance.json records significance_tests: false, and "
                        "SciPy is not loaded")
    parser.add_argument("--bootstrap", action="store_true",
                        help="also write bootstrap_ci.tsv: percentile bootstrap intervals of "
                        "every mean and curve point (the slowest table; the workflow writes it)")
    parser.add_argument("--standard-measures", help="ir_measures measures, ';'-separated "
                        "(e.g. 'nDCG@10;AP(rel=3)')")
    parser.add_argument("--measure", action="append", default=[], metavar="NAME",
                        help="also compute this measure (repeatable): any registered name, "
                        'e.g. "JK_DCG(b=5,profile=\'3\')@20", or a family (AvP, JK_DCG, '
                        "...) over the configured levels, profiles, bases and cutoffs; added "
                        "to the config's evaluation.measures (default: the paper's grid), as its "
                        "evaluation.also is")
    parser.set_defaults(handler=run_evaluate)


# --- compare --------------------------------------------------------------------------------

def run_compare(args: argparse.Namespace) -> int:
    """``gradedrel compare``: evaluate the runs beside the plan set's query types, print the
    table and write every output (exit code 0)."""
    one_blas_thread_unless_chosen()
    from gradedrel.compare.command import compare, printed

    runs = parse_run_arguments(args.runs)
    result = compare(runs, args.against, args.out, args.config)
    print(printed(result))
    return 0


def register_compare(subparsers) -> None:
    """Add the ``compare`` command and its arguments to the parser; without the ``[compare]``
    extra's packages (located, not imported), a ModuleNotFoundError naming the first missing
    (:func:`register` makes the command a stand-in that names the extra)."""
    from gradedrel.core.install import COMPARE_IMPORTS, missing_packages
    from gradedrel.compare.reference import packaged

    missing = missing_packages(COMPARE_IMPORTS)
    if missing:
        raise ModuleNotFoundError(f"No module named {missing[0]!r}", name=missing[0])

    shipped = packaged()
    parser = subparsers.add_parser(
        "compare", help="your runs beside a finished plan set's query types",
        description="Evaluate run files together with the query types of a finished plan "
                    "set (on its topics, with its settings) and write the paper's AvP table "
                    "with the published numbers, each run against the baseline (Holm), the "
                    "CG/DCG figures with the ideal vector and a findings-style summary "
                    "(docs/compare.md).")
    parser.add_argument("runs", nargs="+", metavar="[LABEL=]RUN",
                        help="your TREC run files, optionally labelled (BM25=BM25.run)")
    parser.add_argument("--against", required=True,
                        metavar="{" + ",".join(shipped) + "}|RUNS_DIR",
                        help=f"a shipped reference evaluation ({', '.join(shipped)}: the "
                        "primary plan set's query types, no checkout or workflow run needed; "
                        "docs/compare.md) or a finished plan set's runs: "
                        "results/<collection>/runs/<plan set>/<model>")
    parser.add_argument("--out", help="output directory (default: "
                        "compare/<collection>/<plan set>/<model>)")
    parser.add_argument("--config", action="append", default=[], metavar="FILE",
                        help="a config the workflow ran with, laid over the project's "
                        "config/config.yaml (repeatable, as snakemake --configfile)")
    parser.set_defaults(handler=run_compare)


# --- annotate -------------------------------------------------------------------------------

def run_annotate(args: argparse.Namespace) -> int:
    """``gradedrel annotate``: each run with its ir_metadata record as its header, on
    stdout (one run) or as a file of the same name in ``--out``."""
    from gradedrel.core.io import write_text
    from gradedrel.core.ir_metadata import annotated

    if args.out is None and len(args.runs) > 1:
        raise InputError("--out", None, "a folder for the annotated copies of several runs",
                         f"{len(args.runs)} runs and no --out")
    texts = {Path(run): annotated(run) for run in args.runs}  # every record found first
    if args.out is None:
        sys.stdout.write(next(iter(texts.values())))
        return 0
    names = [run.name for run in texts]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise InputError("--out", None, "runs of distinct file names", f"{repeated[0]} twice")
    for run, text in texts.items():
        target = Path(args.out) / run.name
        if target.resolve() == run.resolve():
            raise InputError(target, None, "--out: a folder other than the run's", "the run")
        write_text(text, target)
    print(f"wrote {len(texts)} annotated run(s) to {args.out}", file=sys.stderr)
    return 0


def register_annotate(subparsers) -> None:
    """Add the ``annotate`` command and its arguments to the parser."""
    parser = subparsers.add_parser(
        "annotate", help="a run with its ir_metadata record as its header (annotated run)",
        description="Write a run file with its ir_metadata record (RUN.ir-metadata.yaml, "
                    "beside it) as its header, the ir_metadata layout that repro_eval's "
                    "MetadataHandler and MetadataAnalyzer read (docs/ir-metadata.md). A run "
                    "already annotated is copied as it is.")
    parser.add_argument("runs", nargs="+", metavar="RUN", help="TREC run files")
    parser.add_argument("--out", metavar="DIR", help="write each annotated run to DIR under "
                        "its own name (default: one run, to stdout)")
    parser.set_defaults(handler=run_annotate)


# --- the command ----------------------------------------------------------------------------

def workflow_command(module: str) -> Registrar:
    """The registrar of a command of the ``[workflow]`` extra: its module's ``add_parser``,
    after importing lxml (else imported only on use), so that on an install without the
    extra the command is a stand-in naming it."""
    def register_command(subparsers) -> None:
        import lxml  # noqa: F401

        importlib.import_module(module).add_parser(subparsers)
    return register_command


#: command word → registrar (``thesaurus lookup``, ``plans check``: the workflow extra's)
COMMANDS: dict[str, Registrar] = {"evaluate": register_evaluate,
                                  "compare": register_compare,
                                  "annotate": register_annotate,
                                  "thesaurus": workflow_command("gradedrel.thesaurus.lookup"),
                                  "plans": workflow_command("gradedrel.plans.check")}
#: the commands that need the ``[compare]`` extra (Matplotlib, ir_datasets); those of
#: :func:`workflow_command` need the ``[workflow]`` extra (lxml, the thesaurus readers), and
#: every other command runs on the package installed without extras
#: (tests/test_setup_base_install.py)
COMPARE_COMMANDS = frozenset({"compare"})


def extra_of(word: str) -> str:
    """The extra that brings what command ``word`` needs (``workflow`` unless it is one of
    :data:`COMPARE_COMMANDS`)."""
    return "compare" if word in COMPARE_COMMANDS else "workflow"


def missing_package(error: ModuleNotFoundError) -> str | None:
    """The package an import lacked, unless it is one of gradedrel's own modules (a bug)."""
    name = (error.name or "").split(".")[0]
    return None if name in ("", "gradedrel") else name


def missing_package_message(word: str, package: str) -> str:
    """The one line saying that ``gradedrel {word}`` needs ``package`` and how to install the
    extra that brings it (:func:`extra_of`, :func:`gradedrel.core.install.extra_command`)."""
    from gradedrel.core.install import extra_command

    return (f"gradedrel {word}: needs the package {package!r}, which this installation "
            f"lacks: {extra_command(extra=extra_of(word))}")


def register(word: str, subparsers) -> None:
    """Run the registrar of ``word``; when its imports are missing, register a stand-in
    that says which extra to install (``--help`` lists every command either way)."""
    try:
        COMMANDS[word](subparsers)
    except ModuleNotFoundError as error:
        package = missing_package(error)
        if package is None:
            raise
        stand_in = subparsers.add_parser(
            word, help=f"(needs the extra gradedrel[{extra_of(word)}])", add_help=False)
        stand_in.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)

        def needs_extra(args) -> int:  # one line naming the package and the extra
            print(missing_package_message(word, package), file=sys.stderr)
            return 1

        stand_in.set_defaults(handler=needs_extra)


class _VersionAction(argparse.Action):
    """``--version``: the version looked up only when asked for (importlib.metadata costs
    ~0.05 s on every command otherwise)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                 help="show program's version number and exit"):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from . import __version__

        print(f"gradedrel {__version__}")  # on stdout, as argparse's own action
        parser.exit()


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The command's parser, with only the subcommand ``argv`` names registered (every one
    when it names none that exists)."""
    # the subcommand named: the first word that is not an option (the top-level options
    # take no value)
    word = next((item for item in (sys.argv[1:] if argv is None else argv)
                 if not item.startswith("-")), None)
    words = [word] if word in COMMANDS else list(COMMANDS)
    from gradedrel.core.helptext import Parser

    parser = Parser(
        prog="gradedrel",
        description="Graded-relevance IR evaluation after Järvelin & Kekäläinen (SIGIR 2000).")
    parser.add_argument("--version", action=_VersionAction)
    parser.add_argument("--verbose", action="store_true",
                        help="on bad input, the full traceback instead of one line")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for each in words:
        register(each, subparsers)
    return parser


#: What to do about an operating-system error, by errno (a full disk, a quota, …).
REMEDY = {errno.ENOSPC: "free space on that device, or write elsewhere (--out)",
          errno.EDQUOT: "free space within your quota, or write elsewhere (--out)",
          errno.EROFS: "write elsewhere (--out)",
          errno.EACCES: "check its permissions, or write elsewhere (--out)"}


def os_error_line(error: OSError, command: str) -> str:
    """One line for an operating-system error: the path it is about (else the command),
    what happened and, where known, what to do (:data:`REMEDY`)."""
    where = error.filename if error.filename is not None else command
    remedy = REMEDY.get(error.errno)
    return f"{where}: {error.strerror or error}" + (f"; {remedy}" if remedy else "")


def main(argv: list[str] | None = None) -> int:
    """The ``gradedrel`` command: parse ``argv`` (default: sys.argv), run it, return its exit code."""
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return 2
    import logging

    from gradedrel.core.steps import stderr_handler

    # for the command's duration, the package's log lines from WARNING up on stderr in the
    # workflow's format; the logger is left as it was found (``main`` may run in a program)
    logger = logging.getLogger("gradedrel")
    log_lines = stderr_handler(level=logging.WARNING)
    logger.addHandler(log_lines)
    try:
        return int(handler(args) or 0)
    except ModuleNotFoundError as error:  # an import inside the command, without its extra
        package = missing_package(error)
        if package is None or args.verbose:
            raise
        print(missing_package_message(args.command, package), file=sys.stderr)
        return 1
    except (ValueError, OSError) as error:  # InputError is a ValueError
        if args.verbose:
            raise
        if isinstance(error, OSError) and not isinstance(error, FileNotFoundError):
            error = os_error_line(error, args.command)
        # one line, the same for every subcommand: "gradedrel: <file>:<line>: expected …"
        print(f"gradedrel: {error}", file=sys.stderr)
        return 1
    finally:
        logger.removeHandler(log_lines)


if __name__ == "__main__":
    sys.exit(main())
