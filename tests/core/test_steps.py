"""A step's output in its log: Python's, a child process's (as the JVM writes, straight to
the file descriptors), timestamps naming the job, one line on bad input."""
from __future__ import annotations

import logging
import os
import re
import subprocess
import sys

import pytest

from gradedrel.core.errors import InputError
from gradedrel.core.progress import progress
from gradedrel.core.steps import job_context, per_model_pages, run_step

STAMP = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"


def test_job_context_names_collection_plan_set_and_model_in_order():
    wildcards = {"model": "BM25", "collection": "cranfield", "planset": "auto"}
    assert job_context(wildcards) == "cranfield auto BM25"
    assert job_context({"collection": "cranfield"}) == "cranfield"
    assert job_context(None) == ""


def test_a_page_of_a_job_for_many_plan_sets_names_its_plan_set_and_model():
    """A page's title names the plan set and model of its output's name (a findings job
    writes every plan set's of its collection), over the job's own wildcards."""
    from gradedrel.report.html import page_title

    pages = per_model_pages({"collection": "cranfield"})
    assert page_title("x/verdicts.tsv", pages("verdicts/expert/BM25")) == \
        "verdicts.tsv: collection cranfield, plan set expert, model BM25"
    one_plan_set = per_model_pages({"collection": "cranfield", "planset": "auto"})
    assert one_plan_set("not_ranked/BM25") == {"collection": "cranfield", "planset": "auto",
                                               "model": "BM25"}


def test_everything_the_step_writes_reaches_its_log(tmp_path):
    log_path = tmp_path / "step.log"

    def main():
        logging.getLogger("gradedrel").info("from logging")
        print("from print")
        print("from stderr", file=sys.stderr)
        # a child process writes to the inherited descriptors, as the JVM does
        subprocess.run(["sh", "-c", "echo from a child; echo child stderr >&2"], check=True)
        os.write(1, b"from fd 1\n")

    run_step(str(log_path), main, {"collection": "cranfield", "planset": "auto",
                                    "model": "BM25"}, outputs=[str(log_path)])
    text = log_path.read_text()
    for expected in ("from logging", "from print", "from stderr", "from a child",
                     "child stderr", "from fd 1"):
        assert expected in text, text
    assert re.search(rf"^{STAMP} INFO \[cranfield auto BM25\] from logging$", text, re.M), text
    assert re.search(rf"^{STAMP} INFO \[cranfield auto BM25\] done in [0-9.]+ s \(process CPU [0-9.]+ s, since its start\); wrote ", text,
                     re.M), text


def test_descriptors_are_restored_after_the_step(tmp_path, capfd):
    run_step(str(tmp_path / "a.log"), lambda: os.write(1, b"inside\n"))
    os.write(1, b"outside\n")
    out = capfd.readouterr().out
    assert "outside" in out and "inside" not in out
    assert "inside" in (tmp_path / "a.log").read_text()


def test_bad_input_ends_the_step_with_one_line_in_log_and_on_the_terminal(tmp_path, capfd):
    def main():
        raise InputError("topics.tsv", 3, "a topic id", "")

    with pytest.raises(SystemExit) as stop:
        run_step(str(tmp_path / "b.log"), main)
    assert stop.value.code == 1
    err = capfd.readouterr().err
    assert "topics.tsv:3: expected a topic id" in err and "Traceback" not in err
    assert "topics.tsv:3: expected a topic id" in (tmp_path / "b.log").read_text()


def test_an_unexpected_error_leaves_its_traceback_in_the_log_and_one_line_outside(tmp_path,
                                                                                  capfd):
    def main():
        raise KeyError("lost")

    with pytest.raises(SystemExit):
        run_step(str(tmp_path / "c.log"), main)
    err = capfd.readouterr().err
    assert "KeyError: 'lost' (traceback in" in err and "Traceback" not in err
    assert "Traceback (most recent call last)" in (tmp_path / "c.log").read_text()


