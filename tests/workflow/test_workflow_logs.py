"""Each job's log holds that job's own output, Java's included, every line timestamped
(gradedrel.core.steps): checked on the fixture workflow run once for the session."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.workflow

OURS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ (INFO|WARNING|ERROR) (\[[^\]]+\] )?\S")
JAVA = re.compile(r"^\d\d:\d\d:\d\d\.\d{3} \[[^\]]+\] (INFO|WARN|ERROR) org\.terrier\.")


def _logs(project):
    return sorted((project / "results" / "logs").rglob("*.log"))


# Rules the fixture run does not reach: downloads (the fixture is local files), the
# curated-set and derived-set rules (its plan set is automatic), the memory probe and the
# headline (not configured for it); `all` has no job.
NOT_RUN = {"all", "collection_fetch", "terrier_fetch", "thesaurus_fetch", "derive_plan_set",
           "report_memory_probe", "report_memory_probe_v2", "report_headline",
           "report_key_provenance", "report_leak",
           # the report's screen copies of the primary condition's figures: the fixture
           # collection has no plan set named by the design's primary condition
           "report_screen_figures"}


def _rules() -> set[str]:
    root = Path(__file__).resolve().parents[2]
    text = "\n".join(p.read_text() for p in (root / "workflow" / "rules").glob("*.smk"))
    return set(re.findall(r"^rule (\w+):", text, re.M))


def test_no_job_log_is_empty_and_every_line_is_timestamped(finished_project):
    logs = _logs(finished_project)
    # every rule that ran left a log (its name begins the log's file name)
    names = {p.name for p in logs}
    # (a thesaurus's log is thesauri/<name>/read.log)
    starts = {rule: ("read" if rule == "thesaurus_read" else rule) for rule in _rules()}
    missing = {rule for rule in _rules() - NOT_RUN
               if not any(name.startswith(starts[rule]) for name in names)}
    assert missing == set(), sorted(names)
    empty = [str(p.relative_to(finished_project)) for p in logs if p.stat().st_size == 0]
    assert empty == []
    for path in logs:
        for line in path.read_text(encoding="utf-8").splitlines():
            assert OURS.match(line) or JAVA.match(line), f"{path}: {line!r}"


def test_a_terrier_job_log_holds_javas_own_output(finished_project):
    text = (finished_project / "results" / "logs" / "tiny" / "index_collection.log").read_text()
    java = [line for line in text.splitlines() if JAVA.match(line)]
    assert any("Collection took" in line for line in java), text
    assert "Java started: Terrier" in text and "Java started and loaded" not in text


def test_log_lines_name_collection_plan_set_and_model_and_show_progress(finished_project):
    text = (finished_project / "results" / "logs" / "tiny" / "auto" / "retrieve.log"
            ).read_text()
    # one job runs the plan set through every model of the grid; each line names its model
    for model in ("InQuery", "BM25"):
        assert re.search(rf"\[tiny auto\] {model} retrieving WSYN/e: \d+/\d+ topics "
                         r"\(100%\) \[.*topics/s\]", text), text
    assert re.search(r"\[tiny auto\] done in [0-9.]+ s \(process CPU [0-9.]+ s, since its start\); wrote .*not_ranked\.tsv "
                     r"\(\d+ bytes\)", text), text
