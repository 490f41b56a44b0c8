"""NFCorpus as config defines it: documents from beir/nfcorpus, requests and judgements from
nfcorpus/test/video, levels 3-2-1 kept — checked against the counts of the shared data README
(level 3: 464, 2: 2,034, 1: 610 judgements over 102 requests; 3,633 documents)."""
from pathlib import Path

import pytest
import yaml

from gradedrel import collection

ROOT = Path(__file__).resolve().parents[2]
RAW = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())["collections"]["nfcorpus"]


@pytest.fixture(scope="module")
def spec():
    return collection.CollectionSpec.from_config("nfcorpus", RAW)


def test_nfcorpus_documents_and_judgements_from_two_ids(spec):
    docnos = [d["docno"] for d in collection.checked_documents(spec, collection.DocumentCensus())]
    topics, qrels = collection.load_topics(spec), collection.load_qrels(spec)
    assembled = collection.assemble(topics, qrels, set(docnos))
    assert len(docnos) == 3633 and len(topics) == 102
    assert qrels["grade"].value_counts().to_dict() == {2: 2034, 1: 610, 3: 464}
    assert assembled.exclusions.empty      # every judged document is among BEIR's documents
    assert len(assembled.topics) == 102


def test_nfcorpus_requests_join_title_and_description(spec):
    topics = collection.load_topics(spec).set_index("qid")["query"]
    assert topics["PLAIN-2430"].startswith("preventing brain loss with b vitamins ? one week on")
    assert "alzheimer ’ s disease" in topics["PLAIN-2430"]
