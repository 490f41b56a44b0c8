"""The entry of a workflow job's script: :func:`gradedrel.core.steps.run_step` with the
report's page writer (:func:`gradedrel.report.html.write_page`, imported only by a job that
writes a page), so that ``core`` does not import ``report``."""
from __future__ import annotations

from typing import Callable, Iterable, Mapping

from gradedrel.core import steps
from gradedrel.core.steps import per_model_pages  # noqa: F401  (re-exported for the scripts)


def write_page(output: str, page: str, wildcards: Mapping[str, object] | None) -> None:
    """The report's page of ``output`` at ``page``."""
    from gradedrel.report.html import write_page as report_page

    report_page(output, page, wildcards)


def run_step(log_path: str | None, main: Callable[[], None],
             wildcards: Mapping[str, object] | None = None, outputs: Iterable[str] = (),
             page_wildcards: Callable[[str], Mapping[str, object]] | None = None) -> None:
    """:func:`gradedrel.core.steps.run_step` writing the report's pages."""
    steps.run_step(log_path, main, wildcards, outputs, page_wildcards, write_page)
