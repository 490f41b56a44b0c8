"""Topic files are read as written: a header named or not, ids always text (``NA``,
``null``, ``None``, ``nan``, ``0001``, ``1.0`` are topics, not missing values or numbers),
through every reader and on to the evaluation."""
import numpy as np
import pandas as pd
import pytest

from gradedrel.cli import main
from gradedrel.collection import readers
from gradedrel.core.io import read_tsv, write_tsv

IDS = ["NA", "null", "None", "nan", "0001", "1.0"]


@pytest.mark.parametrize("header", ["qid\tquery", "topic\ttext", "qid\ttext", "QID\tText",
                                    None])
def test_topics_tsv_header_is_detected_or_absent(tmp_path, header):
    path = tmp_path / "topics.tsv"
    lines = ([header] if header else []) + [f"{q}\trequest {i}" for i, q in enumerate(IDS)]
    path.write_text("\n".join(lines) + "\n")
    frame = readers.read_topics_tsv(path)
    assert frame["qid"].tolist() == IDS
    assert frame["query"].tolist() == [f"request {i}" for i in range(len(IDS))]


def test_a_topic_line_that_is_not_a_header_stays_a_topic(tmp_path):
    path = tmp_path / "topics.tsv"
    path.write_text("qid\tlift of wings\nNA\tshells\n")  # 'qid' as an id, text not a name
    assert readers.read_topics_tsv(path)["qid"].tolist() == ["qid", "NA"]


def test_read_tsv_keeps_ids_as_text_and_numbers_as_numbers(tmp_path):
    frame = pd.DataFrame({"qid": IDS, "docno": ["NULL", "n/a", "007", "", "x", "1e3"],
                          "value": [0.5, np.nan, 1.0, 2.0, 3.0, 4.0]})
    write_tsv(frame, tmp_path / "t.tsv")
    back = read_tsv(tmp_path / "t.tsv")
    assert back["qid"].tolist() == IDS
    assert back["docno"].tolist() == ["NULL", "n/a", "007", "", "x", "1e3"]
    assert back["value"].dtype == np.float64 and np.isnan(back["value"][1])


@pytest.mark.parametrize("qrels_format", ["trec", "tsv"])
def test_awkward_ids_go_through_to_the_evaluation(tmp_path, qrels_format):
    judged = [(q, f"D{i}{j}", 3 if j == 0 else 1) for i, q in enumerate(IDS) for j in range(2)]
    if qrels_format == "trec":
        qrels = tmp_path / "qrels.txt"
        qrels.write_text("".join(f"{q} 0 {d} {g}\n" for q, d, g in judged))
    else:
        qrels = tmp_path / "qrels.tsv"
        qrels.write_text("qid\tdocno\tlabel\tgrade\n" +
                         "".join(f"{q}\t{d}\t{g}\t{g}\n" for q, d, g in judged))
    run = tmp_path / "r.run"
    run.write_text("".join(f"{q} Q0 D{i}{j} {j + 1} {2.0 - j} t\n"
                           for i, q in enumerate(IDS) for j in range(2)))
    topics = tmp_path / "topics.tsv"
    topics.write_text("topic\ttext\n" + "".join(f"{q}\tx\n" for q in IDS))
    out = tmp_path / "out"
    assert main(["evaluate", "--qrels", str(qrels), "--topics", str(topics),
                 "--out", str(out), f"R={run}"]) == 0
    per_topic = read_tsv(out / "per_topic.tsv")
    assert sorted(set(per_topic["qid"])) == sorted(IDS)
    avp = per_topic[per_topic["measure"] == "AvP(level=3)"].set_index("qid")["value"]
    assert avp.to_dict() == {q: 1.0 for q in IDS}  # each topic's level-3 document first
    means = read_tsv(out / "means.tsv")
    assert means.loc[means["measure"] == "AvP(level=3)", "topics"].tolist() == [len(IDS)]


def test_a_header_named_in_config_is_required_and_skipped(tmp_path):
    path = tmp_path / "topics.tsv"
    path.write_text("Number\tRequest\nNA\tshells\n")  # names detection does not know
    header = readers.topics_header_setting(["number", "request"])
    assert readers.read_topics_tsv(path, header)["qid"].tolist() == ["NA"]
    # detected, the same first line would be a topic named "Number"
    assert readers.read_topics_tsv(path)["qid"].tolist() == ["Number", "NA"]
    path.write_text("qid\tquery\nNA\tshells\n")
    with pytest.raises(readers.InputError, match=r"topics\.tsv:1: .*number<TAB>request"):
        readers.read_topics_tsv(path, header)


def test_no_header_in_config_keeps_a_header_like_first_line_as_a_topic(tmp_path):
    path = tmp_path / "topics.tsv"
    path.write_text("topic\ttext\n0001\tshells\n")
    assert readers.read_topics_tsv(path, readers.topics_header_setting("none"))[
        "qid"].tolist() == ["topic", "0001"]


@pytest.mark.parametrize("value", [["qid"], ["qid", ""], 3, "qid"])
def test_a_bad_topics_header_setting_is_one_clear_error(value):
    with pytest.raises(readers.InputError, match="topics_header"):
        readers.topics_header_setting(value, "config: collections.mine.topics_header")


def test_the_collection_spec_and_the_preflight_take_the_header(tmp_path):
    from gradedrel.collection.spec import CollectionSpec
    from gradedrel import preflight

    topics = tmp_path / "topics.tsv"
    topics.write_text("Number\tRequest\n1\tshells\n")
    raw = {"topics": str(topics), "qrels": "q.txt", "docs": "d.jsonl",
           "grade_map": {"1": 3}, "topics_header": ["Number", "Request"]}
    spec = CollectionSpec.from_config("mine", raw)
    assert spec.topics_header == ("Number", "Request")
    assert [line for line in preflight._topics_errors(spec, "collections.mine")] == []
    raw["topics_header"] = ["qid", "query"]
    problems = preflight._topics_errors(CollectionSpec.from_config("mine", raw),
                                        "collections.mine")
    assert len(problems) == 1 and "topics.tsv:1" in problems[0]
