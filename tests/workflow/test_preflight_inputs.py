"""The up-front checks issue 21 added (gradedrel.preflight): every document of a
local file read as the indexer reads it, unless the index was built from that very file;
the workflow's cached thesauri intact."""
import json
import os
import shutil

import yaml

from conftest import TINY
from gradedrel import preflight
from gradedrel.thesaurus import cache
from gradedrel.thesaurus.skos import READER_VERSION, read_skos


def _config(tmp_path):
    shutil.copytree(TINY, tmp_path / "fixture")
    config = yaml.safe_load((tmp_path / "fixture" / "config.yaml").read_text())
    config["results_dir"] = str(tmp_path / "results")
    config["index"] = {"stemmer": "porter", "stopwords": "terrier", "blocks": True}
    config["collections"]["tiny"]["docs"] = str(tmp_path / "fixture" / "docs.jsonl")
    return config


def test_every_document_is_read_unless_the_index_was_built_from_this_file(tmp_path):
    config = _config(tmp_path)
    raw, docs = config["collections"]["tiny"], tmp_path / "fixture" / "docs.jsonl"
    assert preflight.documents_errors("tiny", raw, config) == []
    with open(docs, "a") as handle:  # the 13th document: the old check read only the first
        handle.write('{"docno": "d01", "text": "again"}\n')
    expected = [f"{docs}:13: expected a unique document id; first at line 1; found 'd01'"]
    assert preflight.documents_errors("tiny", raw, config) == expected
    census = tmp_path / "results" / "tiny" / "documents.json"
    census.parent.mkdir(parents=True)
    census.write_text(json.dumps({"options": config["index"]}))
    assert preflight.documents_errors("tiny", raw, config) == []  # the indexer read it so
    os.utime(docs, ns=(census.stat().st_mtime_ns + 10**9,) * 2)   # changed since
    assert preflight.documents_errors("tiny", raw, config) == expected
    os.utime(census, ns=(docs.stat().st_mtime_ns + 10**9,) * 2)
    config["index"] = {**config["index"], "blocks_max": 50}       # other index settings
    assert preflight.documents_errors("tiny", raw, config) == expected


def test_a_corrupt_cached_thesaurus_is_one_line(tmp_path):
    path = tmp_path / "thesauri" / "mini" / f"mini{cache.SUFFIX}"
    cache.write(path, read_skos(TINY / "thesaurus.rdf"), source_sha256="x",
                reader_version=READER_VERSION)
    assert preflight.thesaurus_cache_errors(str(tmp_path), ["mini", "absent"]) == []
    path.write_bytes(path.read_bytes()[:-20])
    (line,) = preflight.thesaurus_cache_errors(str(tmp_path), ["mini"])
    assert line == (f"{path}: a corrupt thesaurus cache (not gzip-compressed JSON: Compressed "
                    "file ended before the end-of-stream marker was reached); delete it: it "
                    "is rebuilt from its source when next needed")
