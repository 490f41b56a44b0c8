"""Every command block of the README runs in a test, on the fixture collection's outputs,
and prints what the README shows.

A command block (```bash, sh, shell, console or python) is preceded by one marker line:
``<!-- readme-test: NAME -->``, naming the test below that runs it, or
``<!-- readme-test: skip (why) -->`` for a block that cannot run here (the main job itself,
a SLURM cluster), saying why. An unmarked command block fails
:func:`test_every_command_block_is_run_by_a_test_or_marked_skip`, so a section added later
must say which it is. ``<!-- readme-output: NAME -->`` marks the output a block shows.
"""
import os
import re
import shlex
import subprocess
import sys

import pytest

from conftest import ROOT, copy_project
from gradedrel.core.io import read_tsv

pytestmark = pytest.mark.workflow

COMMAND_LANGUAGES = {"bash", "sh", "shell", "console", "python"}
#: The blocks run by a test in this file (marker name -> test).
TESTED = {"evaluate": "test_readme_evaluate_example_prints_the_workflows_numbers",
          "thesaurus-lookup": "test_readme_thesaurus_lookup_runs_from_another_directory",
          "pyterrier": "test_readme_pyterrier_example_runs",
          "compare": "test_readme_compare_example_prints_the_table_it_shows",
          "pyterrier-measures": "test_pyterrier_measures_example_prints_what_it_shows"}
BLOCK = re.compile(r"(?:<!-- readme-(test|output): (.*?) -->\n)?```(\w*)\n(.*?)```", re.S)


#: The files whose command blocks are run here: the README and the pages it sends its
#: longer examples to.
FILES = ("README.md", "docs/pyterrier.md", "docs/evaluate.md")


def readme_blocks() -> list[tuple[str | None, str | None, str, str]]:
    """(marker kind, marker name, language, code) of every fenced block of FILES."""
    text = "\n".join((ROOT / name).read_text(encoding="utf-8") for name in FILES)
    return [(m.group(1), m.group(2), m.group(3), m.group(4)) for m in BLOCK.finditer(text)]


def block(kind: str, name: str) -> str:
    [code] = [c for k, n, _, c in readme_blocks() if k == kind and n == name]
    return code


def on_fixture(code: str) -> str:
    """The README's Cranfield paths as the fixture project has them (one plan set, auto)."""
    return code.replace("results/cranfield", "results/tiny").replace("/expert", "/auto")


def command_words(code: str) -> list[str]:
    """A one-command shell block as argv (continuation lines joined, comments dropped);
    ``gradedrel`` is run as this interpreter's ``python -m gradedrel``."""
    words = shlex.split(code.replace("\\\n", " "), comments=True)
    assert words[0] == "gradedrel"
    return [sys.executable, "-m", "gradedrel"] + words[1:]


def package_env(**extra) -> dict:
    return dict(os.environ, PYTHONPATH=str(ROOT), **extra)


def test_every_command_block_is_run_by_a_test_or_marked_skip():
    names = []
    for kind, name, language, code in readme_blocks():
        if language not in COMMAND_LANGUAGES:
            continue
        assert kind == "test", f"README command block without a readme-test marker:\n{code}"
        if name.startswith("skip"):
            assert re.fullmatch(r"skip \(.+\)", name), f"a skip marker says why: {name!r}"
            continue
        assert name in TESTED, f"no test runs the README block marked {name!r}"
        names.append(name)
    assert sorted(names) == sorted(TESTED)  # each tested block once, none missing
    for test in TESTED.values():
        assert callable(globals()[test])


