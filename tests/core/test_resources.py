"""Cluster resources that grow with the collection (gradedrel.core.resources)."""
from gradedrel.core import resources


def test_resources_grow_linearly_from_a_floor():
    small = resources.resources("index_collection", 1400)
    large = resources.resources("index_collection", 8_841_823)
    assert small == {"runtime": 11, "mem_mb": 2001}
    assert large == {"runtime": 64, "mem_mb": 8190}
    assert resources.resources("retrieve", 0) == {"runtime": 30, "mem_mb": 1000}
    # a job running three models in turn: three times the time, one model's memory
    assert resources.resources("retrieve", 0, runs=3) == {"runtime": 90, "mem_mb": 1000}


def test_document_counts_come_from_ir_datasets_metadata_or_the_file_size(tmp_path):
    assert resources.documents("cranfield") == 1400
    assert resources.documents("msmarco-passage/trec-dl-2019/judged") == 8_841_823  # a _ref
    docs = tmp_path / "docs.jsonl"
    docs.write_bytes(b"x" * 3000)
    assert resources.documents(None, str(docs)) == 3000 // resources.BYTES_PER_DOCUMENT
    assert resources.documents(None, str(tmp_path / "absent.jsonl")) == 0
    assert resources.documents("no/such/dataset") == 0
