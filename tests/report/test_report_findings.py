"""The findings report of one plan set and model, from files: the assessment on a small
synthetic evaluation and its Markdown."""
import numpy as np
import pandas as pd

from gradedrel.evaluation.comparisons import comparisons_table
from gradedrel.evaluation.measures.effort import RequestCurves
from gradedrel.report import assessment, design, markdown
from gradedrel.report.published import load
from gradedrel.report.tables import Table

from conftest import ROOT
from helpers_eval import gain_vectors_of_runs

PROFILES = {"all": [1, 2, 3], "2+3": [2, 3], "3": [3]}
TYPES = ["SUM/u", "SUM/e", "SSYN-C/u", "SSYN-C/e", "WSYN/u", "WSYN/e"]
DESIGN = design.load(ROOT / "config" / "design" / "jk2000.yaml")


def _files(tmp_path, n=12):
    rng = np.random.default_rng(0)
    qrels, per_topic, runs = [], [], {}
    for q in range(1, n + 1):
        qrels += [(str(q), f"d{q}_{g}", g) for g in (1, 2, 3)]
    for t in TYPES:
        lines = []
        for q in range(1, n + 1):
            order = [f"d{q}_3", "x", f"d{q}_2", f"d{q}_1"] if t == "WSYN/e" else \
                ["x", "y", f"d{q}_1", f"d{q}_2", f"d{q}_3"]
            lines += [f"{q} Q0 {d} {i + 1} {10 - i} t" for i, d in enumerate(order)]
            for level in (1, 2, 3):
                per_topic.append((t, str(q), f"AvP(level={level})", rng.uniform(0, 1)))
        path = tmp_path / f"{t.replace('/', '-')}.run"
        path.write_text("\n".join(lines) + "\n")
        runs[t] = str(path)
    return (pd.DataFrame(per_topic, columns=["run", "qid", "measure", "value"]), runs,
            pd.DataFrame(qrels, columns=["qid", "docno", "grade"]), [str(q) for q in range(1, n + 1)])


def _evaluated(tmp_path, runs, qrels, topics, depth=20):
    """The runs through the evaluation (gradedrel evaluate's one code path): its directory,
    with the judged rankings and recall bases the findings' effort reads."""
    from gradedrel.evaluation.files import evaluate_files
    from gradedrel.evaluation.settings import Settings

    out = tmp_path / "evaluation"
    evaluate_files(runs, qrels.assign(label=qrels["grade"].astype(str)),
                   Settings(depth=depth, cutoffs=(10, depth)), out, topics, bootstrap=False)
    return out


def _recall_base(tmp_path, qrels):
    """The collection's recall_base.tsv of ``qrels`` (the workflow writes it once)."""
    from gradedrel.collection.testbed import recall_base

    path = tmp_path / "recall_base.tsv"
    recall_base(qrels, pd.DataFrame({"qid": sorted(set(qrels["qid"]))})).to_csv(
        path, sep="\t", index=False)
    return path


def _assessed(tmp_path):
    """The findings of the synthetic AvP values and of the runs' evaluation (effort, DCG)."""
    per_topic, runs, qrels, topics = _files(tmp_path)
    paper = load(ROOT / "config" / "published" / "jk2000.yaml")
    out = _evaluated(tmp_path, runs, qrels, topics, depth=50)
    evaluated = pd.read_csv(out / "per_topic.tsv", sep="\t", dtype={"qid": str})
    per_topic = pd.concat([per_topic, evaluated[evaluated["measure"].str.startswith("JK_DCG")]])
    effort = RequestCurves.read(out / "ranked_grades.tsv", _recall_base(tmp_path, qrels),
                                PROFILES, {1: 1, 2: 2, 3: 3},
                                50, DESIGN.query_types)
    # the evaluation stage's numbers (rule evaluate_comparisons), read by the findings
    numbers = comparisons_table(per_topic, effort, DESIGN)
    return assessment.assess_files(numbers, pd.read_csv(out / "effort.tsv", sep="\t"),
                                   pd.read_csv(out / "gain_curves.tsv", sep="\t",
                                               dtype={"profile": str}), paper, DESIGN), paper


