"""The runs' ir_metadata records read by repro_eval (the reader the ir_metadata project
ships; the ``test`` extra and requirements.lock hold it). A run's record is the file beside
it (issue 43): ``MetadataHandler.read_metadata`` reads it as it read an annotated run's
header, and so does ``read_metadata_template`` (the file is YAML); ``gradedrel annotate``
makes the annotated run, whose lines are the run, and whose folder repro_eval's
MetadataAnalyzer sorts by the PRIMAD sections that differ from a reference run's."""
import json

import pandas as pd
from repro_eval.metadata import MetadataAnalyzer, MetadataHandler

from gradedrel.cli import main
from gradedrel.core import ir_metadata as m
from gradedrel.retrieval.runs import read_run, write_run

from test_ir_metadata import _document


def _write(path, doc, scores):
    run = pd.DataFrame({"qid": ["1", "1", "2"], "docno": ["d1", "d2", "d1"],
                        "rank": [1, 2, 1], "score": scores})
    write_run(run, path, tag=doc["tag"], topic_order=["1", "2"], record=doc)


def test_repro_eval_reads_the_record_beside_a_fixture_run(tmp_path):
    doc = _document()
    path = tmp_path / "SUM-u.run"
    _write(path, doc, [2.5, 1.5, 0.5])
    record = str(m.record_path(path))
    assert record == str(tmp_path / "SUM-u.run.ir-metadata.yaml")
    written = json.loads(json.dumps(doc))
    assert MetadataHandler.read_metadata(record) == written
    assert MetadataHandler.read_metadata_template(record) == written
    assert MetadataHandler(str(path), metadata_path=record).get_metadata() == written
    assert MetadataHandler.read_metadata(str(path)) is None  # the run file: the run only


def test_the_annotated_run_is_the_record_and_the_run_to_repro_eval(tmp_path, capsys):
    doc = _document()
    path = tmp_path / "SUM-u.run"
    _write(path, doc, [2.5, 1.5, 0.5])
    assert main(["annotate", str(path)]) == 0
    annotated = tmp_path / "SUM-u.annotated.run"
    annotated.write_text(capsys.readouterr().out, encoding="utf-8")
    assert MetadataHandler(str(annotated)).get_metadata() == json.loads(json.dumps(doc))
    # the run lines are the run, to repro_eval and to this project's reader
    assert MetadataHandler.strip_metadata(str(annotated)) == {"1": {"d1": 2.5, "d2": 1.5},
                                                              "2": {"d1": 0.5}}
    assert read_run(annotated).to_frame()["docno"].tolist() == ["d1", "d2", "d1"]
    # repro_eval's own writer, given the record file, writes what annotate writes
    MetadataHandler(str(path), metadata_path=str(m.record_path(path))).write_metadata(
        run_path=str(tmp_path / "by_repro_eval.run"))
    assert MetadataHandler.read_metadata(str(tmp_path / "by_repro_eval.run")) == \
        MetadataHandler.read_metadata(str(annotated))
    assert MetadataHandler.strip_metadata(str(tmp_path / "by_repro_eval.run")) == \
        MetadataHandler.strip_metadata(str(annotated))


def test_repro_eval_analyzes_the_primad_sections_that_differ(tmp_path):
    reference = _document()
    other_query_type = _document()
    other_query_type["tag"] = "auto-BM25-WSYN-e"
    other_query_type["method"]["query type"] = "WSYN/e"
    other_thesaurus = json.loads(json.dumps(other_query_type))
    other_thesaurus["tag"] = "mesh-BM25-WSYN-e"
    other_thesaurus["data"]["other"] = m.other_data("mesh", {"file": {"url": "u",
                                                                      "sha256": "c" * 64}})
    runs, folder = tmp_path / "runs", tmp_path / "annotated"
    runs.mkdir()
    _write(runs / "SUM-u.run", reference, [2.5, 1.5, 0.5])
    _write(runs / "WSYN-e.run", other_query_type, [3.0, 1.0, 0.25])
    _write(runs / "WSYN-e.mesh.run", other_thesaurus, [3.0, 1.0, 0.25])
    assert main(["annotate", *map(str, sorted(runs.glob("*.run"))), "--out", str(folder)]) == 0
    assert sorted(p.name for p in folder.iterdir()) == ["SUM-u.run", "WSYN-e.mesh.run",
                                                         "WSYN-e.run"]
    found = MetadataAnalyzer(str(folder / "SUM-u.run")).analyze_directory(str(folder))
    # P R I M A D, upper case where the section differs: the method (the query type);
    # the method and the data (the thesaurus)
    assert dict(found) == {"priMad": [str(folder / "WSYN-e.run")],
                           "priMaD": [str(folder / "WSYN-e.mesh.run")]}
