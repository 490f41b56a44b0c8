"""Checking copied results' provenance records against a clone (gradedrel.core.adoption),
on hand-made records; the digests are the FIPS 180-2 example vectors, not computed here."""
import json
import subprocess
from pathlib import Path

import pytest

from gradedrel.core.adoption import (Clone, difference, git_state, named_files, read_record,
                                     record_files, refusals, summary_rows)
from gradedrel.core.errors import InputError

# FIPS 180-2, appendix B.1: sha256("abc")
ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
# sha256 of the empty message
EMPTY = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
COMMIT = "a" * 40
#: The hashes of a configuration's sections, as a record and a clone hold them (not computed:
#: adoption compares them as text)
SECTIONS = {"collections": "1" * 16, "evaluation": "2" * 16}


@pytest.fixture
def clone(tmp_path) -> Clone:
    (tmp_path / "fixture").mkdir()
    (tmp_path / "fixture" / "docs.jsonl").write_bytes(b"abc")
    (tmp_path / "home" / "cranfield").mkdir(parents=True)
    (tmp_path / "home" / "cranfield" / "docs.txt").write_bytes(b"")
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "means.tsv").write_bytes(b"abc")
    return Clone(tmp_path, COMMIT, {"python": "3.11.2", "numpy": "2.4.6"},
                 tmp_path / "home", config_sections=SECTIONS,
                 config_files=("config/config.yaml", "x.yaml"))


def run_record(**changes):
    record = {"step": "retrieve", "config": {"path": "not/read.txt", "sha256": "0" * 64},
              "source": {"commit": COMMIT, "dirty": False},
              "versions": {"python": "3.11.2", "numpy": "2.4.6", "terrier": "5.11"},
              "data": [{"path": "fixture/docs.jsonl", "sha256": ABC, "bytes": 3},
                       {"path": "cranfield/docs.txt", "root": "ir_datasets home",
                        "sha256": EMPTY, "bytes": 0}],
              "query_file": "fixture/docs.jsonl", "query_file_sha256": ABC,
              "plans_sha256": "f" * 64,
              "outputs": [{"path": "results/means.tsv", "sha256": ABC}],
              "workflow_config": dict(SECTIONS)}
    record.update(changes)
    return record


def test_a_record_names_its_file_records_and_path_digest_pairs_but_not_its_config():
    assert sorted(named_files(run_record())) == [
        ("cranfield/docs.txt", "ir_datasets home", EMPTY),
        ("fixture/docs.jsonl", None, ABC),
        ("fixture/docs.jsonl", None, ABC),
        ("results/means.tsv", None, ABC)]


def test_a_record_that_matches_the_clone_has_no_difference(clone):
    assert difference(run_record(), clone) is None
    # no source (most steps record none), a version the clone does not know: still matches
    assert difference({"versions": {"terrier": "5.11"}, "step": "x", "outputs": [],
                       "workflow_config": SECTIONS}, clone) is None


@pytest.mark.parametrize("changes, expected", [
    ({"source": {"commit": "b" * 40, "dirty": False}},
     f"made at commit {'b' * 40}; this clone is at {COMMIT}"),
    ({"source": {"commit": COMMIT, "dirty": True}},
     f"made from uncommitted changes to commit {COMMIT}, not from a commit"),
    ({"source": {"commit": None, "dirty": None}},
     f"made outside a git checkout; this clone is at {COMMIT}"),
    ({"versions": {"python": "3.11.2", "numpy": "2.4.5"}},
     "made with numpy 2.4.5; this environment has 2.4.6"),
    ({"query_file_sha256": EMPTY},
     f"names fixture/docs.jsonl with sha256 {EMPTY[:12]}…; the file here differs"),
    ({"data": [{"path": "cranfield/docs.txt", "root": "ir_datasets home", "sha256": ABC}]},
     f"names cranfield/docs.txt with sha256 {ABC[:12]}…; the file here differs"),
    ({"data": [{"path": "fixture/gone.tsv", "sha256": ABC}]},
     "names fixture/gone.tsv (project), missing here"),
    ({"data": [{"path": "x.txt", "root": "elsewhere", "sha256": ABC}]},
     "names x.txt under 'elsewhere', a root adopt does not know"),
    # an output edited or emptied after its record was written
    ({"outputs": [{"path": "results/means.tsv", "sha256": EMPTY}]},
     f"names results/means.tsv with sha256 {EMPTY[:12]}…; the file here differs"),
    # made with another configuration than the clone's config files give
    ({"workflow_config": {**SECTIONS, "collections": "3" * 16}},
     "made with another config section 'collections' than this clone's configuration "
     "(config/config.yaml + x.yaml)"),
    ({"workflow_config": {**SECTIONS, "extra": "3" * 16}},
     "made with config section 'extra', which this clone's configuration "
     "(config/config.yaml + x.yaml) lacks"),
    ({"workflow_config": {"evaluation": "2" * 16}},
     "made without config section 'collections', which this clone's configuration "
     "(config/config.yaml + x.yaml) has"),
    # a record without them cannot be checked
    ({"outputs": None},
     "holds no checksums of its outputs or its workflow configuration (made by an older "
     "gradedrel); re-make the results with this commit"),
    ({"workflow_config": None},
     "holds no checksums of its outputs or its workflow configuration (made by an older "
     "gradedrel); re-make the results with this commit"),
])
def test_a_record_that_differs_from_the_clone_says_how(clone, changes, expected):
    assert difference(run_record(**changes), clone) == expected


