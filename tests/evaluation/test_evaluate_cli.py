"""`gradedrel evaluate` end to end: files in, the contract's tidy tables out."""
import re
import ir_measures
import numpy as np
import pandas as pd
import pytest
import pytrec_eval

from gradedrel.cli import main
from gradedrel.evaluation.measures import irm
from gradedrel.evaluation.measures.avp import AvP
from gradedrel.evaluation.measures.jk import JK_DCG

from helpers_eval import synthetic_collection, write_trec_qrels, write_trec_run

CONTRACT = {
    "per_topic": ["run", "qid", "measure", "value"],
    "means": ["run", "measure", "mean", "topics"],
    "pr_curves": ["run", "level", "reading", "recall", "precision", "topics"],
    "gain_curves": ["run", "profile", "kind", "base", "rank", "value", "ideal"],
    "effort": ["run", "profile", "kind", "base", "k", "ideal_at_k", "rank_reached", "reached"],
}
# Cleverdon-style raw labels, as Cranfield's: 1 best
GRADE_MAP = "1=3,2=3,3=2,4=1,-1=0"
RAW_LABEL = {3: 1, 2: 3, 1: 4, 0: -1}


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("eval")
    qrels, run = synthetic_collection(seed=4)
    qrels = qrels.assign(label=qrels["grade"].map(RAW_LABEL))
    write_trec_qrels(qrels, tmp / "qrels.txt", label_column="label")
    rng = np.random.default_rng(0)
    paths = []
    for i, label in enumerate(["SUM/u", "SUM/e", "WSYN/e"]):
        noisy = run.assign(score=run["score"] + rng.normal(0, 0.3 * i, len(run)))
        path = tmp / f"{label.replace('/', '-')}.run"
        write_trec_run(noisy, path)
        paths.append(f"{label}={path}")
    args = ["evaluate", "--qrels", str(tmp / "qrels.txt"), "--grade-map", GRADE_MAP,
            "--standard-measures", "nDCG@10;AP(rel=3)", "--bootstrap"]
    assert main(args + ["--out", str(tmp / "out")] + paths) == 0
    assert main(args + ["--out", str(tmp / "again")] + paths) == 0
    tables = {name: pd.read_csv(tmp / "out" / f"{name}.tsv", sep="\t", dtype={"qid": str})
              for name in ("per_topic", "means", "pr_curves", "pr_per_topic", "gain_curves",
                           "effort",
                           "coverage", "significance_friedman", "significance_posthoc",
                           "significance_vs_baseline", "bootstrap_ci")}
    return tmp, qrels, run, tables


def test_tables_have_the_contract_columns_and_are_byte_identical_on_rerun(evaluated):
    tmp, _, _, tables = evaluated
    for name, columns in CONTRACT.items():
        assert tables[name].columns.tolist() == columns
    for path in sorted((tmp / "out").iterdir()):
        assert path.read_bytes() == (tmp / "again" / path.name).read_bytes(), path.name
    assert not list(tmp.glob("**/*.part"))


def test_means_cover_exactly_the_topics_with_a_recall_base(evaluated):
    _, qrels, _, tables = evaluated
    means = tables["means"].set_index(["run", "measure"])
    for level in (1, 2, 3):
        with_base = qrels[qrels["grade"] == level]["qid"].nunique()
        assert means.loc[("SUM/u", str(AvP(level=level))), "topics"] == with_base
        at_least = qrels[qrels["grade"] >= level]["qid"].nunique()
        assert means.loc[("SUM/u", str(AvP(level=level, reading="atleast"))), "topics"] == at_least
    per_topic = tables["per_topic"]
    rows = per_topic[(per_topic["run"] == "SUM/u") & (per_topic["measure"] == str(AvP(level=3)))]
    assert len(rows) == qrels[qrels["grade"] == 3]["qid"].nunique()  # no row = no value


