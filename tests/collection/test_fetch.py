"""collection_fetch's manifest (gradedrel.collection.fetch): what an ir_datasets collection
reads, counted and listed with digests; local-file collections need no fetch."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from gradedrel.collection import fetch
from gradedrel.collection.spec import CollectionSpec

GRADES = {"grade_map": {"1": 1, "0": 0}}


class FakeDataset:
    """Reads its records from a file under the home, as ir_datasets does."""

    def __init__(self, path: Path):
        self.path = path

    def _lines(self):
        with open(self.path, encoding="utf-8") as handle:
            return [line for line in handle.read().splitlines() if line]

    docs_iter = queries_iter = qrels_iter = _lines


def test_manifest_counts_each_part_and_lists_the_files_read_with_sha256(tmp_path):
    home = tmp_path / "home"
    (home / "toy").mkdir(parents=True)
    (home / "toy" / "docs.txt").write_text("d1\nd2\nd3\n")
    (home / "toy" / "queries.txt").write_text("q1\n")
    (home / "toy" / "unused.txt").write_text("never read\n")
    outside = tmp_path / "elsewhere.txt"
    outside.write_text("q1 d1 1\nq1 d2 0\n")
    files = {"toy/docs": home / "toy" / "docs.txt", "toy/queries": home / "toy" / "queries.txt",
             "other": outside}
    spec = CollectionSpec.from_config(
        "toy", {"ir_datasets": {"docs": "toy/docs", "topics": "toy/queries", "qrels": "other"},
                **GRADES})
    manifest = fetch.materialise(spec, home, load=lambda i: FakeDataset(files[i]))
    assert manifest["parts"] == {
        "docs": {"ir_datasets": "toy/docs", "records": 3},
        "topics": {"ir_datasets": "toy/queries", "records": 1},
        "qrels": {"ir_datasets": "other", "records": 2}}
    # only the files read, only those under the home; paths relative to it
    assert [f["path"] for f in manifest["files"]] == ["toy/docs.txt", "toy/queries.txt"]
    assert manifest["files"][0] == {
        "path": "toy/docs.txt", "bytes": 9,
        "sha256": hashlib.sha256(b"d1\nd2\nd3\n").hexdigest()}


def test_a_part_without_records_is_an_error_naming_the_id(tmp_path):
    (tmp_path / "empty.txt").write_text("")
    spec = CollectionSpec.from_config("toy", {"ir_datasets": "toy", **GRADES})
    with pytest.raises(ValueError, match=r"ir_datasets:toy: no docs"):
        fetch.materialise(spec, tmp_path, load=lambda i: FakeDataset(tmp_path / "empty.txt"))


def test_local_files_need_no_fetch_ir_datasets_parts_do(tmp_path):
    local = {"docs": "d.jsonl", "topics": "t.tsv", "qrels": "q.txt", **GRADES}
    assert not fetch.needs_fetch(CollectionSpec.from_config("x", local))
    assert fetch.needs_fetch(CollectionSpec.from_config("x", {"ir_datasets": "cranfield",
                                                               **GRADES}))


def test_cranfield_manifest_has_its_published_sizes():
    """Cranfield as ir_datasets has it: 1,400 documents, 225 queries, 1,837 judgements
    (ir_datasets' documentation of the 'cranfield' dataset), in its three files."""
    from gradedrel.collection import use_ir_datasets_home

    home = Path(os.environ["IR_DATASETS_HOME"])   # tests/conftest.py: CI's seeded copy or .data
    use_ir_datasets_home(str(home))
    spec = CollectionSpec.from_config("cranfield", {"ir_datasets": "cranfield", **GRADES})
    manifest = fetch.materialise(spec, home)
    assert {p: v["records"] for p, v in manifest["parts"].items()} == {
        "docs": 1400, "topics": 225, "qrels": 1837}
    assert [f["path"] for f in manifest["files"]] == [
        "cranfield/docs.txt", "cranfield/qrels.txt", "cranfield/queries.txt"]
