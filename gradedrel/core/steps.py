"""Running one workflow step: its output in its log, timestamps, one clear line on bad input.

The package knows nothing of Snakemake; scripts pass their log path and their job's
wildcards in (``run_step(snakemake.log[0], main, snakemake.wildcards)``).

- **Everything a job prints goes to its log.** File descriptors 1 and 2 are pointed at
  the log file (``os.dup2``), so the JVM's output, warnings and tracebacks land there too.
- **One logging set-up** (:func:`setup_logging`): every line carries a UTC timestamp,
  its level and the job (``[cranfield auto BM25]``), in the log file and, from INFO up, on
  the terminal that started the job (its progress lines, :mod:`gradedrel.core.progress`).
- **Bad input** (:class:`~gradedrel.core.errors.InputError`, ``ValueError``) ends the
  step with one line and exit status 1; any other error writes its traceback to the log
  and one line naming the log to the terminal.
- **A finished job ends at once** (:func:`end_job_process`): once its outputs are written
  and its log is closed, a job's script leaves without the interpreter's and the JVM's
  teardown; code that imports the package or runs a script in-process is not affected.
"""
from __future__ import annotations

import contextlib
import logging
import os
import resource
import sys
import time
import traceback
from typing import Callable, Iterable, Iterator, Mapping, TextIO

#: Wildcards that name what a job works on, in the order they are shown.
CONTEXT_KEYS = ("collection", "thesaurus", "planset", "model", "wmodel", "curve", "test")

log = logging.getLogger("gradedrel")
#: Lines for the log file only (a step's start and end), not the terminal.
FILE_ONLY = "gradedrel.step"


def job_context(wildcards: Mapping[str, object] | None) -> str:
    """``"cranfield auto BM25"``: the values of the job's wildcards in :data:`CONTEXT_KEYS`."""
    if not wildcards:
        return ""
    values = dict(wildcards.items())
    return " ".join(str(values[k]) for k in CONTEXT_KEYS if values.get(k) not in (None, ""))


class _Stderr(logging.StreamHandler):
    """A handler writing to whatever ``sys.stderr`` is when a record comes."""

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value):
        pass


def _formatted(handler: logging.Handler, level: int, context: str) -> logging.Handler:
    job = f"[{context}] " if context else ""

    def named(record: logging.LogRecord) -> bool:  # every line names the job
        record.job = job
        return True

    # the one log format: 2026-11-30T23:50:01Z INFO [cranfield auto BM25] message (UTC)
    formatter = logging.Formatter("%(asctime)s %(levelname)s %(job)s%(message)s",
                                  "%Y-%m-%dT%H:%M:%SZ")
    formatter.converter = time.gmtime
    handler.setLevel(level)
    handler.setFormatter(formatter)
    handler.addFilter(named)
    return handler


def stderr_handler(context: str = "", level: int = logging.INFO) -> logging.Handler:
    """A handler for a command run outside the workflow: the workflow's line format, on
    the current ``sys.stderr``, from ``level`` up."""
    return _formatted(_Stderr(), level, context)


def setup_logging(file: TextIO | None = None, console: TextIO | None = sys.stderr,
                  context: str = "", level: int = logging.INFO) -> None:
    """The package's logging set-up (root logger): every record to ``file`` and, from
    ``level`` up, to ``console``; each line timestamped and naming the job."""
    handlers: list[logging.Handler] = []
    for stream, threshold in ((file, logging.DEBUG), (console, level)):
        if stream is not None:
            handler = _formatted(logging.StreamHandler(stream), threshold, context)
            if stream is console and file is not None:
                handler.addFilter(lambda record: record.name != FILE_ONLY)
            handlers.append(handler)
    logging.basicConfig(level=level, handlers=handlers, force=True)
    logging.captureWarnings(True)