def test_mean_avp_from_files_equals_trec_eval_map_over_the_same_topics(evaluated):
    tmp, qrels, _, tables = evaluated
    reduced: dict = {}
    for qid, docno, grade in zip(qrels["qid"], qrels["docno"], qrels["grade"]):
        reduced.setdefault(qid, {})[docno] = int(grade == 3)
    with open(tmp / "SUM-u.run") as handle:
        run = pytrec_eval.parse_run(handle)
    theirs = pytrec_eval.RelevanceEvaluator(reduced, {"map"}).evaluate(run)
    defined = qrels[qrels["grade"] == 3]["qid"].unique()
    expected = np.mean([theirs[q]["map"] if q in theirs else 0.0 for q in defined])
    means = tables["means"].set_index(["run", "measure"])
    assert means.loc[("SUM/u", "AvP(level=3)"), "mean"] == pytest.approx(expected, abs=1e-6)
    # ir_measures' AP(rel=3) counts topics without highly relevant documents as 0
    assert means.loc[("SUM/u", "AP(rel=3)"), "topics"] == qrels["qid"].nunique()


def test_missing_and_ignored_topics_are_counted(evaluated):
    _, qrels, run, tables = evaluated
    coverage = tables["coverage"].set_index("run")
    assert coverage.loc["SUM/u", "evaluated_topics"] == qrels["qid"].nunique()
    assert coverage.loc["SUM/u", "missing_from_run"] == 1   # the qrels topic the run lacks
    assert coverage.loc["SUM/u", "ignored_not_in_qrels"] == 1  # run topic 999
    assert "999" not in set(tables["per_topic"]["qid"])


def test_curves_effort_and_significance_are_complete(evaluated):
    _, _, _, tables = evaluated
    gain = tables["gain_curves"]
    assert len(gain) == 3 * 3 * 6 * 100  # runs x profiles x (CG nCG DCG2 nDCG2 DCG10 nDCG10)
    assert set(gain["kind"]) == {"CG", "DCG", "nCG", "nDCG"}
    assert (gain["value"] <= gain["ideal"] + 1e-9).all()
    pr = tables["pr_curves"]
    assert len(pr) == 3 * 3 * 2 * 11
    # the curves are the per-topic interpolated precisions averaged over the defined topics
    per_topic = tables["pr_per_topic"]
    averaged = per_topic.groupby(["run", "level", "reading", "recall"], sort=False)[
        "precision"].agg(["mean", "size"]).reset_index()
    joined = pr.merge(averaged, on=["run", "level", "reading", "recall"])
    assert len(joined) == len(pr)
    assert np.allclose(joined["precision"], joined["mean"], atol=2e-6)
    assert (joined["topics"] == joined["size"]).all()
    effort = tables["effort"]
    assert len(effort) == 3 * 3 * 3  # runs x profiles x (CG, DCG b=2, DCG b=10), k = 10
    reached = effort[effort["reached"]]
    assert (reached["rank_reached"] >= 1).all()
    assert effort.loc[~effort["reached"], "rank_reached"].isna().all()
    friedman = tables["significance_friedman"]
    assert friedman["measure"].tolist() == [str(AvP(level=level)) for level in (1, 2, 3)]
    assert (friedman["df"] == 2).all()
    assert len(tables["significance_posthoc"]) == 3 * 3
    versus = tables["significance_vs_baseline"]
    assert set(versus["run"]) == {"SUM/e", "WSYN/e"} and set(versus["baseline"]) == {"SUM/u"}
    boot = tables["bootstrap_ci"]
    scalar = boot[boot["at"].isna()]
    assert ((scalar["low"] <= scalar["mean"]) & (scalar["mean"] <= scalar["high"])).all()


def test_skip_policy_leaves_missing_topics_out_of_the_means(evaluated, tmp_path):
    tmp, qrels, _, _ = evaluated
    args = ["evaluate", "--qrels", str(tmp / "qrels.txt"), "--grade-map", GRADE_MAP,
            "--missing-topics", "skip", "--out", str(tmp_path), f"A={tmp / 'SUM-u.run'}"]
    assert main(args) == 0
    means = pd.read_csv(tmp_path / "means.tsv", sep="\t").set_index("measure")
    assert means.loc["JK_CG(profile='all')@10", "topics"] == qrels["qid"].nunique() - 1


def test_the_measure_names_parse_back_through_ir_measures(evaluated):
    _, _, _, tables = evaluated
    ours = [m for m in tables["means"]["measure"].unique() if m not in ("nDCG@10", "AP(rel=3)")]
    assert len(ours) > 50
    for name in ours:
        assert str(irm.parse(name)) == name
    parsed = ir_measures.parse_measure("JK_DCG(b=10,profile='3')@10")
    assert isinstance(parsed, irm.GradedMeasure) and parsed.NAME == "JK_DCG"
    assert parsed.ours() == JK_DCG(b=10, profile="3") @ 10


