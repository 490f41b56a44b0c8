"""Issue 43: a run file as the workflow writes it (``runs.write_run``) is a TREC run as
written: pytrec_eval's ``parse_run``, ``ir_measures.read_trec_run`` and PyTerrier's
``pt.io.read_results`` read it as it is, every row, and our reader reads the same rows. Its
ir_metadata record is the file beside it; an annotated run (the layout of older results,
``gradedrel annotate``'s) is still read by our reader, and refused by theirs."""
import ir_measures
import pandas as pd
import pyterrier as pt
import pytest
import pytrec_eval

from gradedrel.cli import main
from gradedrel.core import ir_metadata
from gradedrel.retrieval.runs import read_run, write_run

TAG = "expert-InQuery-WSYN-e"
#: Topics in the plan set's order (not sorted), ties, a score of many digits, a non-ASCII id.
RUN = pd.DataFrame({"qid": ["10", "10", "10", "2", "2", "7"],
                    "docno": ["d3", "d1", "dé", "d1", "d2", "d9"],
                    "rank": [1, 2, 3, 1, 2, 1],
                    "score": [3.14159265358979, 2.5, 2.5, -1.0, -2.25, 1e-12]})
TOPIC_ORDER = ["10", "2", "7"]
RECORD = {"schema-version": "0.1", "tag": TAG, "method": {"query type": "WSYN/e"}}


def expected_rows() -> list[tuple]:
    """``(qid, docno, rank, score, tag)`` as the run should hold them: topics in the plan
    set's order, each topic's rows by rank, scores at 10 significant digits."""
    order = {q: i for i, q in enumerate(TOPIC_ORDER)}
    rows = sorted(RUN.itertuples(index=False), key=lambda r: (order[r.qid], r.rank))
    return [(r.qid, r.docno, r.rank, float(f"{r.score:.10g}"), TAG) for r in rows]


@pytest.fixture
def written(tmp_path):
    path = tmp_path / "WSYN-e.run"
    write_run(RUN, path, tag=TAG, topic_order=TOPIC_ORDER, record=RECORD)
    return path


def test_the_run_is_six_columns_and_its_record_is_beside_it(written):
    lines = written.read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(RUN) and all(len(line.split()) == 6 for line in lines)
    assert not any(line.startswith("#") for line in lines)
    beside = written.parent / "WSYN-e.run.ir-metadata.yaml"
    assert ir_metadata.record_path(written) == beside
    assert ir_metadata.load(beside.read_text(encoding="utf-8")) == RECORD


def test_pytrec_eval_ir_measures_and_pyterrier_read_the_rows_written(written):
    rows = expected_rows()
    with open(written, encoding="utf-8") as handle:
        assert pytrec_eval.parse_run(handle) == {
            q: {d: s for q2, d, _, s, _ in rows if q2 == q} for q in TOPIC_ORDER}
    assert [(r.query_id, r.doc_id, r.score) for r in ir_measures.read_trec_run(str(written))] \
        == [(q, d, s) for q, d, _, s, _ in rows]
    frame = pt.io.read_results(str(written))
    assert list(frame.itertuples(index=False, name=None)) == rows  # qid docno rank score name
    # ours: the same rows, ranked as trec_eval ranks them (score, then docno descending)
    ours = read_run(written).to_frame()
    assert sorted(zip(ours["qid"], ours["docno"], ours["score"])) == \
        sorted((q, d, s) for q, d, _, s, _ in rows)
    assert ours[ours["qid"] == "10"]["docno"].tolist() == ["d3", "dé", "d1"]


def test_an_annotated_run_is_read_by_our_reader_and_refused_by_theirs(written, capsys):
    annotated = written.parent / "annotated.run"
    assert main(["annotate", str(written)]) == 0
    annotated.write_text(capsys.readouterr().out, encoding="utf-8")
    assert annotated.read_text(encoding="utf-8") == \
        ir_metadata.header(RECORD) + written.read_text(encoding="utf-8")
    ours, plain = read_run(annotated).to_frame(), read_run(written).to_frame()
    pd.testing.assert_frame_equal(ours, plain)
    with open(annotated, encoding="utf-8") as handle, pytest.raises(ValueError):
        pytrec_eval.parse_run(handle)
    with pytest.raises(ValueError, match="expected 6"):
        list(ir_measures.read_trec_run(str(annotated)))


def test_a_tag_that_would_split_the_line_is_refused(tmp_path):
    with pytest.raises(ValueError, match=r"a tag with whitespace .*'my run'"):
        write_run(RUN, tmp_path / "r.run", tag="my run", topic_order=TOPIC_ORDER)
    assert not (tmp_path / "r.run").exists()


def test_annotate_says_in_one_line_what_it_lacks(written, tmp_path, capsys):
    bare = tmp_path / "bare.run"
    bare.write_text(written.read_text(encoding="utf-8"), encoding="utf-8")
    for argv, line in (
            ([str(bare)], f"gradedrel: {bare}.ir-metadata.yaml: no such file (the run's "
                          f"ir_metadata record), and {bare} has no '# ir_metadata.start' header"),
            ([str(written), str(written)], "gradedrel: --out: expected a folder for the "
                                           "annotated copies of several runs; found '2 runs "
                                           "and no --out'"),
            ([str(written), "--out", str(tmp_path)], f"gradedrel: {written}: expected --out: "
                                                     "a folder other than the run's; found "
                                                     "'the run'")):
        assert main(["annotate", *argv]) == 1
        assert capsys.readouterr().err.strip() == line
    assert written.read_text(encoding="utf-8").startswith("10 Q0 d3 1 ")  # not overwritten
