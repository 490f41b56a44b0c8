"""`pip install gradedrel` without extras: `gradedrel evaluate` (and every command not in
WORKFLOW_COMMANDS below or cli.COMPARE_COMMANDS) needs neither Snakemake nor Terrier nor
Matplotlib nor any other package of the `[workflow]` or `[compare]` extras; the other
commands say which extra they need (issue 43).

The fast tests simulate the base install here (tests/base_install.py: the workflow-only
packages made unimportable in a subprocess, sys.modules checked); the slow one builds a
fresh venv, installs the package without extras and runs `gradedrel evaluate` in it."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from gradedrel import cli
from gradedrel.core import install

from base_install import (PROJECT, ROOT, absent_modules, base_distributions,
                          run_without_workflow_packages, source_copy,
                          workflow_only_distributions)
from helpers_eval import synthetic_collection, write_trec_qrels, write_trec_run

#: The commands that need the `[workflow]` extra (cli.COMMANDS registers them through
#: cli.workflow_command).
WORKFLOW_COMMANDS = frozenset({"thesaurus", "plans"})
# The light commands (and compare, with its extra alone) checked here end to end; a light
# command added to cli.COMMANDS must be run without the extras' packages somewhere (here, or
# in its own tests through base_install.run_without_workflow_packages) and named here.
RUN_WITHOUT_WORKFLOW = {"evaluate": "test_evaluate_runs_without_the_workflow_packages",
                        # tests/workflow/test_compare_command.py (it needs a finished plan
                        # set): with the [compare] extra, without the workflow's packages
                        "compare": "test_compare_runs_where_the_workflow_packages_cannot_be_imported",
                        "annotate": "test_annotate_runs_without_the_workflow_packages"}
# The import names of the [workflow] extra's own packages: a light command must not even try
# to import them. (Packages they bring may be tried by other code's optional imports:
# numpy.f2py tries charset_normalizer; the command works without them, which is the point.)
# (jsonschema is a base dependency: `evaluate --config` checks its file against the schema.)
WORKFLOW_MODULES = {"snakemake", "pyterrier", "jnius", "ir_datasets", "lxml", "rdata"}


def tried_workflow_modules(report: dict) -> set[str]:
    return {name.split(".")[0] for name in report["attempted"]} & WORKFLOW_MODULES


@pytest.fixture(scope="module")
def small_evaluation(tmp_path_factory) -> tuple[Path, list[str]]:
    """A qrels file with Cranfield-style raw labels, two runs and a config: the arguments of
    an evaluation that exercises every table (significance, bootstrap, standard measures
    through ir_measures and its own ones)."""
    tmp = tmp_path_factory.mktemp("base")
    qrels, run = synthetic_collection(seed=3, n_topics=12, n_docs=120, depth=40)
    write_trec_qrels(qrels.assign(label=qrels["grade"].map({3: 1, 2: 3, 1: 4, 0: -1})),
                     tmp / "qrels.txt", label_column="label")
    write_trec_run(run, tmp / "a.run")
    write_trec_run(run.assign(score=run["score"].to_numpy()[::-1]), tmp / "b.run")
    (tmp / "config.yaml").write_text("evaluation:\n  depth: 30\n  cutoffs: [5, 10, 30]\n"
                                     "  effort_ranks: [10, 30]\n")
    args = ["evaluate", "--qrels", str(tmp / "qrels.txt"), "--grade-map", "1=3,2=3,3=2,4=1,-1=0",
            "--config", str(tmp / "config.yaml"), "--bootstrap",
            "--standard-measures", "nDCG@10;AP(rel=2);RR;Rprec",
            "--measure", "Q(beta=1)", f"SUM/u={tmp / 'a.run'}", f"WSYN/e={tmp / 'b.run'}"]
    return tmp, args


def test_the_base_dependencies_leave_out_the_workflow():
    base = base_distributions()
    assert not {"snakemake", "pyterrier", "python-terrier", "rdata", "pyjnius"} & base, base
    assert "jsonschema" in base  # evaluate --config checks its file against the schema
    # the CG/DCG figures and a shipped reference's judgements: gradedrel compare's extra
    assert not {"matplotlib", "ir-datasets"} & base, base
    assert {"matplotlib", "ir-datasets"} <= base_distributions(("compare",))
    assert {"matplotlib", "ir-datasets"} <= workflow_only_distributions()
    # Holm and Bonferroni are the package's own (NumPy); statsmodels checks them in the tests
    # (the [workflow] extra brings it all the same: PyTerrier requires it)
    assert "statsmodels" not in base
    assert any(item.startswith("statsmodels") for item in
               PROJECT["optional-dependencies"]["test"])
    only = workflow_only_distributions()
    assert {"snakemake", "pyterrier", "pyjnius", "rdata"} <= only
    assert WORKFLOW_MODULES | {"matplotlib"} <= absent_modules()


def test_the_test_extra_brings_the_workflow():
    extras = PROJECT["optional-dependencies"]
    assert "gradedrel[workflow]" in extras["test"]
    assert "gradedrel[compare]" in extras["workflow"]  # the workflow draws the figures


def test_evaluate_runs_without_the_workflow_packages(small_evaluation):
    tmp, args = small_evaluation
    report = run_without_workflow_packages(args + ["--out", str(tmp / "base")])
    assert report["code"] == 0, report["stderr"][-3000:]
    assert not tried_workflow_modules(report) and report["present"] == [], report
    # the same tables as in the full environment, byte for byte
    assert cli.main(args + ["--out", str(tmp / "full")]) == 0
    written = sorted(path.name for path in (tmp / "base").iterdir())
    assert {"per_topic.tsv", "means.tsv", "significance_vs_baseline.tsv",
            "bootstrap_ci.tsv"} <= set(written)
    for name in written:
        if name != "provenance.json":  # names the output folder
            assert (tmp / "base" / name).read_bytes() == (tmp / "full" / name).read_bytes(), name
    means = pd.read_csv(tmp / "base" / "means.tsv", sep="\t")
    assert {"RR", "Rprec", "nDCG@10", "AP(rel=2)", "Q(beta=1)"} <= set(means["measure"])


def test_annotate_runs_without_the_workflow_packages(tmp_path):
    from gradedrel.core import ir_metadata
    from gradedrel.retrieval.runs import write_run

    run = pd.DataFrame({"qid": ["1", "1"], "docno": ["d1", "d2"], "rank": [1, 2],
                        "score": [2.0, 1.0]})
    record = {"schema-version": "0.1", "tag": "auto-BM25-SUM-u"}
    write_run(run, tmp_path / "SUM-u.run", "auto-BM25-SUM-u", ["1"], record=record)
    report = run_without_workflow_packages(["annotate", str(tmp_path / "SUM-u.run")])
    assert report["code"] == 0, report["stderr"][-3000:]
    assert not tried_workflow_modules(report) and report["present"] == [], report
    assert report["stdout"] == ir_metadata.header(record) + \
        (tmp_path / "SUM-u.run").read_text(encoding="utf-8")


def test_evaluate_imports_no_workflow_package_where_they_are_installed(small_evaluation):
    # here every workflow package is installed: sys.modules shows what the command pulls in
    tmp, args = small_evaluation
    report = run_without_workflow_packages(args + ["--out", str(tmp / "watched")], block=False)
    assert report["code"] == 0, report["stderr"][-3000:]
    assert not {name.split(".")[0] for name in report["present"]} & WORKFLOW_MODULES, report


def test_the_watch_sees_a_workflow_import(tmp_path):
    # the check above can fail: a command that loads lxml (the thesaurus) shows it
    report = run_without_workflow_packages(["thesaurus", "--help"], block=False)
    assert report["code"] == 0, report["stderr"]
    assert "lxml" in {name.split(".")[0] for name in report["present"]}


def test_every_light_command_is_run_without_the_workflow_packages():
    light = set(cli.COMMANDS) - WORKFLOW_COMMANDS - cli.COMPARE_COMMANDS
    assert light | cli.COMPARE_COMMANDS == set(RUN_WITHOUT_WORKFLOW), (
        "a command not in WORKFLOW_COMMANDS runs on the base install: run it through "
        "base_install.run_without_workflow_packages and name it in RUN_WITHOUT_WORKFLOW "
        f"(light: {sorted(light)}, checked: {sorted(RUN_WITHOUT_WORKFLOW)})")
    assert WORKFLOW_COMMANDS <= set(cli.COMMANDS)
    tests = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("test_*.py"))
    assert all(f"def {name}(" in tests for name in RUN_WITHOUT_WORKFLOW.values())


@pytest.mark.parametrize("word, extras", [
    *((word, ()) for word in sorted(set(cli.COMMANDS) - WORKFLOW_COMMANDS
                                    - cli.COMPARE_COMMANDS)),
    *((word, ("compare",)) for word in sorted(cli.COMPARE_COMMANDS))])
def test_light_command_help_without_the_workflow_packages(word, extras):
    report = run_without_workflow_packages([word, "--help"], extras=extras)
    assert report["code"] == 0, report["stderr"]
    assert not tried_workflow_modules(report) and report["present"] == [], report
    assert f"usage: gradedrel {word}" in report["stdout"]


def test_help_lists_every_command_without_the_workflow_packages():
    report = run_without_workflow_packages(["--help"])
    assert report["code"] == 0, report["stderr"]
    assert report["present"] == []
    for word in cli.COMMANDS:
        assert word in report["stdout"]
    for word in WORKFLOW_COMMANDS:  # their stand-ins name the extra
        assert "gradedrel[workflow]" in report["stdout"]
    for word in cli.COMPARE_COMMANDS:
        assert "gradedrel[compare]" in report["stdout"]


@pytest.mark.parametrize("argv", [["thesaurus", "lookup", "wing"],
                                  ["plans", "check", "plans.yaml", "requests.tsv"]])
def test_a_workflow_command_names_the_extra_it_needs(argv):
    report = run_without_workflow_packages(argv)
    assert report["code"] == 1
    assert report["stderr"].strip().splitlines() == [
        f"gradedrel {argv[0]}: needs the package '{report['attempted'][0].split('.')[0]}', "
        f"which this installation lacks: {install.extra_command()}"]
    assert report["present"] == []


@pytest.mark.parametrize("argv", [["compare", "a.run", "--against", "cranfield"],
                                  ["compare", "a.run", "--against", "results/x/runs/y/BM25"]])
def test_compare_without_its_extra_names_it_in_one_line(argv):
    # the base install lacks Matplotlib and ir_datasets (issue 43): compare says which extra
    # brings them and how to install it from where this installation came from
    report = run_without_workflow_packages(argv)
    assert report["code"] == 1
    assert report["stderr"].strip().splitlines() == [
        "gradedrel compare: needs the package 'matplotlib', which this installation lacks: "
        f"{install.extra_command(extra='compare')}"]
    assert "[compare]" in install.extra_command(extra="compare")
    assert report["present"] == [] and report["stdout"] == ""


def test_a_missing_package_inside_a_command_is_one_line(monkeypatch, capsys):
    def handler(args):
        raise ModuleNotFoundError("No module named 'lxml'", name="lxml.etree")

    def register_broken(subparsers):
        subparsers.add_parser("broken").set_defaults(handler=handler)

    monkeypatch.setitem(cli.COMMANDS, "broken", register_broken)
    assert cli.main(["broken"]) == 1
    assert capsys.readouterr().err == (
        "gradedrel broken: needs the package 'lxml', which this installation lacks: "
        f"{install.extra_command()}\n")


def test_a_missing_module_of_the_package_itself_is_a_bug_not_a_missing_extra(monkeypatch):
    def register_broken(subparsers):
        raise ModuleNotFoundError("No module named 'gradedrel.nothing'", name="gradedrel.nothing")

    monkeypatch.setitem(cli.COMMANDS, "broken", register_broken)
    with pytest.raises(ModuleNotFoundError):
        cli.main(["broken"])


@pytest.mark.slow
def test_pip_install_without_extras_evaluates(tmp_path, small_evaluation):
    """A fresh venv, `pip install .` (the lock as constraints, so the same versions), then
    the console script: --version, evaluate (the same tables as here), a workflow command."""
    data, args = small_evaluation
    source = source_copy(tmp_path / "source")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python, script = venv / "bin" / "python", venv / "bin" / "gradedrel"
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "-c", str(ROOT / "requirements.lock"),
         str(source)], capture_output=True, text=True, env=env, timeout=1800)
    assert install.returncode == 0, install.stderr[-3000:]
    listed = subprocess.run([str(python), "-m", "pip", "list", "--format=freeze"],
                            capture_output=True, text=True, env=env, check=True).stdout
    installed = {line.split("==")[0].lower().replace("_", "-") for line in listed.split()}
    assert not {"snakemake", "python-terrier", "pyterrier", "rdata", "pyjnius"} & installed, \
        installed
    assert "jsonschema" in installed
    assert "gradedrel" in installed and "ir-measures" in installed
    assert not {"matplotlib", "ir-datasets"} & installed, installed  # the [compare] extra's

    run = lambda *argv: subprocess.run([str(script), *argv], capture_output=True, text=True,
                                       env=env, cwd=tmp_path, timeout=600)
    version = run("--version")
    assert version.stdout.strip() == f"gradedrel {PROJECT['version']}", version.stderr
    evaluated = run(*args, "--out", str(tmp_path / "base"))
    assert evaluated.returncode == 0, evaluated.stderr[-3000:]
    assert "wrote" in evaluated.stdout
    assert cli.main(args + ["--out", str(tmp_path / "full")]) == 0
    for name in ("per_topic.tsv", "means.tsv", "significance_vs_baseline.tsv", "gain_curves.tsv",
                 "bootstrap_ci.tsv"):
        assert (tmp_path / "base" / name).read_bytes() == \
            (tmp_path / "full" / name).read_bytes(), name
    # compare needs its extra: one line naming it, from the folder installed from
    compared = run("compare", "a.run", "--against", "cranfield")
    assert compared.returncode == 1
    assert compared.stderr.strip().splitlines() == [
        "gradedrel compare: needs the package 'matplotlib', which this installation lacks: "
        f"pip install '{source}[compare]'"], compared.stderr
    # a SKOS lookup needs lxml alone, which the base brings
    lookup = run("thesaurus", "lookup", "--path",
                 str(ROOT / "tests/fixtures/thesaurus/mini_skos.rdf"), "wing")
    assert lookup.returncode == 0, lookup.stderr
    assert lookup.stdout.startswith("wings")
    # plans check needs Terrier: the extra is named
    (tmp_path / "plans.yaml").write_text("plans: []\n")
    (tmp_path / "requests.tsv").write_text("qid\tquery\n1\tx\n")
    plans = run("plans", "check", "plans.yaml", "requests.tsv")
    assert plans.returncode == 1
    # the extra from the folder installed from: a command that works as written
    assert plans.stderr.strip().endswith(f"pip install '{source}[workflow]'"), plans.stderr


def test_the_readme_states_the_measured_environment_sizes():
    """The README's sizes are those benchmarks/env_sizes.py measured (its --out file)."""
    import json

    measured = json.loads((ROOT / "benchmarks" / "measured" / "env_sizes.json").read_text())
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    sizes = measured["sizes_mib"]
    assert f"`pip install .`, {sizes['base']} MiB" in readme
    assert f"`pip install .[compare]`, {sizes['compare']} MiB" in readme
    assert f"`pip install .[workflow]`, {sizes['workflow']} MiB" in readme
    assert f"`.venv` is {sizes['setup']} MiB" in readme
