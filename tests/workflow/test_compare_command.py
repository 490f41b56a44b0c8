"""`gradedrel compare` on the finished fixture workflow: your runs beside the query types of
``results/tiny/runs/auto/InQuery``, in the paper's tables, figures and a findings summary."""
import random
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
import pytrec_eval
import yaml

from conftest import ROOT, copy_project
from gradedrel.cli import main
from gradedrel.core.io import read_tsv

pytestmark = pytest.mark.workflow

AGAINST = "results/tiny/runs/auto/InQuery"
QUERY_TYPES = ["SUM/u", "SUM/e", "SSYN-C/u", "SSYN-C/e", "WSYN/u", "WSYN/e"]


def shuffled_copy(source, target, seed=3):
    """The run's lines in another order (its ir_metadata header, the '#' lines, kept first):
    trec_eval ranks by score, so it ranks the same."""
    lines = source.read_text().splitlines(keepends=True)
    header = [line for line in lines if line.startswith("#")]
    body = [line for line in lines if not line.startswith("#")]
    random.Random(seed).shuffle(body)
    target.write_text("".join(header + body))
    return target


@pytest.fixture(scope="module")
def compared(finished_project, tmp_path_factory):
    """BM25's baseline run and a shuffled copy of WSYN/e's run compared with the plan set."""
    tmp = tmp_path_factory.mktemp("compare")
    project = finished_project
    shuffled = shuffled_copy(project / AGAINST / "WSYN-e.run", tmp / "shuffled.run")
    out = tmp / "out"
    argv = ["compare", str(project / "results/tiny/baseline/BM25.run"),
            f"WSYN-copy={shuffled}", "--against", str(project / AGAINST), "--out", str(out)]
    return project, out, argv


