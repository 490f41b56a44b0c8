"""The first ten minutes with the command (issue 43, item 3): help texts as plain text within
100 columns, `--against` choices and a did-you-mean, the grade-map hint, another source's
file given to `thesaurus lookup --path`, and `compare` offline without ir_datasets' copy.
Each is one line that says what to do."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from gradedrel import cli
from gradedrel.compare.reference import packaged

from base_install import ROOT

#: Every command and subcommand whose --help a user reads.
HELPS = [[], ["evaluate"], ["compare"], ["annotate"], ["thesaurus"], ["thesaurus", "lookup"],
         ["plans"], ["plans", "check"]]
MARKUP = re.compile(r":[a-z]+:`|``")


def gradedrel(*argv, env=None, cwd=None):
    environment = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="250", **(env or {}))
    return subprocess.run([sys.executable, "-m", "gradedrel", *argv], capture_output=True,
                          text=True, env=environment, cwd=cwd, timeout=600)


@pytest.mark.parametrize("words", HELPS, ids=lambda words: " ".join(words) or "gradedrel")
def test_help_is_plain_text_within_100_columns(words):
    shown = gradedrel(*words, "--help")   # a wide terminal: argparse would use all of it
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("usage: gradedrel")
    for line in shown.stdout.splitlines():
        assert len(line) <= 100, f"{len(line)} columns: {line}"
        assert not MARKUP.search(line), line


def test_every_subcommand_has_its_help_checked():
    assert {words[0] for words in HELPS if words} == set(cli.COMMANDS)


def test_compare_help_lists_the_shipped_references():
    shown = gradedrel("compare", "--help").stdout
    assert packaged() == ["cranfield", "nfcorpus"]
    assert "--against {cranfield,nfcorpus}|RUNS_DIR" in shown
    assert "a shipped reference evaluation (cranfield, nfcorpus" in " ".join(shown.split())


def test_a_typo_in_against_gets_a_did_you_mean(tmp_path, capsys):
    run = tmp_path / "mine.run"
    run.write_text("1 Q0 d1 1 1 mine\n")
    assert cli.main(["compare", str(run), "--against", "cranfeld"]) == 1
    assert capsys.readouterr().err == (
        "gradedrel: cranfeld: no such reference evaluation or folder; did you mean "
        "'cranfield'? (shipped references: cranfield, nfcorpus)\n")


def test_a_label_the_default_grade_map_lacks_says_to_pass_grade_map(tmp_path, capsys):
    (tmp_path / "qrels.txt").write_text("1 0 d1 1\n1 0 d2 4\n")
    (tmp_path / "a.run").write_text("1 Q0 d1 1 2 a\n1 Q0 d2 2 1 a\n")
    assert cli.main(["evaluate", "--qrels", str(tmp_path / "qrels.txt"), "--out",
                     str(tmp_path / "out"), str(tmp_path / "a.run")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"gradedrel: {tmp_path / 'qrels.txt'}:2: expected a relevance label "
                          "in the grade map (0, 1, 2, 3; the default, labels as levels; pass "
                          "--grade-map naming every label of the qrels"), err
    assert err.endswith("; found '4'\n") and err.count("\n") == 1, err


def test_an_rds_file_given_to_path_names_the_mesh_source(tmp_path, capsys):
    rds = tmp_path / "data_mesh_thesaurus.rds"
    rds.write_bytes(b"X\n\x00\x00\x00\x03")
    assert cli.main(["thesaurus", "lookup", "--path", str(rds), "heart"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"gradedrel: {rds}: expected a SKOS file"), err
    assert "--thesaurus mesh" in err and "rdflib" not in err and err.count("\n") == 1, err


def test_compare_offline_without_the_judgements_is_one_line(tmp_path):
    """No copy of Cranfield under IR_DATASETS_HOME and no network (a proxy that refuses):
    one line naming the dataset and IR_DATASETS_HOME, not ir_datasets' traceback."""
    (tmp_path / "mine.run").write_text("1 Q0 1 1 1 mine\n")
    home = tmp_path / "ir_datasets"
    dead = "http://127.0.0.1:9"
    shown = gradedrel("compare", "mine=mine.run", "--against", "cranfield", cwd=tmp_path,
                      env={"IR_DATASETS_HOME": str(home), "http_proxy": dead,
                           "https_proxy": dead, "HTTP_PROXY": dead, "HTTPS_PROXY": dead})
    assert shown.returncode == 1
    assert shown.stderr.splitlines() == [
        "gradedrel: cranfield: could not read its judgements through ir_datasets (cranfield: "
        "All download sources failed); connect to the network once, or put ir_datasets' "
        f"copies into IR_DATASETS_HOME ({home})"], shown.stderr
    assert not (tmp_path / "compare").exists()
