"""ir_metadata documents (gradedrel.core.ir_metadata): the machine's facts parsed, the
validator's schema, the key names of the ir_metadata checklists, the text round trip;
TREC level qrels; the preflight's ir_datasets id check; compare_trees leaving the commit out."""
import json
import sys

import pandas as pd
import pytest
import yaml

from conftest import ROOT
from gradedrel.collection import trec_qrels_text
from gradedrel.core import ir_metadata as m
from tests import ir_metadata_validator as v
from gradedrel import preflight
from gradedrel.thesaurus import sources

#: Key paths as irgroup/ir_metadata's checklists (docs/metadata/*.md, schema 0.1) spell them.
CHECKLIST = [("platform", "hardware", "cpu", "model"),
             ("platform", "hardware", "cpu", "architecture"),
             ("platform", "hardware", "cpu", "operation mode"),
             ("platform", "hardware", "cpu", "number of cores"),
             ("platform", "hardware", "ram"),
             ("platform", "operating system", "kernel"),
             ("platform", "operating system", "distribution"),
             ("platform", "software", "libraries"),
             ("platform", "software", "retrieval toolkit"),
             ("implementation", "executable", "cmd"),
             ("implementation", "source", "lang"),
             ("implementation", "source", "repository"),
             ("implementation", "source", "commit"),
             ("data", "test collection", "name"),
             ("method", "automatic"), ("method", "score ties"),
             ("method", "indexing", "tokenizer"), ("method", "indexing", "stemmer"),
             ("method", "indexing", "stopwords"), ("method", "retrieval"),
             ("research goal", "venue", "name"), ("research goal", "venue", "year"),
             ("research goal", "publication", "doi"),
             ("research goal", "evaluation", "reported measures"),
             ("research goal", "evaluation", "baseline"),
             ("research goal", "evaluation", "significance test"),
             ("actor", "role"), ("data", "other")]
#: The NASA Thesaurus as config/config.yaml pins it (url and sha256, copied by hand).
NASA = {"source": "skos", "url": "https://example.org/NASA_Thesaurus_Alpha_SKOS.xml.bz2",
        "sha256": "D0C979AA8CE75344E5D6D2459E5E4E4CBEC473B30EFF4281133BEA54772D9102",
        "path": ".data/thesauri/nasa/x.xml.bz2"}


def _document():
    platform = m.platform_of(m.software("3.11.2", "5.11", "17.0.2", versions=lambda name: "1.0"),
                             read=lambda path: {
        "/proc/cpuinfo": "processor\t: 0\nmodel name\t: Intel(R) Xeon(R)  Gold 6144\n",
        "/proc/meminfo": "MemTotal:       32780000 kB\n",
        "/etc/os-release": 'NAME="Debian"\nPRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\n'}[path])
    implementation = m.implementation_section("snakemake", {"commit": "abc", "dirty": False},
                                              "0.1.0")
    census = {"options": {"blocks": True, "stemmer": "porter", "stopwords": "terrier"},
              "terrier": "5.11", "tokeniser": "UTFTokeniser"}
    method = m.method_of_run("BM25", "terrier", {"wmodel": "BM25", "controls": {"c": 0.75}},
                             100, census, {"name": "auto", "automatic": True}, "SUM/u",
                             {"path": "q.tsv", "sha256": "0" * 64, "bytes": 1})
    goal = m.research_goal(["BM25-SUM-u"], ["nDCG@10"], "holm")
    nasa = sources.file_specs(NASA)
    return m.run_record("BM25-SUM-u", "tiny", {}, {}, None, m.other_data("nasa", nasa), method,
                        goal, platform, implementation)


def test_the_machine_facts_are_parsed_from_proc_and_os_release():
    doc = _document()
    assert doc["platform"]["hardware"]["cpu"]["model"] == "Intel(R) Xeon(R) Gold 6144"
    assert doc["platform"]["hardware"]["ram"] == "31 GB"
    assert doc["platform"]["operating system"]["distribution"] == "Debian GNU/Linux 12 (bookworm)"
    assert doc["platform"]["software"]["libraries"]["java"] == ["java==17.0.2",
                                                                "terrier-core==5.11"]
    assert doc["platform"]["software"]["retrieval toolkit"] == ["terrier==5.11",
                                                                "pyterrier==1.0"]


def test_a_run_record_has_every_primad_section_in_the_specs_order():
    doc = _document()
    assert list(doc) == ["schema-version", "run-version", "tag", "platform", "research goal",
                         "implementation", "method", "actor", "data"]
    assert doc["tag"] == "BM25-SUM-u" and doc["method"]["query type"] == "SUM/u"
    assert doc["actor"]["role"] == "reproducer"
    goal = doc["research goal"]["evaluation"]
    assert goal["baseline"] == ["BM25-SUM-u"] and goal["reported measures"][-1] == "nDCG@10"
    assert {t["correction method"] for t in goal["significance test"]} == {"holm"}
    # the thesaurus's file as config pins it, its sha256 in lower case
    assert doc["data"]["other"] == [{
        "name": "nasa thesaurus", "source": NASA["url"],
        "sha256": "d0c979aa8ce75344e5d6d2459e5e4e4cbec473b30eff4281133bea54772d9102"}]
    assert m.other_data(None, None) == [] == m.other_data(None, sources.file_specs(NASA))


