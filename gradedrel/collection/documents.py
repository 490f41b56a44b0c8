"""A collection's documents, checked (ids, length, counted empties) on their way to the index."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Iterator, Mapping

from gradedrel.collection import readers
from gradedrel.core import text as terrier_text
from gradedrel.core.errors import InputError, once
from gradedrel.collection.judgements import _ir_datasets
from gradedrel.collection.spec import CollectionSpec


def iter_documents(spec: CollectionSpec) -> Iterator[tuple[str, int, dict]]:
    """Documents as ``(source, position, {"docno", "text"})``, in collection order."""
    if spec.ir_datasets_id("docs"):
        (docs_id, dataset), = _ir_datasets(spec, "docs")  # the documents: always one id
        where = f"ir_datasets:{docs_id} docs"
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
        (_, dataset), = _ir_datasets(spec, "docs")
        count = dataset.docs_count()
        return int(count) if count else None
    return None


@dataclass
class DocumentCensus:
    """What a pass over the documents found: ids, and the empty ones."""

    docnos: list[str] = field(default_factory=list)
    empty: list[str] = field(default_factory=list)


DOCNO_MAX_LENGTH = 64  # the width of Terrier's docno meta field


@dataclass
class PositionLimit:
    """How many of a document's indexed tokens get a position of their own.

    Terrier's block indexer numbers the indexed tokens of a document (stopwords not
    counted) 0, 1, … up to ``blocks.max`` (config ``index.blocks_max``; Terrier's default
    100000) and gives every later token that last position: a document of more than
    ``blocks_max + 1`` indexed tokens would have phrases matched at wrong places and a
    term's tf larger than its positions (which the posting arrays refuse). Such a
    document is refused before indexing.
    """

    blocks_max: int
    #: Terrier's stopword list, or a function giving it when first needed (None: not
    #: known, and then a document is refused only by the indexer, which knows it)
    stopwords: "frozenset[str] | Callable[[], frozenset[str] | None] | None"

    @property
    def tokens(self) -> int:
        """The most indexed tokens a document may have."""
        return self.blocks_max + 1

    def indexed_tokens(self, text: str) -> int | None:
        """The document's indexed tokens when they may exceed :attr:`tokens` (None when
        they cannot, or cannot be counted): tokenised as Terrier's UTF tokeniser does,
        stopwords removed. ``n`` tokens need ``2n - 1`` characters, so a shorter text is
        not tokenised at all."""
        if len(text) < 2 * (self.tokens + 1) - 1:
            return None
        runs = token_runs(text)
        if sum(runs.values()) <= self.tokens:  # at most that many tokens, kept or not
            return None
        if callable(self.stopwords):
            self.stopwords = self.stopwords()
        if self.stopwords is None:
            return None
        return indexed_token_count(runs, self.stopwords)

    def check(self, text: str, docno: str, source: str, number: int) -> None:
        """An :class:`InputError` at the document's line when it is too long."""
        count = self.indexed_tokens(text)
        if count is not None and count > self.tokens:
            raise InputError(
                source, number,
                f"a document of at most {self.tokens} indexed tokens, not {count} (Terrier "
                f"records term positions up to blocks.max = {self.blocks_max}: raise config "
                "index.blocks_max; docs/retrieval.md, \"The index\")", docno)


def token_runs(text: str) -> Counter:
    """Each run of token characters in ``text`` (:mod:`gradedrel.core.text`'s pattern),
    counted (one C pass: a long document has few distinct runs)."""
    return Counter(terrier_text._RUN.findall(text))


def indexed_token_count(runs: Counter, stopwords: frozenset[str]) -> int:
    """The tokens Terrier indexes from these runs (:func:`token_runs`): those its
    tokeniser keeps (:func:`gradedrel.core.text.tokenise`'s rules, lower-cased) that are
    not stopwords — the document length Terrier records."""
    return sum(count for run, count in runs.items()
               if terrier_text._rejection(run) is None and run.lower() not in stopwords)


def position_limit(index: Mapping, stopwords) -> PositionLimit | None:
    """The limit the config's ``index`` section sets (None without positions:
    ``blocks: false``); ``stopwords``: Terrier's list or a function giving it
    (:func:`gradedrel.core.terrier.stopword_list`), used when ``index.stopwords`` is
    ``terrier``."""
    from gradedrel.core.terrier import BLOCKS_MAX

    if not index.get("blocks", True):
        return None
    words = stopwords if index.get("stopwords", "terrier") == "terrier" else frozenset()
    return PositionLimit(int(index.get("blocks_max") or BLOCKS_MAX), words)


def checked_documents(spec: CollectionSpec, census: DocumentCensus,
                      limit: PositionLimit | None = None) -> Iterator[dict]:
    """Yield documents for indexing, checking ids as they pass.

    A duplicate, missing or over-long document id, an id with whitespace or a control
    character (it could not stand in a TREC run line), and a document longer than
    ``limit`` are an :class:`InputError` at its line. An empty document is kept (the
    collection's size is what it is) and counted.
    """
    seen: dict[str, int] = {}
    for source, number, record in iter_documents(spec):
        docno = record["docno"]
        if not docno:
            raise InputError(source, number, "a non-empty document id")
        readers.check_id(docno, "document id", source, number)
        if len(docno) > DOCNO_MAX_LENGTH:
            raise InputError(source, number,
                             f"a document id of at most {DOCNO_MAX_LENGTH} characters", docno)
        if limit is not None:
            limit.check(record["text"], docno, source, number)
        once(seen, docno, source, number, "a unique document id", docno)
        census.docnos.append(docno)
        if not record["text"].strip():
            census.empty.append(docno)
        yield record