def test_progress_lines_give_counts_and_rates_but_not_the_empty_start(tmp_path):
    def main():
        for _ in progress(range(40), desc="indexing cranfield", unit="documents",
                          interval=0):
            pass

    run_step(str(tmp_path / "d.log"), main, {"collection": "cranfield"})
    lines = [line for line in (tmp_path / "d.log").read_text().splitlines()
             if "indexing cranfield" in line]
    assert lines and not any(": 0/40" in line for line in lines)
    assert re.match(rf"{STAMP} INFO \[cranfield\] indexing cranfield: 40/40 documents \(100%\) "
                    r"\[.*, +[0-9.]+ documents/s\]$", lines[-1]), lines


def test_logged_writes_a_run_rules_lines_in_the_one_format(tmp_path):
    from gradedrel.core.steps import logged

    out = tmp_path / "page.html"
    with logged(tmp_path / "page.log", {"collection": "cranfield", "planset": "auto"}, [str(out)]):
        logging.getLogger("gradedrel").info("rendering")
        out.write_text("x")
    lines = (tmp_path / "page.log").read_text().splitlines()
    assert re.match(rf"{STAMP} INFO \[cranfield auto\] rendering$", lines[0]), lines
    assert re.match(rf"{STAMP} INFO \[cranfield auto\] done in [0-9.]+ s; wrote .*page\.html "
                    r"\(1 bytes\)$", lines[1]), lines
    assert not logging.getLogger("gradedrel").handlers


def test_share_package_puts_the_project_first_on_the_jobs_path_once():
    from gradedrel.core.steps import share_package

    environ = {}
    share_package("/p", environ)
    assert environ["PYTHONPATH"] == "/p"
    environ = {"PYTHONPATH": os.pathsep.join(["/a", "/p", "", "/b"])}
    share_package("/p", environ)
    share_package("/p", environ)
    assert environ["PYTHONPATH"].split(os.pathsep) == ["/p", "/a", "/b"]


JOB_SCRIPT = """
import atexit, pathlib, sys
snakemake = object()   # what Snakemake's preamble defines in a job's script
out = pathlib.Path(sys.argv[1])
atexit.register(lambda p=out.parent: (p / "teardown").write_text("ran"))
from gradedrel.core.steps import run_step
run_step(str(out.parent / "job.log"), lambda: out.write_text("written"), outputs=[str(out)])
print("after run_step", file=sys.stderr)
"""


@pytest.mark.parametrize("how", ["job script", "runpy", "without snakemake"])
def test_a_finished_job_script_ends_without_teardown_and_nothing_else_does(tmp_path, how):
    """A job's script (run as the main program, with its ``snakemake`` object) ends at once
    with status 0 once its outputs and log are written: no atexit handler, no code after
    ``run_step``. Run through ``runpy`` (as a test or notebook would) or without the
    ``snakemake`` object, the process goes on and tears down as usual."""
    script = tmp_path / "job.py"
    source = JOB_SCRIPT if how != "without snakemake" else JOB_SCRIPT.replace(
        "snakemake = object()", "")
    script.write_text(source)
    out = tmp_path / "out.txt"
    cmd = ([sys.executable, str(script), str(out)] if how != "runpy" else
           [sys.executable, "-c", f"import runpy, sys; sys.argv[1:] = [{str(out)!r}]; "
                                  f"runpy.run_path({str(script)!r}, run_name='__main__')"])
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert out.read_text() == "written"
    assert "done in" in (tmp_path / "job.log").read_text()
    ended_at_once = how == "job script"
    assert (tmp_path / "teardown").exists() != ended_at_once
    assert ("after run_step" in done.stderr) != ended_at_once


class Named(list):
    """Outputs as Snakemake gives a job them: paths in order, each also by its name."""

    def __init__(self, named: dict):
        super().__init__(named.values())
        self.named = named

    def keys(self):
        return self.named.keys()

    def __getitem__(self, key):
        return self.named[key] if isinstance(key, str) else super().__getitem__(key)


def test_a_page_per_model_names_its_model_and_a_page_of_the_job_its_wildcards():
    from gradedrel.core.steps import per_model_pages

    wildcards = {"collection": "c", "planset": "p"}
    titles = per_model_pages(wildcards)
    assert titles("not_ranked/BM25") == {**wildcards, "model": "BM25"}
    assert titles("query_means") == wildcards