def test_a_thesaurus_of_several_files_is_one_entry_per_file():
    mesh = {"source": "mesh", "files": {
        "descriptors": {"url": "u1", "sha256": "a" * 64, "path": "p1"},
        "trees": {"url": "u2", "sha256": "b" * 64, "path": "p2"}}}
    files = sources.file_specs(mesh)
    assert m.other_data("mesh", files) == [
        {"name": "mesh thesaurus (descriptors)", "source": "u1", "sha256": "a" * 64},
        {"name": "mesh thesaurus (trees)", "source": "u2", "sha256": "b" * 64}]


def test_the_paper_is_the_reference_citation_cff_names():
    import yaml

    reference = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    paper = reference["references"][0]
    assert m.PAPER["publication"]["doi"] == f"https://doi.org/{paper['doi']}"
    assert m.PAPER["publication"]["title"] == paper["title"]
    assert m.PAPER["venue"] == {"name": paper["conference"]["name"].split()[0],
                                "year": paper["year"]}
    assert m.PAPER["publication"]["authors"] == [
        f"{a['given-names']} {a['family-names']}" for a in paper["authors"]]


def test_an_evaluation_of_manual_runs_is_not_automatic():
    assert m.method_of_evaluation([], {}, None, None, automatic=False)["automatic"] is False
    assert m.method_of_evaluation([], {}, None, None, automatic=True)["automatic"] is True


def test_a_run_document_follows_the_checklists_key_names_and_validates():
    doc = _document()
    for path in CHECKLIST:
        v._at(doc, path)  # KeyError names the missing key
    assert set(doc) - {"schema-version", "run-version", "tag"} == set(v.SECTIONS)
    assert v.validate(doc, v.RUN_REQUIRED) == []
    assert doc["method"]["retrieval"] == [{"name": "BM25", "method": "terrier:BM25",
                                           "params": {"controls": {"c": 0.75}}, "depth": 100}]


def test_the_validator_names_each_missing_key_and_wrong_type():
    doc = _document()
    del doc["platform"]["hardware"]["cpu"]["model"]
    doc["method"]["automatic"] = "yes"
    doc["data"]["test collection"]["files"] = [{"path": "x", "sha256": "no"}]
    doc["method"]["retrieval"] = [{"method": "BM25"}]
    assert v.validate(doc, v.RUN_REQUIRED) == [
        "ir_metadata: platform → hardware → cpu → model: missing",
        "ir_metadata: method → automatic: expected bool; found str",
        "ir_metadata: data → test collection → files[0]: expected a path and a sha256 "
        "(64 hex digits)",
        "ir_metadata: method → retrieval[0]: expected a mapping with a name"]
    assert v.validate([]) == ["ir_metadata: expected a mapping at the top level"]


def test_a_record_file_is_yaml_between_the_markers_and_reads_back():
    """A record file (a run's, beside it; an evaluation's): YAML between two marker lines
    that a YAML reader takes for comments."""
    doc = _document()
    doc["method"]["plan set"]["note"] = "a # inside, and one at the end #"
    text = m.dump(doc)
    lines = text.splitlines()
    assert lines[0] == "# ir_metadata.start" and lines[-1] == "# ir_metadata.end"
    assert not any(line.startswith("#") for line in lines[1:-1])
    assert yaml.safe_load(text) == json.loads(json.dumps(doc)) == m.load(text)
    assert m.dump(doc) == text
    with pytest.raises(ValueError, match="ir_metadata.end"):
        m.split(text.replace("# ir_metadata.end\n", ""))


def _header_record(text: str):
    """The record in an annotated run's header: its lines between the markers, each without
    its ``# `` (as repro_eval's ``MetadataHandler`` reads them), as YAML."""
    head, _ = m.split(text)
    return yaml.safe_load("\n".join(line[2:] for line in head.splitlines()[1:-1]))


def test_an_annotated_runs_header_is_commented_yaml_between_the_markers_and_reads_back():
    doc = _document()
    doc["method"]["plan set"]["note"] = "a # inside, and one at the end #"
    text = m.header(doc)
    lines = text.splitlines()
    assert lines[0] == "# ir_metadata.start" and lines[-1] == "# ir_metadata.end"
    assert all(line.startswith("# ") for line in lines[1:-1])  # no line but the record's
    assert _header_record(text) == json.loads(json.dumps(doc))
    assert _header_record(text + "1 Q0 d1 1 2.5 BM25-SUM-u\n") == _header_record(text)
    assert yaml.safe_load(text) is None  # all comments: the record file is dump's
    with pytest.raises(ValueError, match="a mapping at the top level"):
        m.load(text)  # load reads record files (dump's)


