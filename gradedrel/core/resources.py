"""What a job asks a cluster for, as a function of the collection's size.

A fixed ``mem_mb``/``runtime`` per rule either wastes a cluster on a small collection or
kills the jobs of a large one (MS MARCO passages: 8.8 M documents). The rules whose cost
grows with the collection ask :func:`resources` instead, with the number of documents
:func:`documents` estimates before anything is downloaded or indexed (a dry run can plan
them). The linear models are calibrated on the scale measurements of benchmarks/README.md
("Scale": synthetic Zipf collections of 200k and 1M documents, 41 indexed tokens per
document, idle 2-core machine) with a safety factor of about 3 on time and 2 on memory,
and a floor for small collections (docs/cluster.md, "A large collection"):

| rule | measured at 1M documents | asked for N million documents |
|---|---|---|
| index_collection | 104 s wall, peak 1.3 GB (200k: 26 s, 1.1 GB) | 10 + 6 N min, 2000 + 700 N MB |
| index_arrays | 7.8 s, peak 184 MB | 10 + 2 N min, 1000 + 150 N MB |
| plan_requests, syn_statistics | reads the posting arrays: seconds at 200k | 20 + 2 N min, 1000 + 350 N MB |
| retrieve (per model), baseline_run | 600 queries in 67 s (InQuery) / 115 s (BM25) at load 13 | 30 + 5 N min, 1000 + 400 N MB |

Pure functions of the document count; the count itself comes from ir_datasets' own
metadata (no download) or, for a local file, from its size.
"""
from __future__ import annotations

import json
import math
import os
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path

#: rule -> (runtime minutes at 0, per million documents; memory MB at 0, per million)
MODELS = {
    "index_collection": (10, 6, 2000, 700),
    "index_arrays": (10, 2, 1000, 150),
    "plan_requests": (20, 2, 1000, 350),
    "syn_statistics": (20, 2, 1000, 350),
    "retrieve": (30, 5, 1000, 400),
    "baseline_run": (30, 5, 1000, 400),
}
#: Bytes per document assumed for a local file (an over-estimate of the count: MS MARCO
#: passages average about 350 bytes, Cranfield's abstracts 1,100).
BYTES_PER_DOCUMENT = 300


def resources(rule: str, documents: int, runs: int = 1) -> dict[str, int]:
    """``{"runtime": minutes, "mem_mb": MB}`` for one job of ``rule`` on ``documents``
    documents, doing the calibrated work ``runs`` times in turn (``retrieve``: one per
    model; the memory is one run's)."""
    time0, time_per, mem0, mem_per = MODELS[rule]
    millions = max(documents, 0) / 1e6
    return {"runtime": int(math.ceil(runs * (time0 + time_per * millions))),
            "mem_mb": int(math.ceil(mem0 + mem_per * millions))}


@lru_cache(maxsize=1)
def _ir_datasets_metadata() -> dict:
    """ir_datasets' shipped metadata (document counts per dataset id), read as a file:
    importing ir_datasets here would fix its cache paths in the Snakemake process."""
    spec = find_spec("ir_datasets")
    if spec is None or not spec.submodule_search_locations:
        return {}
    path = Path(list(spec.submodule_search_locations)[0]) / "etc" / "metadata.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def documents(docs_id: str | None = None, docs_file: str | None = None) -> int:
    """The document count as known before indexing: ir_datasets' metadata for an id
    (following its references), else the local file's size over
    :data:`BYTES_PER_DOCUMENT` (0 when neither is known)."""
    metadata, seen = _ir_datasets_metadata() if docs_id else {}, set()
    while docs_id and docs_id not in seen:
        seen.add(docs_id)
        docs = (metadata.get(docs_id) or {}).get("docs") or {}
        if "count" in docs:
            return int(docs["count"])
        docs_id = docs.get("_ref")
    if docs_file and os.path.exists(docs_file):
        return int(os.path.getsize(docs_file) / BYTES_PER_DOCUMENT)
    return 0
