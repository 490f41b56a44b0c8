"""Small Terrier indexes for the retrieval tests, built once per test session."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
TERRIER = {"version": "5.11", "helper_version": "0.0.8"}


def documents(name: str) -> list[dict]:
    with open(FIXTURES / name / "docs.jsonl", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


@lru_cache(maxsize=None)
def index_dir(name: str, root: str) -> Path:
    """Index ``tests/fixtures/{name}/docs.jsonl`` (porter, terrier stopwords, blocks) under ``root``."""
    from gradedrel.core import terrier

    terrier.start(**TERRIER)
    out = Path(root) / name / "index"
    terrier.build_index(documents(name), out, stemmer="porter", stopwords="terrier",
                        blocks=True, max_docno_length=20)
    return out
