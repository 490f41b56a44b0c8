"""The entry of a workflow job's script: :func:`gradedrel.core.steps.run_step` with the
report's page writer (:func:`gradedrel.report.html.write_page`, imported only by a job that
writes a page), so that ``core`` does not import ``report``."""
from __future__ import annotations

from functools import partial
from typing import Mapping

from gradedrel.core import steps
from gradedrel.core.steps import per_model_pages  # noqa: F401  (re-exported for the scripts)


def write_page(output: str, page: str, wildcards: Mapping[str, object] | None) -> None:
    """The report's page of ``output`` at ``page``."""
    from gradedrel.report.html import write_page as report_page

    report_page(output, page, wildcards)


#: :func:`gradedrel.core.steps.run_step` writing the report's pages (``config``, by name: the
#: workflow's, for the job's provenance records).
run_step = partial(steps.run_step, page_writer=write_page)


def ir_metadata_context(config: Mapping, plan_set: str,
                        thesaurus: str | None) -> tuple[dict, list[dict]]:
    """``(research goal, data → other)`` of a job's ir_metadata records, from the config
    (read by the script, not params: a record re-runs nothing). The goal: the paper, the
    measures, the tags of ``plan_set``'s baseline runs (each grid model's run of
    ``evaluation.significance.baseline_run``; none for the plain baseline, tested against
    nothing), the significance tests; ``other``: the files of ``thesaurus`` (None: none)
    with the sha256 config pins."""
    from gradedrel.core import ir_metadata
    from gradedrel.evaluation.settings import Settings
    from gradedrel.study import BASELINE, run_tag
    from gradedrel.thesaurus import sources

    standard = list(config.get("standard_measures") or [])
    settings = Settings.from_config(config.get("evaluation"), standard)
    base = settings.baseline_run
    tags = [run_tag(plan_set, m, base) for m in config["retrieval"]["grid"]] \
        if base and plan_set != BASELINE else []
    goal = ir_metadata.research_goal(
        tags, standard, settings.correction if settings.significance_tests else None)
    spec = (config.get("thesauri") or {}).get(thesaurus) if thesaurus else None
    return goal, ir_metadata.other_data(thesaurus, sources.file_specs(spec) if spec else {})