def test_bad_run_exits_1_with_one_line_naming_file_and_line(evaluated, tmp_path, capsys):
    tmp, _, _, _ = evaluated
    bad = tmp_path / "bad.run"
    bad.write_text("1 Q0 D1 1 0.9 t\n1 Q0 D2 2 0.8 t\n1 Q0 D1 3 0.7 t\n")
    code = main(["evaluate", "--qrels", str(tmp / "qrels.txt"), "--grade-map", GRADE_MAP,
                 "--out", str(tmp_path / "out"), str(bad)])
    assert code == 1
    err = capsys.readouterr().err.strip()
    assert err == (f"gradedrel: {bad}:3: expected each document once per "
                   "topic; first at line 1; found 'topic 1 document D1'")
    assert not (tmp_path / "out").exists()


def test_cutoffs_beyond_the_depth_name_the_config_files_line(evaluated, tmp_path, capsys):
    tmp, _, _, _ = evaluated
    config = tmp_path / "eval.yaml"
    config.write_text("evaluation:\n  depth: 100\n  cutoffs: [10, 500]\n")
    code = main(["evaluate", "--qrels", str(tmp / "qrels.txt"), "--grade-map", GRADE_MAP,
                 "--config", str(config), "--out", str(tmp_path / "out"), str(tmp / "SUM-u.run")])
    assert code == 1
    assert capsys.readouterr().err.strip() == (
        f"gradedrel: {config}:3: evaluation.cutoffs: [500] outside 1..depth (100, "
        "evaluation.depth)")
    assert not (tmp_path / "out").exists()


def test_unmapped_qrels_label_is_an_error_with_line(evaluated, tmp_path, capsys):
    tmp, _, _, _ = evaluated
    qrels = tmp_path / "q.txt"
    qrels.write_text("1 0 D1 1\n1 0 D2 9\n")
    code = main(["evaluate", "--qrels", str(qrels), "--grade-map", GRADE_MAP,
                 "--out", str(tmp_path / "out"), str(tmp / "SUM-u.run")])
    assert code == 1
    assert f"{qrels}:2: expected a relevance label in the grade map" in capsys.readouterr().err


def _qrels_tsv(path, rows, header="qid\tdocno\tlabel\tgrade"):
    path.write_text(header + "\n" + "".join("\t".join(map(str, r)) + "\n" for r in rows))
    return path


def test_tsv_qrels_errors_name_the_file_line_not_the_data_row(evaluated, tmp_path, capsys):
    tmp, _, _, _ = evaluated
    run = str(tmp / "SUM-u.run")
    bad_grade = _qrels_tsv(tmp_path / "grade.tsv", [(1, "D1", 1, 3), (1, "D2", 9, 7)])
    assert main(["evaluate", "--qrels", str(bad_grade), "--out", str(tmp_path / "o1"),
                 run]) == 1
    err = capsys.readouterr().err.strip()
    assert err == f"gradedrel: {bad_grade}:3: expected a grade in (0, 1, 2, 3); found '7'"
    twice = _qrels_tsv(tmp_path / "twice.tsv", [(1, "D1", 1, 3), (1, "D2", 4, 1),
                                                (1, "D1", 2, 3)])
    assert main(["evaluate", "--qrels", str(twice), "--out", str(tmp_path / "o2"), run]) == 1
    err = capsys.readouterr().err.strip()
    assert err == (f"gradedrel: {twice}:4: expected one judgement per (topic, document); "
                   "first at line 2; found '1 D1'")
    assert not (tmp_path / "o1").exists() and not (tmp_path / "o2").exists()


def test_grade_map_applies_to_a_tsv_qrels_label_column(evaluated, tmp_path):
    """The same raw labels as TREC qrels and as a TSV give the same tables; the TSV's
    grade column (here: the raw codes, not levels) is replaced by the mapped labels."""
    tmp, qrels, _, tables = evaluated
    tsv = _qrels_tsv(tmp_path / "raw.tsv", qrels[["qid", "docno", "label", "label"]]
                     .itertuples(index=False))
    text = tsv.read_text().replace("\t-1\n", "\t0\n")  # a grade the map would not give
    tsv.write_text(text)
    runs = [f"{label}={tmp / (label.replace('/', '-') + '.run')}"
            for label in ("SUM/u", "SUM/e", "WSYN/e")]
    assert main(["evaluate", "--qrels", str(tsv), "--grade-map", GRADE_MAP,
                 "--standard-measures", "nDCG@10;AP(rel=3)",
                 "--out", str(tmp_path / "out")] + runs) == 0
    for name in ("means", "per_topic"):
        assert (tmp_path / "out" / f"{name}.tsv").read_bytes() == \
            (tmp / "out" / f"{name}.tsv").read_bytes()