@pytest.fixture(scope="module")
def printed(compared):
    project, out, argv = compared
    done = subprocess.run([sys.executable, "-c",
                           "import sys; from gradedrel.cli import main; rc = main(sys.argv[1:]);"
                           " print('imported:', sorted(m for m in ('snakemake', 'pyterrier', "
                           "'jnius') if m in sys.modules)); sys.exit(rc)", *argv],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_compare_runs_without_snakemake_or_terrier_and_prints_a_table(printed, compared):
    _, out, _ = compared
    lines = printed.splitlines()
    assert lines[-1] == "imported: []"
    assert lines[0].startswith("AvP (%) on the 3 topics of tiny, auto plans, InQuery")
    rows = [line.split()[0] for line in lines[2:10]]
    assert rows == QUERY_TYPES + ["BM25", "WSYN-copy"]
    assert "BM25: ranks 3 of the 3 topics; 1 other topic of the run left out" in printed
    assert any(line.startswith(f"wrote 29 files to {out}") for line in lines)


def test_the_avp_table_holds_your_rows_and_the_published_numbers(printed, compared):
    project, out, _ = compared
    avp = pd.read_csv(out / "avp.csv", dtype={"topics": str})
    means = read_tsv(out / "evaluation" / "means.tsv")
    published = yaml.safe_load((ROOT / "config/published/jk2000.yaml").read_text())["avp"]
    for level, name in ((1, "1 marginal"), (2, "2 fair"), (3, "3 high")):
        block = avp[avp["level"] == name]
        assert block["exp."].tolist() == ["u", "e", "BM25", "WSYN-copy"]
        for run in ("BM25", "WSYN-copy"):
            mean = means[(means["run"] == run) & (means["measure"] == f"AvP(level={level})")]
            assert block.set_index("exp.").loc[run, "your run"] == \
                pytest.approx(100 * mean["mean"].iloc[0], abs=1e-4)
        for structure in ("SUM", "SSYN-C", "WSYN"):
            for exp in ("u", "e"):
                assert block.set_index("exp.").loc[exp, f"{structure} paper"] == \
                    pytest.approx(published[level][f"{structure}/{exp}"])
    # the shuffled copy ranks as WSYN/e: the same AvP
    wsyn = avp.set_index(["level", "exp."])
    assert wsyn.loc[("3 high", "WSYN-copy"), "your run"] == \
        pytest.approx(wsyn.loc[("3 high", "e"), "WSYN ours"])
    assert "| 3 high | BM25 |" in (out / "avp.md").read_text()


@pytest.mark.parametrize("table", ["means", "per_topic", "gain_curves", "effort", "pr_curves",
                                   "pr_per_topic", "ranked_grades", "coverage"])
def test_the_query_types_evaluate_here_as_in_the_workflow(printed, compared, table):
    """Every per-run table of the evaluation: the query types' lines are the workflow's,
    byte for byte (the same runs, topics, judgements and recorded settings)."""
    project, out, _ = compared
    here = (out / "evaluation" / f"{table}.tsv").read_text().splitlines()
    there = (project / f"results/tiny/evaluation/auto/InQuery/{table}.tsv").read_text()
    ours = [line for line in here[1:] if line.split("\t", 1)[0] in QUERY_TYPES]
    assert here[0] == there.splitlines()[0] and len(ours) > 0
    assert ours == there.splitlines()[1:]


def holm(p):
    """Holm's step-down adjustment, written out (Holm 1979)."""
    order = np.argsort(p)
    adjusted = np.empty(len(p))
    running = 0.0
    for i, j in enumerate(order):
        running = max(running, min(1.0, (len(p) - i) * p[j]))
        adjusted[j] = running
    return adjusted


def test_every_run_is_tested_against_sum_u_with_holm(printed, compared):
    _, out, _ = compared
    table = pd.read_csv(out / "significance.csv")
    for level in (1, 2, 3):
        rows = table[table["measure"] == f"AvP(level={level})"]
        assert rows["run"].tolist() == QUERY_TYPES[1:] + ["BM25", "WSYN-copy"]
        assert set(rows["baseline"]) == {"SUM/u"} and set(rows["correction"]) == {"holm"}
        for column in ("randomisation_p", "t_p"):
            raw = rows[f"{column}_value"].fillna(1.0).to_numpy()
            assert rows[f"{column}_adjusted"].to_numpy() == pytest.approx(holm(raw), abs=1e-5)
    assert "Adjusted (holm) over the 7 runs" in (out / "significance.md").read_text()


def test_the_t_test_against_sum_u_is_scipys_paired_t_test(printed, compared):
    """The raw t-test p of each of your runs against SUM/u is scipy's paired t-test on the
    per-topic AvP of the evaluation (the same topics)."""
    from scipy import stats

    _, out, _ = compared
    table = pd.read_csv(out / "significance.csv")
    per_topic = read_tsv(out / "evaluation" / "per_topic.tsv")
    checked = 0
    for level in (1, 2, 3):
        measure = f"AvP(level={level})"
        wide = per_topic[per_topic["measure"] == measure].pivot(index="qid", columns="run",
                                                                values="value").astype(float)
        for run in ("BM25", "WSYN-copy"):
            row = table[(table["measure"] == measure) & (table["run"] == run)].iloc[0]
            pair = wide[[run, "SUM/u"]].dropna()
            assert row["topics"] == len(pair)
            if (pair[run] - pair["SUM/u"]).std() > 0:
                expected = stats.ttest_rel(pair[run], pair["SUM/u"]).pvalue
                assert row["t_p_value"] == pytest.approx(expected, rel=1e-5)
                checked += 1
    assert checked >= 2


def test_the_figures_are_written(printed, compared):
    _, out, _ = compared
    for curve in ("cg", "dcg_b2", "dcg_b10"):
        png, pdf = out / f"{curve}.png", out / f"{curve}.pdf"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 20_000
        assert pdf.read_bytes()[:5] == b"%PDF-"
        assert f"![{curve}]({curve}.png)" in (out / "compare.md").read_text()


def test_a_run_of_the_plan_set_given_as_yours_reproduces_the_workflows_means(printed,
                                                                              compared):
    """The shuffled copy of WSYN/e's run, compared as a run of yours, has the workflow's
    means.tsv rows of WSYN/e, every measure, to the written digit."""
    project, out, _ = compared
    here = (out / "evaluation" / "means.tsv").read_text().splitlines()
    there = (project / "results/tiny/evaluation/auto/InQuery/means.tsv").read_text().splitlines()
    copy = [line.split("\t", 1)[1] for line in here if line.startswith("WSYN-copy\t")]
    wsyn = [line.split("\t", 1)[1] for line in there if line.startswith("WSYN/e\t")]
    assert len(wsyn) == 66 and copy == wsyn   # 66 measures on the fixture


@pytest.mark.parametrize("level, name", [(1, "1 marginal"), (2, "2 fair"), (3, "3 high")])
def test_your_avp_is_pytrec_evals_average_precision(printed, compared, level, name):
    """AvP at a level (the paper's reading: relevant = judged exactly at the level) is
    trec_eval's AP with those documents relevant, over the topics with one (a topic the run
    does not rank scores zero)."""
    project, out, _ = compared
    qrels = read_tsv(project / "results/tiny/qrels.tsv")
    topics = read_tsv(project / "results/tiny/plans/auto/topics.tsv")["qid"].tolist()
    relevant = {}
    for row in qrels[qrels["qid"].isin(topics)].itertuples():
        relevant.setdefault(row.qid, {})[row.docno] = int(row.grade == level)
    relevant = {q: docs for q, docs in relevant.items() if any(docs.values())}
    run = {}
    for line in (project / "results/tiny/baseline/BM25.run").read_text().splitlines():
        if line.startswith("#"):  # its ir_metadata header
            continue
        qid, _, docno, _, score, _ = line.split()
        if qid in relevant:
            run.setdefault(qid, {})[docno] = float(score)
    scores = pytrec_eval.RelevanceEvaluator(relevant, {"map"}).evaluate(run)
    expected = np.mean([scores[q]["map"] if q in scores else 0.0 for q in relevant])
    avp = pd.read_csv(out / "avp.csv").set_index(["level", "exp."])
    assert avp.loc[(name, "BM25"), "your run"] == pytest.approx(100 * expected, abs=1e-6)
    assert avp.loc[(name, "BM25"), "topics"] == len(relevant)


def test_the_summary_matches_the_findings_report(printed, compared):
    """Its row for the plan set's best expanded strong type against SUM/u is the findings
    report's comparison of the same pair (the same requests, resamples, trials and seed)."""
    project, out, _ = compared
    summary = pd.read_csv(out / "summary.csv")
    assert summary["comparison"].tolist() == [
        "SSYN-C/e - SUM/u", "BM25 - SUM/u", "BM25 - SSYN-C/e", "WSYN-copy - SUM/u",
        "WSYN-copy - SSYN-C/e"]
    verdicts = read_tsv(project / "results/tiny/report/auto/InQuery/verdicts.tsv")
    same = verdicts[(verdicts["comparison"] == "SSYN-C/e - SUM/u")
                    & (verdicts["measure"] == "AvP(level=3)")].iloc[0]
    ours = summary.iloc[0]
    for column in ("estimate", "low", "high", "p_value"):
        mine = {"estimate": "effect (points)"}.get(column, column)
        mine = {"p_value": "randomisation p"}.get(mine, mine)
        assert ours[mine] == pytest.approx(same[column], abs=1e-4), column
    paper = yaml.safe_load((ROOT / "config/published/jk2000.yaml").read_text())["avp"][3]
    assert summary.loc[1, "paper (points)"] == pytest.approx(paper["SSYN-C/e"] - paper["SUM/u"])
    assert summary.loc[1, "paper's"] == "SSYN-C/e - SUM/u"
    assert np.isnan(summary.loc[2, "paper (points)"])
    # the copy ranks as WSYN/e, which ranks as SSYN-C/e on the fixture: no difference
    assert summary.loc[4, ["effect (points)", "low", "high"]].tolist() == [0.0, 0.0, 0.0]


def one_line_error(argv, capsys):
    assert main(argv) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("gradedrel: "), err
    return err[0]


def test_a_missing_plan_set_is_one_line_saying_how_to_make_it(finished_project, tmp_path,
                                                               capsys):
    run = finished_project / "results/tiny/baseline/BM25.run"
    error = one_line_error(["compare", str(run), "--against",
                            str(finished_project / "results/tiny/runs/expert/InQuery"),
                            "--out", str(tmp_path / "out")], capsys)
    assert "expert/InQuery: no such folder" in error
    assert "finished here: auto/BM25, auto/InQuery" in error and "make reproduce" in error
    project = copy_project(finished_project, tmp_path / "project")
    (project / "results/tiny/evaluation/auto/InQuery/provenance.json").unlink()
    error = one_line_error(["compare", str(run), "--against", str(project / AGAINST),
                            "--out", str(tmp_path / "out")], capsys)
    assert "provenance.json: no evaluation of this plan set" in error
    assert not (tmp_path / "out").exists()


def test_a_run_on_other_topics_is_one_line_and_nothing_is_written(finished_project, tmp_path,
                                                                   capsys):
    other = tmp_path / "other.run"
    other.write_text("901 Q0 d01 1 2.0 x\n902 Q0 d02 1 1.0 x\n")
    error = one_line_error(["compare", str(other), "--against",
                            str(finished_project / AGAINST), "--out", str(tmp_path / "out")],
                           capsys)
    assert "other.run: expected a run on the plan set's topics (3 in" in error
    assert "none of its 2 topics (901, 902)" in error
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("item, found", [
    ("my run={run}", "a run label without spaces"),
    ("SUM/u={run}", "a run label that is not one of the plan set's query types"),
    ("{spaced}", "spaced.run:2: expected a TREC run line"),
])
def test_a_label_or_ids_with_spaces_are_refused_in_one_line(finished_project, tmp_path,
                                                            capsys, item, found):
    run = finished_project / "results/tiny/baseline/BM25.run"
    spaced = tmp_path / "spaced.run"
    spaced.write_text("1 Q0 d01 1 2.0 x\n1 Q0 d 02 2 1.0 x\n")  # 'd 02': 7 fields
    error = one_line_error(["compare", item.format(run=run, spaced=spaced), "--against",
                            str(finished_project / AGAINST), "--out", str(tmp_path / "out")],
                           capsys)
    assert found in error
    assert not (tmp_path / "out").exists()


def test_a_failure_while_writing_leaves_no_folder_behind(finished_project, tmp_path,
                                                         monkeypatch):
    from gradedrel.compare import command as compare

    def broken(*args, **kwargs):
        raise RuntimeError("the figures failed")

    monkeypatch.setattr(compare, "draw", broken)
    with pytest.raises(RuntimeError, match="the figures failed"):
        compare.compare({"BM25": finished_project / "results/tiny/baseline/BM25.run"},
                        finished_project / AGAINST, tmp_path / "out")
    assert list(tmp_path.iterdir()) == []     # neither out/ nor its staging folder


def test_a_run_on_some_of_the_topics_is_compared_with_one_warning(finished_project,
                                                                  tmp_path, capsys):
    """A run ranking one of the plan set's three topics: one warning (the evaluation's own
    per-run topic warnings left out), the others score zero, as the evaluation says."""
    some = tmp_path / "some.run"
    lines = (finished_project / "results/tiny/baseline/BM25.run").read_text().splitlines()
    some.write_text("".join(f"{line}\n" for line in lines if line.split()[0] == "1"))
    assert main(["compare", f"one={some}", "--against", str(finished_project / AGAINST),
                 "--out", str(tmp_path / "out")]) == 0
    captured = capsys.readouterr()
    warnings = [line for line in captured.err.splitlines() if "WARNING" in line]
    assert len(warnings) == 1, warnings
    assert "some.run: 2 of the plan set's 3 topics are not in the run and score zero" \
        in warnings[0]
    assert "one: ranks 1 of the 3 topics; 2 not ranked (they score zero)" in captured.out
    means = read_tsv(tmp_path / "out" / "evaluation" / "means.tsv")
    per_topic = read_tsv(tmp_path / "out" / "evaluation" / "per_topic.tsv")
    mine = per_topic[(per_topic["run"] == "one") & (per_topic["measure"] == "AvP(level=2)")]
    assert sorted(mine["value"].astype(float))[:2] == [0.0, 0.0]
    assert means.loc[(means["run"] == "one") & (means["measure"] == "AvP(level=2)"),
                     "mean"].iloc[0] == pytest.approx(mine["value"].astype(float).mean())


def test_compare_runs_where_the_workflow_packages_cannot_be_imported(compared, tmp_path):
    """As on an install with the compare extra alone (`pip install '.[compare]'`): Snakemake,
    PyTerrier and rdata made unimportable, compare runs, attempts none of them, and writes
    the same tables as with them."""
    from base_install import run_without_workflow_packages

    project, out, argv = compared
    base_out = tmp_path / "base"
    report = run_without_workflow_packages(argv[:-1] + [str(base_out)], cwd=ROOT,
                                           extras=("compare",))
    assert report["code"] == 0, report["stderr"][-3000:]
    # none of the workflow's own packages is even tried (ir_datasets: only for a shipped
    # reference's judgements)
    tried = {name.split(".")[0] for name in report["attempted"]}
    assert not tried & {"snakemake", "pyterrier", "jnius", "ir_datasets", "rdata"}, report
    assert report["present"] == [], report
    full = tmp_path / "full"
    assert main(argv[:-1] + [str(full)]) == 0
    for name in ("avp.csv", "significance.csv", "summary.csv"):
        assert (base_out / name).read_bytes() == (full / name).read_bytes(), name