def test_readme_evaluate_example_prints_the_workflows_numbers(finished_project, tmp_path):
    project = copy_project(finished_project, tmp_path / "project")
    command = command_words(on_fixture(block("test", "evaluate")))
    done = subprocess.run(command, cwd=project, env=package_env(), capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    printed = done.stdout.splitlines()
    # What it prints: the workflow's own mean AvP per level for the two runs.
    means = read_tsv(project / "results/tiny/evaluation/auto/InQuery/means.tsv")
    expected = means[means["run"].isin(["SUM/u", "WSYN/e"]) &
                     means["measure"].str.startswith("AvP(")]
    rows = [line.split() for line in printed[1:-1]]
    assert [(r[0], r[1]) for r in rows] == list(zip(expected["run"], expected["measure"]))
    for row, mean, topics in zip(rows, expected["mean"], expected["topics"]):
        assert row[2] == ("NaN" if mean != mean else f"{mean:.4f}") and int(row[3]) == topics
    assert printed[-1] == "wrote 11 tables to out/"
    assert not (project / "out" / "bootstrap_ci.tsv").exists()
    for name in ("means", "per_topic", "significance_vs_baseline", "ranked_grades"):
        assert (project / "out" / f"{name}.tsv").exists()
    assert "in none of the runs" not in done.stderr  # --topics: no topic scores zero unseen
    # What the README shows: the same lines, header and last line as printed here, one row
    # per run and level (its numbers are Cranfield's, the fixture's differ).
    shown = block("output", "evaluate").splitlines()
    assert shown[0] == printed[0] and shown[-1] == printed[-1]
    assert [line.split()[:2] for line in shown[1:-1]] == [r[:2] for r in rows]
    assert all(re.fullmatch(r"\d\.\d{4}", line.split()[2]) for line in shown[1:-1])


def test_readme_thesaurus_lookup_runs_from_another_directory(finished_project, tmp_path):
    """From a directory that is not the project, with no user cache: the pins come from
    the (fixture's) config, the answer from the workflow's cached thesaurus, and nothing
    is written where the command runs."""
    project = copy_project(finished_project, tmp_path / "project")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    command = command_words(block("test", "thesaurus-lookup")) + [
        "--config", str(project / "fixture" / "config.yaml"), "--thesaurus", "tiny"]
    (project / "fixture" / "thesaurus.rdf").unlink()  # the cached form must be enough
    done = subprocess.run(command, cwd=elsewhere, capture_output=True, text=True,
                          env=package_env(GRADEDREL_CACHE_DIR=str(tmp_path / "no-cache")))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("aeroelasticity  [#1]  label match on 'aeroelastic'")
    assert "  NT  flutter" in done.stdout and "  RT  similarity laws" in done.stdout
    assert list(elsewhere.iterdir()) == []


def test_readme_pyterrier_example_runs(finished_project, tmp_path, capsys):
    tiny_workdir = copy_project(finished_project, tmp_path / "project")
    code = on_fixture(block("test", "pyterrier"))
    here = os.getcwd()
    os.chdir(tiny_workdir)
    try:
        namespace = {}
        exec(compile(code, "README.md", "exec"), namespace)
    finally:
        os.chdir(here)
    table = namespace["result"]
    assert list(table["name"]) == ["WSYN/e InQuery", "WSYN/e BM25"]
    for column in ("AvP(level=3)", "JK_DCG(b=2,profile='2+3')@10", "nDCG@10"):
        assert column in table.columns
        assert table[column].between(0, 100).all() and table[column].notna().all()
    assert "WSYN/e InQuery" in capsys.readouterr().out


def test_pyterrier_measures_example_prints_what_it_shows(capsys):
    """docs/pyterrier.md's in-memory example (no project, no Java) prints what the page
    shows: the stop on the undefined topic, then the hand-worked values."""
    exec(compile(block("test", "pyterrier-measures"), "docs/pyterrier.md", "exec"), {})
    assert capsys.readouterr().out == block("output", "pyterrier-measures")


def test_readme_compare_example_prints_the_table_it_shows(finished_project, tmp_path):
    """The README's compare command, on the fixture (its paths as the fixture has them):
    it runs, and prints the table the README shows, line for line in its labels and
    columns (the README's numbers are Cranfield's: tests/integrity/test_claims.py checks them
    against the main job's frozen means and the published numbers)."""
    project = copy_project(finished_project, tmp_path / "project")
    command = command_words(on_fixture(block("test", "compare")))
    done = subprocess.run(command, cwd=project, env=package_env(), capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    printed = done.stdout.splitlines()
    shown = block("output", "compare").splitlines()
    start = printed.index(shown[0])  # the table's header, after the caption line
    table = printed[start:start + len(shown)]
    assert [line.split()[0] for line in table] == [line.split()[0] for line in shown]
    assert [len(line.split()) for line in table] == [len(line.split()) for line in shown]
    assert (project / "compare" / "avp.md").exists() and (project / "compare" / "cg.png").exists()


def test_the_readme_is_short_with_a_contents_list_that_links_its_sections():
    """A newcomer's two minutes (issue 20, item 8): at most 250 lines, the two commands first,
    and a contents list whose every link is a section of the README."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    headings = re.findall(r"^## (.+)$", text, re.M)
    assert headings[0] == "Two commands"
    anchors = {re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-") for h in headings}
    contents = text.split("**Contents:**", 1)[1].split("\n\n", 1)[0]
    links = re.findall(r"\]\(#([^)]+)\)", contents)
    assert links and set(links) == anchors
