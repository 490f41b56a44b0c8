"""Issue 21's six kinds of bad input, as a user meets them: through the workflow (the
fixture collection) and through ``gradedrel`` where both apply. Each stops with one line
naming the file (and line) and what was expected, or is read correctly and said so; none
leaves anything half-written in results/ (or the command's out/)."""
from __future__ import annotations

import codecs
import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml

from conftest import ROOT, TINY, copy_project, planned_rules, run_snakemake
from gradedrel import collection
from gradedrel.core.io import read_tsv

pytestmark = pytest.mark.workflow

BOM = codecs.BOM_UTF8
GRADE_MAP = "1=3,2=3,3=2,4=1,-1=0"


def _workdir(tmp_path: Path) -> Path:
    shutil.copytree(TINY, tmp_path / "fixture")
    return tmp_path


def _config(workdir: Path, **sections) -> Path:
    """The fixture's config with ``sections`` merged in (one level deep)."""
    config = yaml.safe_load((workdir / "fixture" / "config.yaml").read_text())
    for key, value in sections.items():
        config[key] = {**config.get(key, {}), **value} if isinstance(value, dict) else value
    path = workdir / "run.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


def _gradedrel_lines(result) -> list[str]:
    return [line for line in (result.stdout + result.stderr).splitlines()
            if line.startswith("gradedrel:")]


def _stops_before_any_job(result, line: str) -> None:
    assert result.returncode == 1, result.stdout[-2000:] + result.stderr[-2000:]
    assert _gradedrel_lines(result) == [f"gradedrel: {line}"]
    assert "Traceback" not in result.stdout + result.stderr


def nothing_half_written(root: Path) -> None:
    """No temporary file or staging directory left (atomic writes, staged indexes)."""
    left = [p for p in root.rglob("*") if p.name.endswith(".part") or ".part" in p.suffixes
            or (p.name.startswith(".") and ".part" in p.name)]
    assert left == [], left