@contextlib.contextmanager
def job_output(log_path: str | os.PathLike | None) -> Iterator[tuple[TextIO, TextIO]]:
    """Point file descriptors 1 and 2 at ``log_path`` (emptied first) for the block, then
    restore them; yields ``(log, console)``: text streams on the log and the former stderr."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    target = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o644)
    saved = {fd: os.dup(fd) for fd in (1, 2)}
    console = os.fdopen(os.dup(saved[2]), "w", buffering=1, encoding="utf-8", errors="replace")
    logfile = os.fdopen(os.dup(target), "w", buffering=1, encoding="utf-8", errors="replace")
    try:
        for fd in (1, 2):
            os.dup2(target, fd)
        # Python's own streams too, where they are not the descriptors (under pytest)
        with contextlib.redirect_stdout(logfile), contextlib.redirect_stderr(logfile):
            yield logfile, console
    finally:
        for stream in (sys.stdout, sys.stderr, logfile, console):
            with contextlib.suppress(Exception):
                stream.flush()
        for fd, copy in saved.items():
            os.dup2(copy, fd)
            os.close(copy)
        os.close(target)
        logfile.close()
        console.close()


def _outputs(outputs: Iterable[str]) -> str:
    return ", ".join(f"{path} ({os.path.getsize(path)} bytes)" if os.path.isfile(path)
                     else str(path) for path in outputs)


@contextlib.contextmanager
def logged(log_path: str | os.PathLike, wildcards: Mapping[str, object] | None = None,
           outputs: Iterable[str] = ()) -> Iterator[None]:
    """For a step inside Snakemake's own process (a ``run:`` rule): the package's log
    records of the block to ``log_path``, ending with the time taken and ``outputs``."""
    handler = _formatted(logging.FileHandler(log_path, mode="w", encoding="utf-8"),
                         logging.NOTSET, job_context(wildcards))
    level, propagate, disabled = log.level, log.propagate, log.disabled
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False  # not into Snakemake's own logging
    log.disabled = False  # Snakemake's logging set-up disables loggers made before it
    start = time.monotonic()
    try:
        yield
        logging.getLogger(FILE_ONLY).info("done in %.1f s; wrote %s", time.monotonic() - start,
                                          _outputs(outputs) or "nothing")
    except Exception as error:
        log.error("%s: %s", type(error).__name__, error)
        raise
    finally:
        log.removeHandler(handler)
        log.setLevel(level)
        log.propagate, log.disabled = propagate, disabled
        handler.close()


#: A rule's output named ``page/<name>`` is the Snakemake report's HTML page of its
#: output ``<name>`` (workflow/rules/common.smk: ``page_of``).
PAGE_PREFIX = "page/"


#: Writes the page of one output: ``(output, page, wildcards)``.
PageWriter = Callable[[str, str, "Mapping[str, object] | None"], None]


def write_pages(outputs, wildcards: Mapping[str, object] | None = None,
                page_wildcards: Callable[[str], Mapping[str, object]] | None = None,
                page_writer: PageWriter | None = None) -> list[str]:
    """After a step: the report page of every output that has one (output ``page/<name>``
    renders output ``<name>``, by ``page_writer``: the report's, given by
    :mod:`gradedrel.job`), so no job exists only to render one. A page's title names the
    job's ``wildcards``, or ``page_wildcards(<name>)`` for outputs per model."""
    names = [k for k in getattr(outputs, "keys", lambda: [])() if k.startswith(PAGE_PREFIX)]
    for name in names:
        source = name[len(PAGE_PREFIX):]
        page_writer(outputs[source], outputs[name],
                   wildcards if page_wildcards is None else page_wildcards(source))
    return [outputs[name] for name in names]


def complete_records(outputs: Iterable[str], pages: Iterable[str] = (),
                     config: Mapping | None = None) -> list[str]:
    """After a step: every provenance record among ``outputs`` rewritten with the sha256 of
    each output file of the job it covers (:func:`gradedrel.core.provenance.coverage`; report
    ``pages`` left out: tools/refresh_report_pages.py rewrites them when their layout
    changes) and the hashes of the workflow's ``config``
    (:func:`gradedrel.core.provenance.completed`); a job that writes a record without
    passing ``config`` is an error. Returns the records."""
    from gradedrel.core import provenance
    from gradedrel.core.io import read_text, write_text

    files = [str(p) for p in outputs if os.path.isfile(p)]
    records = [p for p in files if provenance.is_record(p)]
    if records and config is None:
        raise ValueError(f"{records[0]}: a provenance record, but the job passed no "
                         "config to run_step (config=snakemake.config)")
    left_out = set(records) | {str(p) for p in pages}
    covered = provenance.coverage(records, [p for p in files if p not in left_out])
    for record in records:
        write_text(provenance.completed(read_text(record, "a provenance record"),
                                        covered[record], config), record)
    return records