def test_a_jobs_records_gain_its_outputs_checksums_and_the_configs_sections(tmp_path):
    import hashlib
    import json

    from pathlib import Path

    from gradedrel.core import provenance
    from gradedrel.core.steps import complete_records

    table, figure, page = tmp_path / "means.tsv", tmp_path / "f.png", tmp_path / "means.html"
    record, beside = tmp_path / "provenance.json", tmp_path / "f.provenance.json"

    def main():
        table.write_bytes(b"abc")
        figure.write_bytes(b"")
        for path in (record, beside):
            path.write_text(provenance.record("step", {"a": 1}))

    def page_writer(source, target, wildcards):
        Path(target).write_text(f"<p>{source}</p>")

    config = {"evaluation": {"depth": 100}, "report": {"dpi": 300}}
    outputs = Named({"means": str(table), "page/means": str(page), "png": str(figure),
                     "record": str(record), "beside": str(beside)})
    run_step(str(tmp_path / "a.log"), main, outputs=outputs, page_writer=page_writer,
             config=config)
    assert page.read_text() == f"<p>{table}</p>"
    body = json.loads(record.read_text())
    # FIPS 180-2 B.1 and the empty message's digest, not computed here; the page and the
    # records themselves not covered
    assert body["outputs"] == [
        {"path": str(figure), "sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"path": str(table), "sha256": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"}]
    assert body["workflow_config"] == {
        "evaluation": hashlib.sha256(b'{"evaluation":{"depth":100}}').hexdigest()[:16],
        "report": hashlib.sha256(b'{"report":{"dpi":300}}').hexdigest()[:16]}
    # the figure's own record covers the figure (the folder's record, everything in it)
    assert json.loads(beside.read_text()) == {**body, "outputs": body["outputs"][:1]}
    # a job writing a record must say its config
    with pytest.raises(ValueError, match="provenance record, but the job passed no config"):
        complete_records(list(outputs))


def test_a_record_covers_its_folder_or_its_files_and_every_files_record_what_none_claims():
    """What no record claims goes to the files' records (a folder's record covers its folder:
    the retrieve job's compiled queries, beside its runs), to every record when the job has
    only folders' records."""
    from gradedrel.core.provenance import coverage

    records = ["r/BM25/SUM-u.provenance.json", "r/BM25/SUM-e.provenance.json",
               "e/BM25/provenance.json", "e/QL/provenance.json"]
    files = ["r/BM25/SUM-u.run", "r/BM25/SUM-e.run", "r/BM25/SUM-u.x.tsv", "r/BM25/SUM-ex.run",
             "e/BM25/means.tsv", "e/QL/means.tsv", "f/SUM.png"]
    assert coverage(records, files) == {
        "r/BM25/SUM-u.provenance.json": ["f/SUM.png", "r/BM25/SUM-ex.run", "r/BM25/SUM-u.run",
                                         "r/BM25/SUM-u.x.tsv"],
        "r/BM25/SUM-e.provenance.json": ["f/SUM.png", "r/BM25/SUM-e.run", "r/BM25/SUM-ex.run"],
        "e/BM25/provenance.json": ["e/BM25/means.tsv"],
        "e/QL/provenance.json": ["e/QL/means.tsv"]}
    assert coverage(records[2:], files[4:]) == {
        "e/BM25/provenance.json": ["e/BM25/means.tsv", "f/SUM.png"],
        "e/QL/provenance.json": ["e/QL/means.tsv", "f/SUM.png"]}


def test_a_pages_title_names_its_model_but_a_model_less_output_only_the_jobs_wildcards():
    """evaluate_runs writes per-model pages (means/BM25) and its plan set's selection's."""
    from gradedrel.core.steps import per_model_pages

    wildcards = {"collection": "cranfield", "planset": "auto"}
    titles = per_model_pages(wildcards)
    assert titles("means/BM25") == {**wildcards, "model": "BM25"}
    assert titles("selected") == wildcards
