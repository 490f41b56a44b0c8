"""Issue 20 (items 3, 5, 6), 32 (item 3) and 43 (item 1) on the fixture: an ir_metadata
record beside every run file (the run file plain TREC) and in every evaluation folder,
valid and with true checksums; the TREC level qrels beside qrels.tsv; a wrong ir_datasets
id stopping the dry run in one line."""
import shutil

import ir_measures
import pandas as pd
import pytest
import yaml

from conftest import TINY, run_snakemake
from gradedrel.core import ir_metadata
from gradedrel.core.io import sha256_of
from tests import ir_metadata_validator as validator

pytestmark = pytest.mark.workflow


def test_every_run_file_and_evaluation_folder_has_valid_ir_metadata(finished_project):
    results = finished_project / "results" / "tiny"
    run_files = sorted((results / "runs" / "auto").glob("*/*.run"))
    evaluation_files = sorted((results / "evaluation").glob(f"*/*/{ir_metadata.FILE_NAME}"))
    assert not list((results / "runs").glob(f"*/*/{ir_metadata.FILE_NAME}"))  # one per run
    assert sorted({p.parent.name for p in run_files}) == ["BM25", "InQuery"]
    assert len(run_files) == 12 and len(evaluation_files) == 3  # auto × 2 models, the baseline
    for path in run_files + [results / "baseline" / "BM25.run"]:
        # the run file: six columns a line and nothing else, tagged as its record says
        lines = path.read_text(encoding="utf-8").splitlines()
        assert lines and all(len(line.split()) == 6 for line in lines)
        record = yaml.safe_load(ir_metadata.record_path(path).read_text(encoding="utf-8"))
        assert {line.split()[5] for line in lines} == {record["tag"]}
    for path in run_files:
        doc = ir_metadata.load(ir_metadata.record_path(path).read_text(encoding="utf-8"))
        assert validator.validate(doc, validator.RUN_REQUIRED) == []
        assert doc["tag"] == f"auto-{path.parent.name}-{path.stem}"
        assert doc["method"]["query type"].replace("/", "-") == path.stem
        for record in [doc["method"]["queries"]] + doc["data"]["test collection"]["files"]:
            assert sha256_of(finished_project / record["path"]) == record["sha256"]
        assert doc["method"]["retrieval"][0]["name"] == path.parent.name
        assert doc["method"]["indexing"]["stemmer"] == "porter"
        assert doc["method"]["plan set"]["name"] == "auto" and doc["method"]["automatic"]
        # the thesaurus: its file's true sha256 (what the workflow checked before reading it)
        [thesaurus] = doc["data"]["other"]
        assert thesaurus["sha256"] == sha256_of(finished_project / "fixture" / "thesaurus.rdf")
        assert doc["research goal"]["evaluation"]["baseline"] == ["auto-InQuery-SUM-u",
                                                                  "auto-BM25-SUM-u"]
        assert [t.split("==")[0] for t in doc["platform"]["software"]["retrieval toolkit"]] \
            == ["terrier", "pyterrier"]
        # a copy of the project outside git: the commit is unknown, said so
        assert doc["implementation"]["source"]["commit"] is None
    baseline = ir_metadata.load(ir_metadata.record_path(results / "baseline" / "BM25.run")
                                .read_text(encoding="utf-8"))
    assert validator.validate(baseline, validator.RUN_REQUIRED) == []
    assert baseline["tag"] == "baseline-BM25" and baseline["method"]["automatic"] is True
    assert baseline["data"]["other"] == []  # no thesaurus
    # the study's research goal; the plain baseline is tested against no baseline run
    assert baseline["research goal"]["evaluation"]["baseline"] == []
    def but_baseline(goal):
        return goal | {"evaluation": goal["evaluation"] | {"baseline": None}}

    assert but_baseline(baseline["research goal"]) == but_baseline(doc["research goal"])
    for path in evaluation_files:
        doc = ir_metadata.load(path.read_text(encoding="utf-8"))
        assert yaml.safe_load(path.read_text(encoding="utf-8")) == doc  # a YAML file
        assert validator.validate(doc, validator.EVALUATION_REQUIRED) == []
        assert doc["method"]["automatic"] is True  # the auto plan set, the baseline
        evaluation = doc["method"]["evaluation"]
        assert evaluation["relevance levels"] == [1, 2, 3]
        assert "AvP(level=3)" in evaluation["measures"]
        parts = [f.get("part") for f in doc["data"]["test collection"]["files"]]
        assert parts == ["docs", "topics", "qrels", "qrels (mapped)", "qrels (mapped, TREC)"]
        for record in [r["run"] for r in doc["runs"]] + doc["data"]["test collection"]["files"]:
            assert sha256_of(finished_project / record["path"]) == record["sha256"]
    provenance = (results / "runs" / "auto" / "BM25" / "SUM-u.provenance.json").read_text()
    assert '"source"' in provenance and '"sha256"' in provenance


def test_the_level_qrels_hold_qrels_tsv_and_trec_readers_read_them(finished_project):
    results = finished_project / "results" / "tiny"
    table = pd.read_csv(results / "qrels.tsv", sep="\t", dtype=str, keep_default_na=False)
    text = (results / "qrels.levels.txt").read_text(encoding="utf-8")
    assert text == "".join(f"{q} 0 {d} {g}\n" for q, d, g in
                           zip(table["qid"], table["docno"], table["grade"]))
    read = [(q.query_id, q.doc_id, q.relevance)
            for q in ir_measures.read_trec_qrels(str(results / "qrels.levels.txt"))]
    assert read == [(q, d, int(g)) for q, d, g in
                    zip(table["qid"], table["docno"], table["grade"])]


def test_a_misspelled_ir_datasets_id_stops_the_dry_run_in_one_line(tmp_path):
    shutil.copytree(TINY, tmp_path / "fixture")
    config = yaml.safe_load((tmp_path / "fixture" / "config.yaml").read_text())
    tiny = config["collections"]["tiny"]
    for key in ("docs", "topics", "qrels"):
        del tiny[key]
    tiny["ir_datasets"] = "cranfeld"
    (tmp_path / "run.yaml").write_text(yaml.safe_dump(config))
    result = run_snakemake(tmp_path, "-n", configfile=tmp_path / "run.yaml")
    assert result.returncode == 1, result.stdout[-2000:] + result.stderr[-2000:]
    lines = [line for line in (result.stdout + result.stderr).splitlines()
             if line.startswith("gradedrel:")]
    assert lines == ["gradedrel: config: collections.tiny.ir_datasets: 'cranfeld' is not an "
                     "ir_datasets id; did you mean 'cranfield'?"]
    assert "Traceback" not in result.stdout + result.stderr
    assert not (tmp_path / "results").exists()