def test_a_runs_record_is_the_file_beside_it_or_an_annotated_runs_header(tmp_path):
    doc = _document()
    plain, old = tmp_path / "SUM-u.run", tmp_path / "old.run"
    plain.write_text("1 Q0 d1 1 2.5 BM25-SUM-u\n")
    old.write_text(m.header(doc) + plain.read_text())
    with pytest.raises(FileNotFoundError, match=r"SUM-u\.run\.ir-metadata\.yaml: no such file"):
        m.annotated(plain)
    m.record_path(plain).write_text(m.dump(doc))
    assert m.annotated(plain) == old.read_text() == m.annotated(old)


def test_source_is_unknown_outside_a_checkout(tmp_path):
    assert m.source(tmp_path) == {"commit": None, "dirty": None}
    found = m.source(ROOT)
    if found["commit"] is not None:  # a git checkout (a source archive has none)
        assert len(found["commit"]) == 40 and isinstance(found["dirty"], bool)


def test_level_qrels_are_trec_lines_in_the_tables_order():
    qrels = pd.DataFrame({"qid": ["2", "10"], "docno": ["d9", "d1"], "label": ["1", "-1"],
                          "grade": [3, 0]})
    assert trec_qrels_text(qrels) == "2 0 d9 3\n10 0 d1 0\n"


def test_an_unknown_ir_datasets_id_is_one_line_with_the_closest_ids():
    config = {"collections": {"c": {"ir_datasets": "cranfeld"},
                              "n": {"ir_datasets": {"docs": "beir/nfcorpus",
                                                    "topics": "nfcorpus/tst/video"}},
                              "l": {"docs": "x"}}}
    known = lambda: ["cranfield", "beir/nfcorpus", "nfcorpus/test/video", "vaswani"]  # noqa: E731
    assert preflight.ir_datasets_id_errors(config, ["c", "n", "l"], known) == [
        "config: collections.c.ir_datasets: 'cranfeld' is not an ir_datasets id; "
        "did you mean 'cranfield'?",
        "config: collections.n.ir_datasets.topics: 'nfcorpus/tst/video' is not an "
        "ir_datasets id; did you mean 'nfcorpus/test/video'?"]
    assert preflight.ir_datasets_id_errors(config, ["l"], known) == []


def test_without_ir_datasets_no_id_is_checked_at_parse_time(monkeypatch):
    """An environment holding only Snakemake (--lint, the conda route's main process) reads
    the rule files: the ids are left to the fetch job, not reported as unknown."""
    monkeypatch.setitem(sys.modules, "ir_datasets", None)  # as if not installed
    assert preflight.registered_ir_datasets({}) is None
    config = {"collections": {"c": {"ir_datasets": "cranfeld"}}}
    assert preflight.ir_datasets_id_errors(config, ["c"]) == []
    # the same config with the registry at hand is the error line (the check is not lost)
    assert preflight.ir_datasets_id_errors(config, ["c"], lambda: ["cranfield"]) != []


def test_the_registry_knows_the_studys_ids_offline():
    ids = set(preflight.registered_ir_datasets({}))
    assert {"cranfield", "beir/nfcorpus", "nfcorpus/test/video"} <= ids


def test_compare_trees_leaves_the_commit_out(tmp_path):
    sys.path.insert(0, str(ROOT / "tools"))
    import compare_trees

    for name, commit in (("a", "1" * 40), ("b", "2" * 40)):
        folder = tmp_path / name / "results" / "c"
        folder.mkdir(parents=True)
        doc = _document()
        doc["implementation"]["source"]["commit"] = commit
        (folder / m.FILE_NAME).write_text(m.dump(doc))
        (folder / "SUM-u.run").write_text("1 Q0 d1 1 2.5 BM25-SUM-u\n")
        m.record_path(folder / "SUM-u.run").write_text(m.dump(doc))
        (folder / "old.run").write_text(m.header(doc) + "1 Q0 d1 1 2.5 BM25-SUM-u\n")
        (folder / "x.provenance.json").write_text(
            json.dumps({"step": "retrieve", "source": {"commit": commit, "dirty": False}}))
    assert compare_trees.compare(tmp_path / "a", tmp_path / "b")["different"] == []
    (tmp_path / "b" / "results" / "c" / "x.provenance.json").write_text('{"step": "other"}')
    run = tmp_path / "b" / "results" / "c" / "SUM-u.run"
    run.write_text(run.read_text().replace("2.5", "2.4"))
    assert compare_trees.compare(tmp_path / "a", tmp_path / "b")["different"] == [
        "results/c/SUM-u.run", "results/c/x.provenance.json"]


def test_a_collection_of_several_ir_datasets_subsets_is_named_whole():
    """The fresh NFCorpus testbed: topics and qrels from two subsets, documents from one."""
    out = m.test_collection(
        "nfcorpus-fresh", {"docs": "beir/nfcorpus",
                           "topics": ["nfcorpus/test/video", "nfcorpus/dev/video"],
                           "qrels": ["nfcorpus/test/video", "nfcorpus/dev/video"]}, {}, [])
    assert out["topics"] == "ir_datasets:nfcorpus/test/video + ir_datasets:nfcorpus/dev/video"
    assert out["documents"] == "ir_datasets:beir/nfcorpus"
    assert out["ir_datasets"]["topics"] == ["nfcorpus/test/video", "nfcorpus/dev/video"]
    assert m.dump(out)   # YAML can write it