def gradedrel(*args: str, cwd: Path, **extra_env: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), **extra_env)
    return subprocess.run([sys.executable, "-m", "gradedrel", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


def _one_error_line(done: subprocess.CompletedProcess, line: str) -> None:
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr.splitlines() == [f"gradedrel: {line}"], done.stderr


# --- 1. a document id with a space ----------------------------------------------------------

ID_RULE = "without whitespace or control characters (an id is one field of a TREC run line)"


def test_a_document_id_with_a_space_stops_the_workflow_before_any_job(tmp_path):
    work = _workdir(tmp_path)
    docs = work / "fixture" / "docs.jsonl"
    docs.write_text(docs.read_text().replace('"docno": "d05"', '"docno": "AERO 00184"'))
    result = run_snakemake(work, "-n", configfile=work / "fixture" / "config.yaml")
    _stops_before_any_job(result, f"fixture/docs.jsonl:5: expected a document id {ID_RULE}; "
                                  "found 'AERO 00184'")
    assert not (work / "results").exists()


def test_the_indexer_refuses_it_too_and_leaves_no_index(tmp_path):
    """The indexer checks every document itself (the up-front check skips a file the
    index was built from): a bad id added afterwards fails the index job at its line."""
    work = _workdir(tmp_path)
    config = work / "fixture" / "config.yaml"
    census = work / "results" / "tiny" / "documents.json"
    first = run_snakemake(work, str(census.relative_to(work)), configfile=config)
    assert first.returncode == 0, first.stderr[-3000:]
    with open(work / "fixture" / "docs.jsonl", "a") as handle:
        handle.write('{"docno": "AERO 00184", "text": "wings"}\n')
    os.utime(census)  # newer than the documents: the up-front check trusts the index
    result = run_snakemake(work, str(census.relative_to(work)), "--forcerun",
                           "index_collection", configfile=config)
    assert result.returncode != 0
    assert (f"fixture/docs.jsonl:13: expected a document id {ID_RULE}; found 'AERO 00184'"
            in result.stdout + result.stderr)
    assert "Traceback" not in result.stdout + result.stderr
    assert not (work / "results/tiny/index").exists() and not census.exists()
    nothing_half_written(work / "results")


def test_the_command_refuses_ids_that_cannot_stand_in_a_run_line(finished_project, tmp_path):
    project = copy_project(finished_project, tmp_path / "project")
    run = project / "bad.run"
    run.write_text("1 Q0 d01 1 2.0 t\n1 Q0 d\u00a002 2 1.0 t\n", encoding="utf-8")
    done = gradedrel("evaluate", "--qrels", "fixture/qrels.txt", "--grade-map", GRADE_MAP,
                     "--out", "out", "bad.run", cwd=project)
    _one_error_line(done, "bad.run:2: expected a TREC run line of fields separated by spaces "
                          "or tabs, without other whitespace or control characters (found "
                          "U+00A0); found '1 Q0 d\\xa002 2 1.0 t'")
    qrels = project / "bad.tsv"
    qrels.write_text("qid\tdocno\tgrade\n1\td01\t3\n1\tAERO 00184\t2\n")
    done = gradedrel("evaluate", "--qrels", "bad.tsv", "--out", "out",
                     "results/tiny/runs/auto/BM25/SUM-u.run", cwd=project)
    _one_error_line(done, f"bad.tsv:3: expected a document id {ID_RULE}; found 'AERO 00184'")
    assert not (project / "out").exists()


# --- 2. byte-order marks ------------------------------------------------------------------

def _mark(path: Path) -> None:
    path.write_bytes(BOM + path.read_bytes())


def test_byte_order_marks_are_stripped_and_counted_in_the_testbed_report(tmp_path):
    work = _workdir(tmp_path)
    config = work / "fixture" / "config.yaml"
    spec = collection.CollectionSpec.from_config(
        "tiny", {**yaml.safe_load(config.read_text())["collections"]["tiny"],
                 **{k: f"{work}/fixture/{k}.{e}" for k, e in
                    (("docs", "jsonl"), ("topics", "tsv"), ("qrels", "txt"))}})
    expected_topics, expected_qrels = collection.load_topics(spec), collection.load_qrels(spec)
    for name in ("docs.jsonl", "topics.tsv", "qrels.txt"):
        _mark(work / "fixture" / name)
    result = run_snakemake(work, "results/tiny/testbed.md", configfile=config)
    assert result.returncode == 0, result.stderr[-3000:]
    out = work / "results" / "tiny"
    qrels = read_tsv(out / "qrels.tsv")
    assert qrels[["qid", "docno", "grade"]].values.tolist() == \
        expected_qrels[["qid", "docno", "grade"]].values.tolist()
    assert read_tsv(out / "topics.tsv")[["qid", "query"]].values.tolist() == \
        expected_topics.values.tolist()
    assert (out / "exclusions.tsv").read_text() == "kind\tid\treason\n"
    assert ("- UTF-8 byte-order marks stripped from the start of 3 input file(s): "
            "fixture/docs.jsonl, fixture/topics.tsv, fixture/qrels.txt"
            in (out / "testbed.md").read_text().splitlines())
    for name in ("docs.jsonl", "topics.tsv", "qrels.txt"):
        assert f"fixture/{name}: a UTF-8 byte-order mark at the start of the file, stripped" \
            in result.stderr
    nothing_half_written(work / "results")


def test_the_command_reads_qrels_and_topics_with_a_byte_order_mark_as_without(
        finished_project, tmp_path):
    project = copy_project(finished_project, tmp_path / "project")
    (project / "topics.txt").write_text("qid\n1\n2\n3\n4\n")
    run = "results/tiny/runs/auto/BM25/SUM-u.run"
    values = {}
    for kind in ("plain", "marked"):
        shutil.copy(project / "fixture" / "qrels.txt", project / f"{kind}.txt")
        shutil.copy(project / "topics.txt", project / f"{kind}-topics.txt")
        if kind == "marked":
            _mark(project / "marked.txt")
            _mark(project / "marked-topics.txt")
        done = gradedrel("evaluate", "--qrels", f"{kind}.txt", "--grade-map", GRADE_MAP,
                         "--topics", f"{kind}-topics.txt", "--out", kind, f"SUM/u={run}",
                         cwd=project)
        assert done.returncode == 0, done.stderr
        values[kind] = pd.read_csv(project / kind / "per_topic.tsv", sep="\t", dtype={"qid": str})
        values[kind + "-stderr"] = done.stderr
    assert values["marked"].equals(values["plain"])
    assert sorted(values["marked"]["qid"].unique()) == ["1", "2", "3", "4"]
    for name in ("marked.txt", "marked-topics.txt"):
        assert f"WARNING {name}: a UTF-8 byte-order mark at the start of the file, stripped" \
            in values["marked-stderr"]
    assert "byte-order" not in values["plain-stderr"]


# --- 3. a document over Terrier's positional limit --------------------------------------------

def test_a_20_mb_document_is_refused_before_any_job_and_the_limit_can_be_raised(tmp_path):
    work = _workdir(tmp_path)
    with open(work / "fixture" / "docs.jsonl", "a") as handle:
        handle.write(json.dumps({"docno": "big", "text": " ".join(["flutter of wings"]
                                                                   * 1_300_000)}) + "\n")
    assert (work / "fixture" / "docs.jsonl").stat().st_size > 20_000_000
    result = run_snakemake(work, "-n", configfile=work / "fixture" / "config.yaml")
    _stops_before_any_job(
        result, "fixture/docs.jsonl:13: expected a document of at most 100001 indexed "
                "tokens, not 2600000 (Terrier records term positions up to blocks.max = "
                "100000: raise config index.blocks_max; docs/retrieval.md, \"The index\"); "
                "found 'big'")
    assert not (work / "results").exists()
    raised = run_snakemake(work, "-n", configfile=_config(work, index={"blocks_max": 2599999}))
    assert raised.returncode == 0, raised.stderr[-3000:]


def test_the_indexer_refuses_a_document_over_a_lowered_limit_at_its_line(tmp_path):
    """index.blocks_max reaches Terrier and the indexer's own check (the up-front check
    skipped: the index was built from this file with these settings)."""
    work = _workdir(tmp_path)
    config = _config(work, index={"blocks_max": 15})
    census = work / "results" / "tiny" / "documents.json"
    first = run_snakemake(work, str(census.relative_to(work)), configfile=config)
    assert first.returncode == 0, first.stderr[-3000:]
    assert json.loads(census.read_text())["options"]["blocks_max"] == 15
    with open(work / "fixture" / "docs.jsonl", "a") as handle:
        handle.write(json.dumps({"docno": "d13", "text": " ".join(f"w{i}" for i in range(17))})
                     + "\n")
    os.utime(census)
    result = run_snakemake(work, str(census.relative_to(work)), "--forcerun",
                           "index_collection", configfile=config)
    assert result.returncode != 0
    assert ("fixture/docs.jsonl:13: expected a document of at most 16 indexed tokens, not 17 "
            "(Terrier records term positions up to blocks.max = 15: raise config "
            "index.blocks_max; docs/retrieval.md, \"The index\"); found 'd13'"
            in result.stdout + result.stderr)
    assert not (work / "results/tiny/index").exists() and not census.exists()
    nothing_half_written(work / "results")


# --- 4. a corrupt thesaurus cache -----------------------------------------------------------

CACHE = "results/thesauri/tiny/tiny.thesaurus.json.gz"


def _corrupt(path: Path, how: str) -> None:
    data, stat = path.read_bytes(), path.stat()
    if how == "truncated":
        data = data[:len(data) // 2]
    else:  # a byte damaged in the deflate stream: zlib's own error, a traceback before
        data = data[:20] + bytes([data[20] ^ 0x10]) + data[21:]
    path.write_bytes(data)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # looks as finished as before


@pytest.mark.parametrize("how, why", [
    ("truncated", "Compressed file ended before the end-of-stream marker was reached"),
    ("damaged", "Error -3 while decompressing data: invalid "),  # zlib's words for the bytes
])
def test_a_corrupt_thesaurus_cache_is_one_line_saying_to_delete_it(finished_project, tmp_path,
                                                                   how, why):
    project = copy_project(finished_project, tmp_path / "project")
    cache = project / CACHE
    _corrupt(cache, how)
    config = project / "fixture" / "config.yaml"
    result = run_snakemake(project, "-n", snakefile=project / "Snakefile", configfile=config)
    assert result.returncode == 1 and "Nothing to be done" not in result.stdout
    (line,) = _gradedrel_lines(result)
    line = line.removeprefix("gradedrel: ")
    assert line.startswith(f"{CACHE}: a corrupt thesaurus cache (not gzip-compressed JSON: "
                           f"{why}") and line.endswith(
        "); delete it: it is rebuilt from its source when next needed"), line
    assert "Traceback" not in result.stdout + result.stderr
    done = gradedrel("thesaurus", "lookup", "--path", CACHE, "aeroelastic", cwd=project)
    _one_error_line(done, line)
    # by name, the command passes the workflow's cache over (saying so) and reads the source
    done = gradedrel("thesaurus", "lookup", "--config", "fixture/config.yaml", "--thesaurus",
                     "tiny", "aeroelastic", cwd=project,
                     GRADEDREL_CACHE_DIR=str(tmp_path / "user-cache"))
    assert done.returncode == 0 and done.stdout.startswith("aeroelasticity  [#1]")
    # (the project's root found from its config: the path in full)
    assert done.stderr.endswith(f"WARNING {project / line}\n"), done.stderr
    cache.unlink()  # as the line says: then a run goes on, and rebuilds it when needed
    again = run_snakemake(project, "-n", snakefile=project / "Snakefile", configfile=config)
    assert again.returncode == 0, again.stderr[-2000:]
    assert planned_rules(run_snakemake(project, "-n", CACHE, snakefile=project / "Snakefile",
                                       configfile=config)) == {"thesaurus_read"}
    nothing_half_written(project / "results")


# --- 5. gradedrel evaluate --config ---------------------------------------------------------

@pytest.mark.parametrize("text, line", [
    ("evalution:\n  cutoffs: [10]\n",
     "bad.yaml:1: unknown key 'evalution' at the top level; did you mean 'evaluation'?"),
    ("evaluation:\n  depth: 100\n  cutofs: [10]\n",
     "bad.yaml:3: unknown key 'cutofs' at evaluation; did you mean 'cutoffs'?"),
    ("evaluation:\n  cutoffs: ten\n",
     "bad.yaml:2: evaluation.cutoffs: 'ten' is not of type 'array'"),
    ("standard_measures: nDCG@10\n",
     "bad.yaml:1: standard_measures: 'nDCG@10' is not of type 'array'"),
])
def test_the_commands_config_is_checked_by_the_workflows_schema(finished_project, tmp_path,
                                                                text, line):
    project = copy_project(finished_project, tmp_path / "project")
    (project / "bad.yaml").write_bytes(BOM + text.encode())
    done = gradedrel("evaluate", "--qrels", "fixture/qrels.txt", "--grade-map", GRADE_MAP,
                     "--config", "bad.yaml", "--out", "out",
                     "results/tiny/runs/auto/BM25/SUM-u.run", cwd=project)
    _one_error_line(done, line)
    assert not (project / "out").exists()


def test_a_partial_config_sets_what_it_names_and_the_schema_defaults_the_rest(
        finished_project, tmp_path):
    project = copy_project(finished_project, tmp_path / "project")
    (project / "some.yaml").write_text("evaluation:\n  cutoffs: [5]\n")
    run = "SUM/u=results/tiny/runs/auto/BM25/SUM-u.run"
    common = ["evaluate", "--qrels", "fixture/qrels.txt", "--grade-map", GRADE_MAP]
    with_config = gradedrel(*common, "--config", "some.yaml", "--out", "a", run, cwd=project)
    without = gradedrel(*common, "--out", "b", run, cwd=project)
    assert with_config.returncode == 0 and without.returncode == 0, with_config.stderr
    a, b = (pd.read_csv(project / d / "per_topic.tsv", sep="\t") for d in ("a", "b"))
    cut = {d: {m.rsplit("@", 1)[1] for m in f["measure"] if m.startswith("JK_")}
           for d, f in (("a", a), ("b", b))}
    assert cut == {"a": {"5"}, "b": {"10", "50", "100"}}  # the file's cutoffs; the default
    stratified = [f[f["measure"].str.startswith("AvP(")].reset_index(drop=True) for f in (a, b)]
    assert stratified[0].equals(stratified[1])  # the rest: the schema's defaults, as before


def test_the_workflow_names_the_file_and_line_of_cutoffs_beyond_the_depth(tmp_path):
    # before: the evaluation job failed, naming only "config: evaluation"
    work = _workdir(tmp_path)
    config = _config(work, evaluation={"cutoffs": [10, 500], "depth": 100})
    result = run_snakemake(work, "-n", configfile=config)
    lines = config.read_text().splitlines()
    key = next(n for n, text in enumerate(lines, 1) if text.strip().startswith("cutoffs:"))
    line = key + (lines[key - 1].strip() == "cutoffs:")  # the list's line (block style: next)
    _stops_before_any_job(result, f"{config}:{line}: evaluation.cutoffs: [500] outside "
                                  "1..depth (100, evaluation.depth)")
    assert not (work / "results").exists()


def test_the_workflow_names_a_misspelled_evaluation_key_the_same_way(tmp_path):
    work = _workdir(tmp_path)
    config = _config(work, evaluation={"cutofs": [10]})
    result = run_snakemake(work, "-n", configfile=config)
    line = next(n for n, text in enumerate(config.read_text().splitlines(), 1)
                if text.strip().startswith("cutofs:"))  # the file and line it came from
    _stops_before_any_job(
        result, f"{config}:{line}: unknown key 'cutofs' at evaluation; did you mean 'cutoffs'?")
    assert not (work / "results").exists()


def test_a_curve_the_evaluation_does_not_compute_stops_the_workflow_before_any_job(tmp_path):
    """report.curves and evaluation.dcg_bases name one measure: a figure of a base the
    evaluation does not compute would be empty lines (issue 44, item 3)."""
    work = _workdir(tmp_path)
    config = _config(work, report={"curves": ["JK_CG", "JK_DCG(b=5)"]},
                     evaluation={"dcg_bases": [2, 10]})
    result = run_snakemake(work, "-n", configfile=config)
    _stops_before_any_job(result, "config: report.curves: 'JK_DCG(b=5)' is drawn at log base "
                                  "5, which evaluation.dcg_bases [2, 10] does not compute")
    assert not (work / "results").exists()


# --- 6. plan YAML with the characters themselves --------------------------------------------

def test_plans_are_written_with_real_characters(tmp_path):
    work = _workdir(tmp_path)
    topics = work / "fixture" / "topics.tsv"
    topics.write_text(topics.read_text().replace(
        "buckling of cylindrical shells", "Über buckling of cylindrical shells (Strömung)"))
    plans = work / "results" / "tiny" / "plans" / "auto.yaml"
    result = run_snakemake(work, str(plans.relative_to(work)),
                           configfile=work / "fixture" / "config.yaml")
    assert result.returncode == 0, result.stderr[-3000:]
    text = plans.read_text(encoding="utf-8")
    assert "request: Über buckling of cylindrical shells (Strömung) under compression" in text
    assert "\\x" not in text and "\\u" not in text
    from gradedrel import plans as plan_model
    assert plan_model.parse_plans(text)[1].request == \
        "Über buckling of cylindrical shells (Strömung) under compression"
    nothing_half_written(work / "results")
