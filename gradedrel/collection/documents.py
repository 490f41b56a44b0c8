"""A collection's documents, checked (unique ids, counted empties) on their way to the index."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

from gradedrel.collection import readers
from gradedrel.core.errors import InputError
from gradedrel.collection.judgements import _ir_dataset
from gradedrel.collection.spec import CollectionSpec


def iter_documents(spec: CollectionSpec) -> Iterator[tuple[str, int, dict]]:
    """Documents as ``(source, position, {"docno", "text"})``, in collection order."""
    if spec.ir_datasets_id("docs"):
        dataset = _ir_dataset(spec, "docs")
        where = f"ir_datasets:{spec.ir_datasets_id('docs')} docs"
        for number, doc in enumerate(dataset.docs_iter(), start=1):
            missing = [f for f in spec.doc_text_fields if not hasattr(doc, f)]
            if missing:
                raise InputError(where, number, f"document fields {list(spec.doc_text_fields)}",
                                 f"missing {missing}")
            text = "\n".join(str(getattr(doc, f) or "") for f in spec.doc_text_fields)
            yield where, number, {"docno": str(doc.doc_id), "text": text}
        return
    fmt = spec.docs_format or ("jsonl" if spec.docs.endswith((".jsonl", ".jsonl.gz")) else "trec")
    if fmt == "jsonl":
        records = readers.iter_docs_jsonl(spec.docs, spec.doc_id_field, spec.doc_text_fields)
    else:
        records = readers.iter_docs_trec(spec.docs)
    for number, record in records:
        yield spec.docs, number, record


def document_count(spec: CollectionSpec) -> int | None:
    """How many documents the collection holds, where its source says so without a pass
    (ir_datasets' ``docs_count``; None for a local file): the total of the indexing progress."""
    if spec.ir_datasets_id("docs"):
        count = _ir_dataset(spec, "docs").docs_count()
        return int(count) if count else None
    return None


@dataclass
class DocumentCensus:
    """What a pass over the documents found: ids, and the empty ones."""

    docnos: list[str] = field(default_factory=list)
    empty: list[str] = field(default_factory=list)
    max_docno_length: int = 0


DOCNO_MAX_LENGTH = 64  # the width of Terrier's docno meta field


def checked_documents(spec: CollectionSpec, census: DocumentCensus,
                      max_docno_length: int = DOCNO_MAX_LENGTH) -> Iterator[dict]:
    """Yield documents for indexing, checking ids as they pass.

    A duplicate, missing or over-long document id is an :class:`InputError` at
    its line. An empty document is kept (the collection's size is what it is)
    and counted.
    """
    first_seen: dict[str, tuple[str, int]] = {}
    for source, number, record in iter_documents(spec):
        docno = record["docno"]
        if not docno:
            raise InputError(source, number, "a non-empty document id")
        if len(docno) > max_docno_length:
            raise InputError(source, number,
                             f"a document id of at most {max_docno_length} characters", docno)
        if docno in first_seen:
            raise InputError(source, number,
                             f"a unique document id; first at line {first_seen[docno][1]}", docno)
        first_seen[docno] = (source, number)
        census.docnos.append(docno)
        census.max_docno_length = max(census.max_docno_length, len(docno))
        if not record["text"].strip():
            census.empty.append(docno)
        yield record
