"""The strict TREC run reader: located errors, duplicates, trec_eval's tie-breaking."""
import numpy as np
import pandas as pd
import pytest
import pytrec_eval

from gradedrel.core.errors import InputError
from gradedrel.retrieval.runs import rank_frame, read_run

from helpers_eval import synthetic_collection, write_trec_run


def _write(tmp_path, text, name="r.run"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_ties_are_broken_by_score_then_document_id_descending(tmp_path):
    path = _write(tmp_path, "q1 Q0 b 1 2.0 t\nq1 Q0 a 2 3.0 t\nq1 Q0 c 3 2.0 t\n"
                            "q1 Q0 aa 4 2.0 t\nq2 Q0 z 1 1 t\n")
    run = read_run(path).to_frame()
    assert run["docno"].tolist() == ["a", "c", "b", "aa", "z"]
    assert run["rank"].tolist() == [1, 2, 3, 4, 1]


def test_tie_order_agrees_with_trec_eval_on_a_run_full_of_ties(tmp_path):
    _, run = synthetic_collection(tie_every=1)  # scores rounded to integers
    one = run[run["qid"] == "1"].sample(frac=1.0, random_state=3)  # file order scrambled
    ranked = rank_frame(one).to_frame()
    # Probe trec_eval's order: with one relevant document, its reciprocal rank is 1/rank.
    for position in (0, 7, 31, 77):
        docno = ranked["docno"].iloc[position]
        evaluator = pytrec_eval.RelevanceEvaluator({"1": {docno: 1}}, {"recip_rank"})
        result = evaluator.evaluate({"1": dict(zip(one["docno"], one["score"]))})
        assert result["1"]["recip_rank"] == pytest.approx(1.0 / (position + 1))


def test_blank_lines_are_allowed_and_rank_column_is_ignored(tmp_path):
    path = _write(tmp_path, "\n1 Q0 d1 7 0.5 t\n\n1 Q0 d2 9 1.5 t\n")
    assert read_run(path).to_frame()["docno"].tolist() == ["d2", "d1"]


SPACED = "1 Q0 d1 1 0.5 t\n1 Q0 d2 2 1.5 t\n2 Q0 d1 1 0.25 u\n"


@pytest.mark.parametrize("text", [
    SPACED, SPACED.replace(" ", "\t"), SPACED.replace(" ", "  "), " " + SPACED,
    SPACED.replace("\n", " \n"), SPACED.replace("\n", "\r\n"), SPACED.replace(" Q0", "\tQ0"),
    SPACED.replace("\n", "\n\n", 1), "\n" + SPACED, SPACED.rstrip("\n"),
    SPACED.replace("\n", " \n", 1), SPACED.replace(" t\n", "  t\n", 1),
])
def test_single_spaced_and_other_whitespace_give_the_same_run(tmp_path, text):
    """Fields separated by single spaces or by any other whitespace: the same run."""
    want = read_run(_write(tmp_path, SPACED, "a.run"))
    got = read_run(_write(tmp_path, text, "b.run"))
    for field in ("topics", "topic", "docno", "score", "doc_code", "vocabulary"):
        assert np.array_equal(getattr(got, field), getattr(want, field)), field


@pytest.mark.parametrize("text, line, expected, found", [
    ("1 Q0 d1 1 0.5 t\n1 Q0 d2 2 high t\n", 2, "a numeric score (field 5)", "high"),
    ("1 Q0 d1 1 0.5 t\n1 Q0 d2 2 0.4 t\textra\n", 2, "(6 fields)", "extra"),
    ("1 Q0 d1 1 0.5 t\n1 Q0 d2  0.4 t\n", 2, "(6 fields)", "1 Q0 d2  0.4 t"),
    # five spaces a line on average, but line 2 has four: refused, on the right line
    ("1 Q0 d1 1 0.5  t\n1 Q0 d2 2 0.4\n", 2, "(6 fields)", "1 Q0 d2 2 0.4"),
    ("1  Q0 d1 1 0.5 t\n1 Q0 d2 2 0.4\n1 Q0 d3 3 0.3 t\n", 2, "(6 fields)", "1 Q0 d2 2 0.4"),
    ("1 Q0 d1 1 0.5 t\n\n1 Q0 d2 2 0.4\n", 3, "(6 fields)", "1 Q0 d2 2 0.4"),
    ("1 Q0 d1 1 0.5 t\n1 Q0 d2 2 0.4 t extra\n", 2, "(6 fields)", "extra"),
    ("1 Q0 d1 1 nan t\n", 1, "a finite score (field 5)", "nan"),
])
def test_malformed_lines_are_errors_with_file_and_line(tmp_path, text, line, expected, found):
    path = _write(tmp_path, text)
    with pytest.raises(InputError) as error:
        read_run(path)
    message = str(error.value)
    assert message.startswith(f"{path}:{line}: expected ")
    assert expected in message and found in message


def test_a_document_twice_in_a_topic_is_an_error_naming_it_and_both_lines(tmp_path):
    path = _write(tmp_path, "1 Q0 d1 1 0.9 t\n2 Q0 d1 1 0.9 t\n1 Q0 d2 2 0.8 t\n"
                            "1 Q0 d1 3 0.1 t\n")
    with pytest.raises(InputError) as error:
        read_run(path)
    assert str(error.value) == (f"{path}:4: expected each document once per topic; "
                                "first at line 1; found 'topic 1 document d1'")


def test_an_empty_run_file_is_an_error(tmp_path):
    with pytest.raises(InputError, match="at least one TREC run line"):
        read_run(_write(tmp_path, "\n\n"))


def test_read_run_round_trips_a_written_run(tmp_path):
    _, run = synthetic_collection()
    path = tmp_path / "s.run"
    write_trec_run(run, path)
    ranked = read_run(path).to_frame()
    expected = rank_frame(run).to_frame()
    pd.testing.assert_frame_equal(ranked, expected)
    assert len(ranked) == len(run)
    # within a topic, scores never increase down the ranking
    for _, group in ranked.groupby("qid", sort=False):
        assert np.all(np.diff(group["score"].to_numpy()) <= 0)


def test_one_long_document_id_does_not_blow_up_memory():
    """Tie-breaking sorts the distinct ids as Python strings, not as a fixed-width numpy
    string array (whose size is distinct ids x longest id: 2,000 ids, one of 5,001
    characters, would take 2,000 x 5,001 x 4 bytes = 40 MB)."""
    import tracemalloc

    n = 2000
    docno = np.array([f"d{i}" for i in range(n - 1)] + ["x" * 5001], dtype=object)
    qid = np.array(["q1"] * n, dtype=object)
    score = np.ones(n)  # all tied: the order is decided by document id alone
    run = pd.DataFrame({"qid": qid, "docno": docno, "score": score})
    tracemalloc.start()
    try:
        ranked = rank_frame(run)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000, f"peak {peak / 1e6:.1f} MB"
    assert list(ranked.docno) == sorted(docno, reverse=True)


HEADER = "# ir_metadata.start\n# schema-version: '0.1'\n# tag: t\n# ir_metadata.end\n"


def test_an_ir_metadata_header_is_skipped_and_its_lines_are_counted(tmp_path):
    run = read_run(_write(tmp_path, HEADER + "q1 Q0 b 1 2.0 t\nq1 Q0 a 2 3.0 t\n"))
    assert run.to_frame()["docno"].tolist() == ["a", "b"]
    # a bad run line is named by its line in the file: 4 header lines, then line 6
    with pytest.raises(InputError) as error:
        read_run(_write(tmp_path, HEADER + "q1 Q0 b 1 2.0 t\nq1 Q0 a 2 x t\n"))
    assert error.value.line == 6
    # a comment line anywhere else is no run line
    with pytest.raises(InputError) as error:
        read_run(_write(tmp_path, "q1 Q0 b 1 2.0 t\n" + HEADER))
    assert error.value.line == 2


def test_a_header_without_its_end_marker_is_one_error_at_line_1(tmp_path):
    with pytest.raises(InputError, match="ir_metadata.end") as error:
        read_run(_write(tmp_path, HEADER.replace("# ir_metadata.end\n", "")
                        + "q1 Q0 b 1 2.0 t\n"))
    assert error.value.line == 1
