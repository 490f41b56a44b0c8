"""`gradedrel compare --against REFERENCE`: a reference evaluation (gradedrel.compare.reference)
made from the finished fixture plan set gives, file for file, what a comparison against the
plan set's runs gives; judgements other than the reference's are refused; the shipped
references are complete and name project files that exist."""
import filecmp
import json
import shutil

import pandas as pd
import pytest

from gradedrel.cli import main
from gradedrel.core.errors import InputError
from gradedrel.core.project import project_file
from gradedrel.compare import reference
from gradedrel.compare.command import compare

pytestmark = pytest.mark.workflow

AGAINST = "results/tiny/runs/auto/InQuery"
SAME = ["avp.csv", "significance.csv", "summary.csv", "compare.md", "cg.png", "dcg_b2.pdf",
        *(f"evaluation/{n}.tsv" for n in ("means", "significance_vs_baseline",
                                          "significance_friedman", "significance_posthoc",
                                          "gain_curves", "coverage"))]


def make_reference(project, out, qrels=None):
    """The fixture plan set's reference, its judgements read from ``qrels`` (default the
    fixture's own file)."""
    settings = {"qrels": str(qrels or project / "fixture/qrels.txt"),
                "grade_map": {"1": 3, "2": 3, "3": 2, "4": 1, "-1": 0}}
    root = project / "results/tiny"
    return reference.build(root / "evaluation/auto/InQuery", project / AGAINST,
                           root / "plans/auto/topics.tsv", root / "qrels.tsv", "tiny",
                           settings, ["SUM/u", "SUM/e", "SSYN-C/u", "SSYN-C/e", "WSYN/u",
                                      "WSYN/e"],
                           [str(project / "config/config.yaml"),
                            str(project / "fixture/config.yaml")], out)


@pytest.fixture(scope="module")
def both(finished_project, tmp_path_factory):
    """The baseline run compared against the plan set's runs and against its reference."""
    tmp = tmp_path_factory.mktemp("reference")
    project = finished_project
    made = make_reference(project, tmp / "ref")
    run = str(project / "results/tiny/baseline/BM25.run")
    config = ["--config", str(project / "fixture/config.yaml")]
    assert main(["compare", run, "--against", str(project / AGAINST),
                 "--out", str(tmp / "runs"), *config]) == 0
    assert main(["compare", run, "--against", str(made), "--out", str(tmp / "ref-out")]) == 0
    return project, tmp, made


def test_a_comparison_against_the_reference_is_the_one_against_the_runs(both):
    _, tmp, made = both
    for name in SAME:
        assert filecmp.cmp(tmp / "runs" / name, tmp / "ref-out" / name, shallow=False), name
    manifest = json.loads((made / "reference.json").read_text())
    assert manifest["plan_set"] == "auto" and manifest["model"] == "InQuery"
    # the reference keeps only the tested measures' per-topic values, at full precision
    per_topic = pd.read_csv(made / "per_topic.tsv", sep="\t")
    assert set(per_topic["measure"]) == {f"AvP(level={lv})" for lv in (1, 2, 3)}
    workflow = pd.read_csv(both[0] / "results/tiny/evaluation/auto/InQuery/per_topic.tsv",
                           sep="\t")
    joined = per_topic.merge(workflow, on=["run", "qid", "measure"], suffixes=("", "_w"))
    assert len(joined) == len(per_topic)
    assert (joined["value"] - joined["value_w"]).abs().max() <= 5e-7   # the workflow's 6 dp
    recorded = json.loads((tmp / "ref-out/provenance.json").read_text())
    assert recorded["reference"]["judgements_sha256"] == manifest["judgements_sha256"]


def test_other_judgements_are_refused_before_anything_is_written(both, tmp_path):
    project, tmp, _ = both
    lines = (project / "fixture/qrels.txt").read_text().splitlines(keepends=True)
    changed = tmp_path / "qrels.txt"
    first = lines[0].split()
    first[3] = "4" if first[3] != "4" else "3"          # one judgement at another level
    changed.write_text(" ".join(first) + "\n" + "".join(lines[1:]))
    made = make_reference(project, tmp_path / "ref")
    manifest = json.loads((made / "reference.json").read_text())
    manifest["judgements"]["qrels"] = str(changed)
    (made / "reference.json").write_text(json.dumps(manifest))
    with pytest.raises(InputError, match="the judgements the reference was evaluated with"):
        compare({"BM25": project / "results/tiny/baseline/BM25.run"}, made, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_the_fingerprint_is_of_the_levels_not_of_order_or_raw_labels():
    a = pd.DataFrame({"qid": ["1", "1", "2"], "docno": ["d1", "d2", "d1"], "grade": [3, 0, 2],
                      "label": ["1", "-1", "3"]})
    b = a.iloc[::-1].assign(label=["x", "y", "z"])
    assert reference.judgements_fingerprint(a, ["1", "2"]) == \
        reference.judgements_fingerprint(b, ["2", "1"])
    assert reference.judgements_fingerprint(a, ["1"]) != \
        reference.judgements_fingerprint(a, ["1", "2"])
    assert reference.judgements_fingerprint(a.assign(grade=[3, 1, 2]), ["1", "2"]) != \
        reference.judgements_fingerprint(a, ["1", "2"])


@pytest.mark.parametrize("name", ["cranfield", "nfcorpus"])
def test_the_shipped_references_are_whole(name):
    found = reference.find(name)
    assert found is not None and name in reference.packaged()
    topics = pd.read_csv(found.folder / "topics.tsv", sep="\t", dtype=str)["qid"]
    per_topic = found.table("per_topic")
    assert list(dict.fromkeys(per_topic["run"])) == found.query_types
    assert len(found.query_types) == 6
    assert set(per_topic["qid"]) <= set(topics)
    means = found.table("means")
    for run in found.query_types:            # the per-topic values average to the means
        for measure, group in per_topic[per_topic["run"] == run].groupby("measure"):
            mean = means[(means["run"] == run) & (means["measure"] == measure)]
            assert group["value"].mean() == pytest.approx(mean["mean"].iloc[0], abs=1e-12)
            assert len(group) == mean["topics"].iloc[0]
    for path in found.manifest["config_files"]:
        assert project_file(path).is_file(), path


def test_an_unknown_reference_names_the_shipped_ones(tmp_path, capsys):
    assert main(["compare", str(tmp_path / "x.run"), "--against", "nosuch"]) != 0
    error = capsys.readouterr().err
    assert "cranfield" in error and "nfcorpus" in error


def test_the_reference_tool_checks_the_shipped_ones_against_results(tmp_path):
    # tools/make_reference.py --check compares every file byte for byte: a changed table is
    # found (the shipped reference copied, one value changed)
    shipped = reference.PACKAGED / "cranfield"
    copy = tmp_path / "cranfield"
    shutil.copytree(shipped, copy)
    import importlib.util
    spec = importlib.util.spec_from_file_location("make_reference",
                                                  project_file("tools/make_reference.py"))
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert tool.differences(shipped, copy) == []
    text = (copy / "means.tsv").read_text().splitlines(keepends=True)
    parts = text[1].split("\t")
    parts[2] = "0.5"
    text[1] = "\t".join(parts)
    (copy / "means.tsv").write_text("".join(text))
    assert tool.differences(shipped, copy) == ["means.tsv"]