def per_model_pages(wildcards: Mapping[str, object]) -> Callable[[str], dict]:
    """``page_wildcards`` for a job whose outputs are named per model (``not_ranked/BM25``)
    or per plan set and model (``verdicts/expert/BM25``)."""
    def page_wildcards(name: str) -> dict:
        named = dict(zip(("model", "planset"), reversed(name.split("/")[1:])))
        return {**dict(wildcards.items()), **named}
    return page_wildcards


def process_cpu() -> float:
    """CPU seconds (user + system) of this process and its waited-for children since it
    started (benchmarks read it from the logs)."""
    return sum(usage.ru_utime + usage.ru_stime for usage in map(
        resource.getrusage, (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)))


def run_step(log_path: str | None, main: Callable[[], None],
             wildcards: Mapping[str, object] | None = None,
             outputs: Iterable[str] = (),
             page_wildcards: Callable[[str], Mapping[str, object]] | None = None,
             page_writer: PageWriter | None = None,
             config: Mapping | None = None) -> None:
    """Run ``main`` with its output in ``log_path`` (see the module docstring); exit 1
    with one line on bad input, or after logging an unexpected error's traceback. The log
    ends with the time taken and the ``outputs`` written; pages: :func:`write_pages`;
    provenance records among the outputs: :func:`complete_records` (``config``: the
    workflow's configuration, ``snakemake.config``)."""
    context = job_context(wildcards)
    output = job_output(log_path) if log_path else contextlib.nullcontext((None, sys.stderr))
    failed = False
    step = logging.getLogger(FILE_ONLY)
    with output as (logfile, console):
        setup_logging(logfile, console, context)
        start = time.monotonic()
        step.info("started (process %d)", os.getpid())
        try:
            main()
            pages = write_pages(outputs, wildcards, page_wildcards, page_writer)
            complete_records(outputs, pages, config)
            step.info("done in %.1f s (process CPU %.1f s, since its start); wrote %s",
                      time.monotonic() - start, process_cpu(), _outputs(outputs) or "nothing")
        except ValueError as error:  # InputError is one
            log.error("%s", error)
            failed = True
        except Exception as error:  # noqa: BLE001 - logged in full, then the step fails
            log.error("%s: %s%s", type(error).__name__, error,
                      f" (traceback in {log_path})" if log_path else "")
            if logfile is None:
                raise
            logfile.write(traceback.format_exc())
            failed = True
        finally:
            logging.shutdown()
            logging.basicConfig(handlers=[logging.NullHandler()], force=True)
    if failed:
        sys.exit(1)
    end_job_process()


def end_job_process() -> None:
    """End a finished job's process at once, status 0, without the interpreter's and the
    JVM's teardown (a Cranfield findings job: 2.37 → 2.26 CPU s; ~9 CPU s of 85 jobs), when
    it is a Snakemake job's script run as the main program (not tests, ``runpy``, notebooks
    or ``python -m cProfile``)."""
    main = sys.modules.get("__main__")
    # sys.orig_argv: the interpreter's own command line (``python <file>`` for a job); runpy
    # sets sys.argv[0] to the file it runs, but not that
    if main is not None and "snakemake" in vars(main) and sys.orig_argv[1:2] == [sys.argv[0]]:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)


def share_package(root: str, environ: "os._Environ | dict" = os.environ) -> None:
    """Put the project folder ``root`` first on the jobs' ``PYTHONPATH`` (once), so that
    every job imports the same gradedrel as the workflow (also as a module, or in conda)."""
    rest = [p for p in environ.get("PYTHONPATH", "").split(os.pathsep) if p and p != root]
    environ["PYTHONPATH"] = os.pathsep.join([root, *rest])