def test_the_findings_from_the_evaluation_files_equal_those_from_the_runs(tmp_path):
    """The gain vectors the findings rebuild from ranked_grades.tsv and recall_base.tsv are
    those of the runs and the qrels (the report's former second evaluation)."""
    from gradedrel.retrieval.runs import read_run

    per_topic, runs, qrels, topics = _files(tmp_path)
    out = _evaluated(tmp_path, runs, qrels, topics)
    from gradedrel.evaluation.measures import ranked_grades
    from gradedrel.evaluation.measures.ranked_grades import vectors_by_profile
    grades = ranked_grades.read(out / "ranked_grades.tsv", "ranked_grades")
    recall = ranked_grades.read(_recall_base(tmp_path, qrels), "recall_base")
    used = PROFILES
    ours = vectors_by_profile(grades, recall, used, {1: 1, 2: 2, 3: 3}, 20, TYPES)
    theirs = gain_vectors_of_runs({t: read_run(runs[t]) for t in TYPES}, qrels,
                                  topics, used, {1: 1, 2: 2, 3: 3}, 20)
    for profile in used:
        assert np.array_equal(ours[1][profile], theirs[1][profile])
        for t in TYPES:
            assert np.array_equal(ours[0][profile][t], theirs[0][profile][t])


def test_assess_files_and_write(tmp_path):
    (comparisons, verdicts), paper = _assessed(tmp_path)
    effort = comparisons[comparisons["part"] == "proportional effort, profile 3"].iloc[0]
    # WSYN/e puts the level-3 document first (50 % of the ideal's 3 reached at rank 1),
    # SUM/u fifth: the effort ratio is 1/5 for every request, so its interval is degenerate
    assert effort["ranks"] == "1 vs 5" and effort["estimate"] == 0.2
    assert effort["low"] == effort["high"] == 0.2
    # the DCG advantage is the evaluation's JK_DCG@50: WSYN/e's 3 at rank 1 (and 2 at 3,
    # 1 at 4) against SUM/u's 1, 2, 3 at ranks 3, 4, 5 (b = 2: divided by log2 of the rank)
    dcg = comparisons[comparisons["measure"] == "JK_DCG(b=2,profile='2+3')@50"].iloc[0]
    wsyn = 3 + 2 / np.log2(3)
    sum_u = 2 / np.log2(4) + 3 / np.log2(5)
    assert abs(dcg["estimate"] - (wsyn - sum_u)) < 1e-5
    assert set(comparisons["test_of_record"]) == {"randomisation", "friedman", ""}
    assert verdicts["verdict"].iloc[3].startswith("holds")
    out = {k: tmp_path / f"{k}.tsv" for k in ("verdicts", "findings", "primary")}
    assessment.write_assessment(comparisons, verdicts, out["verdicts"], out["findings"],
                              out["primary"])
    primary = pd.read_csv(out["primary"], sep="\t")
    assert primary["comparison"].tolist() == ["WSYN/e - SUM/u"]
    assert len(pd.read_csv(out["verdicts"], sep="\t")) == len(comparisons)


def test_findings_markdown_sections(tmp_path):
    (comparisons, verdicts), paper = _assessed(tmp_path)
    empty = Table(pd.DataFrame({"a": [1]}), "t", [], {})
    text = markdown.findings_markdown("c, expert plans", "InQuery", comparisons, verdicts,
                                      empty, empty, paper, {"collection": "ours"}, {})
    assert text.startswith("# The four findings of Järvelin & Kekäläinen (SIGIR 2000): c, expert")
    for section in ("## Verdicts", "## How our setting differs", "## Reproduction measures",
                    "## Stratified AvP beside the paper's"):
        assert section in text
    assert text.count("| 2 | primary | WSYN/e - SUM/u |") == 1