def test_grade_map_is_refused_for_a_tsv_without_labels(evaluated, tmp_path, capsys):
    tmp, _, _, _ = evaluated
    tsv = _qrels_tsv(tmp_path / "graded.tsv", [(1, "D1", 3)], header="qid\tdocno\tgrade")
    assert main(["evaluate", "--qrels", str(tsv), "--grade-map", GRADE_MAP,
                 "--out", str(tmp_path / "out"), str(tmp / "SUM-u.run")]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert err.startswith(f"gradedrel: {tsv}:1: expected a header with the columns "
                          "['qid', 'docno', 'label'] (--grade-map maps the raw 'label' column)")


def test_one_line_when_most_qrels_topics_are_in_no_run(evaluated, tmp_path, caplog, capsys):
    tmp, qrels, run, _ = evaluated
    topics = list(pd.unique(qrels["qid"]))
    few = run[run["qid"].isin(topics[:2])]
    path = tmp_path / "few.run"
    write_trec_run(few, path)
    assert main(["evaluate", "--qrels", str(tmp / "qrels.txt"), "--grade-map", GRADE_MAP,
                 "--out", str(tmp_path / "out"), str(path)]) == 0
    # on the terminal, in the workflow's format: UTC timestamp, level, message
    err = [line for line in capsys.readouterr().err.splitlines() if "in none of the runs" in line]
    assert len(err) == 1 and re.match(
        r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ WARNING \d+ of \d+ qrels topics", err[0]), err
    lines = [r.getMessage() for r in caplog.records if "in none of the runs" in r.getMessage()]
    assert lines == [f"{len(topics) - 2} of {len(topics)} qrels topics are in none of the "
                     "runs and score zero on every measure; to evaluate only the topics the "
                     "runs answer, pass --topics FILE (their ids, one per line)"]
    listed = tmp_path / "topics.txt"
    listed.write_text("\n".join(topics[:2]) + "\n")
    assert main(["evaluate", "--qrels", str(tmp / "qrels.txt"), "--grade-map", GRADE_MAP,
                 "--topics", str(listed), "--out", str(tmp_path / "out2"), str(path)]) == 0
    assert len([r for r in caplog.records if "in none of the runs" in r.getMessage()]) == 1
    means = pd.read_csv(tmp_path / "out2" / "means.tsv", sep="\t")
    assert set(means["topics"]) <= {1, 2}


def test_one_blas_thread_only_when_the_user_chose_none():
    from gradedrel.cli import one_blas_thread_unless_chosen

    environ = {"PATH": "/bin"}
    assert one_blas_thread_unless_chosen(environ) is True
    assert environ["OPENBLAS_NUM_THREADS"] == "1"
    for name, value in (("OMP_NUM_THREADS", "4"), ("OPENBLAS_NUM_THREADS", "2"),
                        ("MKL_NUM_THREADS", "3")):
        chosen = {name: value}
        assert one_blas_thread_unless_chosen(chosen) is False
        assert chosen == {name: value}


def test_measure_option_adds_any_registered_measure_to_the_grid(tmp_path, capsys):
    # one topic; ranks 1..6 hold levels 3 0 2 0 0 1; d7 (level 3) is not retrieved
    (tmp_path / "q.txt").write_text("".join(f"1 0 d{i} {g}\n" for i, g in
                                            [(1, 3), (2, 0), (3, 2), (6, 1), (7, 3)]))
    (tmp_path / "r.run").write_text("".join(f"1 Q0 d{i} {i} {10 - i} t\n" for i in range(1, 7)))
    args = ["evaluate", "--qrels", str(tmp_path / "q.txt"), "--out", str(tmp_path / "out"),
            "--measure", "JK_DCG(b=5,profile='3')@20", "--measure", "AvP(level=3)",
            f"A={tmp_path / 'r.run'}"]
    assert main(args) == 0
    printed = capsys.readouterr().out
    means = pd.read_csv(tmp_path / "out" / "means.tsv", sep="\t").set_index("measure")["mean"]
    # b = 5: no discount before rank 5; only level 3 earns gain: the 3 at rank 1
    assert means["JK_DCG(b=5,profile='3')@20"] == pytest.approx(3.0)
    assert means["AvP(level=3)"] == pytest.approx((1 / 1) / 2)
    assert means.index.tolist()[:6] == [  # the grid, then the added
        str(AvP(level=level, reading=reading)) for level in (1, 2, 3)
        for reading in ("exact", "atleast")]
    assert means.index.tolist()[-1] == "JK_DCG(b=5,profile='3')@20"
    assert "JK_DCG(b=5,profile='3')@20" in printed


def test_an_unknown_measure_is_one_line_naming_the_closest(evaluated, tmp_path, capsys):
    tmp, _, _, _ = evaluated
    code = main(["evaluate", "--qrels", str(tmp / "qrels.txt"), "--grade-map", GRADE_MAP,
                 "--out", str(tmp_path / "out"), "--measure", "JK_DGC(b=2)@10",
                 str(tmp / "SUM-u.run")])
    assert code == 1
    assert capsys.readouterr().err == ("gradedrel: --measure: unknown measure "
                                       "'JK_DGC(b=2)@10' (the closest registered: 'JK_DCG')\n")
    assert not (tmp_path / "out").exists()


def test_user_errors_are_one_line_never_a_traceback(evaluated, tmp_path, capsys):
    """Issue 33's hostile inputs to the command: each one line naming the file, exit 1."""
    import gzip

    tmp, _, _, _ = evaluated
    qrels, run = str(tmp / "qrels.txt"), tmp / "SUM-u.run"

    def fails(*args):
        code = main(["evaluate", "--qrels", qrels, "--grade-map", GRADE_MAP, *map(str, args)])
        err = capsys.readouterr().err.strip()
        errors = [line for line in err.splitlines() if line.startswith("gradedrel:")]
        assert code == 1 and "Traceback" not in err and len(errors) == 1, err
        return errors[0]

    topics = tmp_path / "topics.txt"
    topics.write_text("1\n2\n1\n")
    assert fails("--topics", topics, "--out", tmp_path / "a", run) == (
        f"gradedrel: {topics}:3: expected each topic id once; first at line 1; found '1'")
    existing = tmp_path / "existing"
    existing.write_text("")
    refused = (f"gradedrel: {existing}: expected --out: a folder, or a path where one can be "
               "made; found 'a file'")
    assert fails("--out", existing, run) == refused
    assert fails("--out", existing / "under", run) == refused
    assert fails("--out", tmp_path / "b", f"x={tmp_path}") == \
        f"gradedrel: {tmp_path}: Is a directory"
    packed = tmp_path / "packed.run"
    packed.write_bytes(gzip.compress(run.read_bytes()))
    assert fails("--out", tmp_path / "c", packed) == (
        f"gradedrel: {packed}: expected a TREC run as UTF-8 text; found 'a compressed file "
        "(gzip, bzip2 or xz): decompress it first'")
    latin = tmp_path / "latin.run"
    latin.write_bytes(run.read_bytes().split(b"\n", 1)[0] + b"\n1 Q0 caf\xe9 2 0.5 t\n")
    assert fails("--out", tmp_path / "d", latin) == (
        f"gradedrel: {latin}:2: expected a TREC run as UTF-8 text; found \"byte b'\\\\xe9', "
        "not UTF-8 (Latin-1 or another encoding?)\"")
    assert not any((tmp_path / name).exists() for name in "abcd")


def test_a_truncated_thesaurus_file_is_one_line(tmp_path, capsys):
    import gzip

    truncated = tmp_path / "t.json.gz"  # a download cut short
    text = "".join(f'<skos:Concept rdf:about="#c{i}"><skos:prefLabel>w{i * 7919 % 10007}'
                   f"</skos:prefLabel></skos:Concept>\n" for i in range(3000))
    truncated.write_bytes(gzip.compress(text.encode())[:300])
    assert main(["thesaurus", "lookup", "wing", "--path", str(truncated)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"gradedrel: {truncated}: expected a complete thesaurus file")
    assert "truncated?" in err and len(err.splitlines()) == 1
