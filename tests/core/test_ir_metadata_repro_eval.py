"""The runs' ir_metadata records read by repro_eval (the reader the ir_metadata project
ships; the ``test`` extra and requirements.lock hold it): every record of a fixture run
reads back as written, the run lines are the run, and its MetadataAnalyzer sorts runs by
the PRIMAD sections that differ from a reference run's."""
import json

import pandas as pd
from repro_eval.metadata import MetadataAnalyzer, MetadataHandler

from gradedrel.core import ir_metadata as m
from gradedrel.retrieval.runs import read_run, write_run

from test_ir_metadata import _document


def _write(path, doc, scores):
    run = pd.DataFrame({"qid": ["1", "1", "2"], "docno": ["d1", "d2", "d1"],
                        "rank": [1, 2, 1], "score": scores})
    write_run(run, path, tag=doc["tag"], topic_order=["1", "2"], header=m.dump(doc))


def test_repro_eval_reads_every_record_of_a_fixture_run(tmp_path):
    doc = _document()
    path = tmp_path / "SUM-u.run"
    _write(path, doc, [2.5, 1.5, 0.5])
    read = MetadataHandler(str(path)).get_metadata()
    assert read == json.loads(json.dumps(doc))
    assert MetadataHandler.read_metadata(str(path)) == m.load(path.read_text())
    # the run lines are the run, to repro_eval and to this project's reader
    assert MetadataHandler.strip_metadata(str(path)) == {"1": {"d1": 2.5, "d2": 1.5},
                                                         "2": {"d1": 0.5}}
    assert read_run(path).to_frame()["docno"].tolist() == ["d1", "d2", "d1"]


def test_repro_eval_analyzes_the_primad_sections_that_differ(tmp_path):
    reference = _document()
    other_query_type = _document()
    other_query_type["tag"] = "BM25-WSYN-e"
    other_query_type["method"]["query type"] = "WSYN/e"
    other_thesaurus = json.loads(json.dumps(other_query_type))
    other_thesaurus["data"]["other"] = m.other_data("mesh", {"file": {"url": "u",
                                                                      "sha256": "c" * 64}})
    folder = tmp_path / "runs"
    folder.mkdir()
    _write(folder / "SUM-u.run", reference, [2.5, 1.5, 0.5])
    _write(folder / "WSYN-e.run", other_query_type, [3.0, 1.0, 0.25])
    _write(folder / "WSYN-e.mesh.run", other_thesaurus, [3.0, 1.0, 0.25])
    found = MetadataAnalyzer(str(folder / "SUM-u.run")).analyze_directory(str(folder))
    # P R I M A D, upper case where the section differs: the method (the query type);
    # the method and the data (the thesaurus)
    assert dict(found) == {"priMad": [str(folder / "WSYN-e.run")],
                           "priMaD": [str(folder / "WSYN-e.mesh.run")]}