def test_outside_git_a_record_made_at_a_commit_differs(clone):
    outside = Clone(clone.root, None, clone.versions, clone.ir_datasets_home,
                    config_sections=SECTIONS)
    assert difference(run_record(), outside) == \
        f"made at commit {COMMIT}; this clone is not a git checkout"
    assert difference(run_record(source={"commit": None, "dirty": None}), outside) is None


def test_every_record_under_the_result_folders_is_checked_and_named(clone):
    root = clone.root
    (root / "results" / "runs").mkdir(parents=True)
    (root / "figures").mkdir()
    (root / "results" / "provenance.json").write_text(json.dumps(run_record()))
    (root / "results" / "runs" / "a.provenance.json").write_text(
        json.dumps(run_record(versions={"numpy": "1.0"})))
    (root / "results" / "runs" / "a.run").write_text("not a record")
    (root / "figures" / "provenance.json").write_text('{\n  "step": "x",\n  oops\n}\n')
    assert record_files(root) == [root / "figures" / "provenance.json",
                                  root / "results" / "provenance.json",
                                  root / "results" / "runs" / "a.provenance.json"]
    assert refusals(root, clone) == (3, [
        "figures/provenance.json:3: expected a JSON provenance record; found "
        "'Expecting property name enclosed in double quotes'",
        "results/runs/a.provenance.json: made with numpy 1.0; this environment has 2.4.6"])


def test_a_record_that_is_not_an_object_is_refused_with_its_file(tmp_path):
    (tmp_path / "provenance.json").write_text("[1, 2]\n")
    with pytest.raises(InputError, match=r"provenance.json:1: expected a JSON object"):
        read_record(tmp_path / "provenance.json")


SUMMARY = ("Building DAG of jobs...\n"
           "output_file\tdate\trule\tlog-file(s)\tstatus\tplan\n"
           "results/a.tsv\tWed Dec  2 15:09:22 2026\tprepare\t-\tok\tno update\n"
           "results/b.tsv\t-\tjoin\tresults/logs/join.log\tmissing\tupdate pending\n"
           "results/c.tsv\tWed Dec  2 15:09:22 2026\tjoin\t-\tparams changed\tupdate pending\n")


def test_snakemakes_summary_gives_each_outputs_status_and_plan():
    rows = summary_rows(SUMMARY)
    assert [(r.path, r.rule, r.status, r.pending) for r in rows] == [
        ("results/a.tsv", "prepare", "ok", False),
        ("results/b.tsv", "join", "missing", True),
        ("results/c.tsv", "join", "params changed", True)]
    with pytest.raises(InputError, match="expected a header line starting 'output_file'"):
        summary_rows("Building DAG of jobs...\n")


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t",
                           *args], check=True, capture_output=True, text=True).stdout


def test_the_clones_commit_and_its_first_changed_file(tmp_path):
    assert git_state(tmp_path) == (None, None)
    (tmp_path / "gradedrel").mkdir()
    (tmp_path / "gradedrel" / "__init__.py").write_text("")
    (tmp_path / "Snakefile").write_text("rule all:\n")
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "c")
    head = git(tmp_path, "rev-parse", "HEAD").strip()
    assert git_state(tmp_path) == (head, None)
    (tmp_path / "untracked.txt").write_text("not a change of the commit")
    assert git_state(tmp_path) == (head, None)
    (tmp_path / "Snakefile").write_text("rule all:\n    input: []\n")
    assert git_state(tmp_path) == (head, "Snakefile")
