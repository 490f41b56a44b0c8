"""A test collection with graded judgements: documents, topics (requests) and qrels.

A collection is declared in config either by an ``ir_datasets`` id or by local
files, always with an explicit grade map (see :mod:`gradedrel.grades`).
:func:`assemble` reconciles topics and qrels and says what it excluded and why:
nothing is dropped silently.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Mapping

import pandas as pd

from . import readers
from .errors import InputError
from .grades import LEVEL_NAMES, LEVELS, GradeMap


#: The settings of ``collections.<c>`` that the documents (and so the index) depend on.
DOCUMENT_KEYS = ("ir_datasets", "docs", "docs_format", "doc_id_field", "doc_text_fields")
#: The settings that topics and judgements depend on.
JUDGEMENT_KEYS = ("ir_datasets", "topics", "topics_format", "qrels", "topic_field", "grade_map")


def settings(raw: Mapping, keys: tuple[str, ...]) -> dict:
    """Only the settings ``keys`` of a collection's config (those present), so that a
    step receives, and is re-run for, exactly what it reads."""
    return {k: raw[k] for k in keys if k in raw}


def local_files(raw: Mapping, keys: tuple[str, ...]) -> dict[str, str]:
    """The local files (docs, topics, qrels) among ``keys`` that a collection names."""
    return {k: raw[k] for k in ("docs", "topics", "qrels") if k in keys and raw.get(k)}


@dataclass(frozen=True)
class CollectionSpec:
    """What config says about one collection."""

    name: str
    grade_map: GradeMap | None
    ir_datasets: str | None = None
    docs: str | None = None
    docs_format: str | None = None
    topics: str | None = None
    topics_format: str | None = None
    qrels: str | None = None
    doc_id_field: str = "docno"
    doc_text_fields: tuple[str, ...] = ("text",)
    topic_field: str = "text"

    @classmethod
    def from_config(cls, name: str, raw: Mapping, base_dir: str | Path = ".",
                    needs: tuple[str, ...] = ("docs", "topics", "qrels")) -> "CollectionSpec":
        """``needs``: the local files the caller reads (a step given only the document
        settings needs only ``docs``); the grade map is required with qrels."""
        source = f"config: collections.{name}"
        grade_map = None
        if "qrels" in needs or "grade_map" in raw:
            grade_map = GradeMap.from_config(raw["grade_map"], source=f"{source}.grade_map")
        local = {k: raw.get(k) for k in ("docs", "topics", "qrels")}
        if raw.get("ir_datasets") and any(local.values()):
            raise InputError(source, None, "either 'ir_datasets' or local files, not both")
        if not raw.get("ir_datasets") and not all(local[k] for k in needs):
            raise InputError(source, None, "an 'ir_datasets' id, or all of "
                             + ", ".join(needs), sorted(k for k, v in local.items() if v))

        def resolve(path):
            return None if path is None else str(Path(base_dir, path))

        return cls(
            name=name, grade_map=grade_map, ir_datasets=raw.get("ir_datasets"),
            docs=resolve(local["docs"]), docs_format=raw.get("docs_format"),
            topics=resolve(local["topics"]), topics_format=raw.get("topics_format"),
            qrels=resolve(local["qrels"]),
            doc_id_field=raw.get("doc_id_field", "docno"),
            doc_text_fields=tuple(raw.get("doc_text_fields", ["text"])),
            topic_field=raw.get("topic_field", "text"),
        )


def use_ir_datasets_home(home: str | None) -> None:
    """Point ``ir_datasets`` at ``home`` (a writable cache).

    ``ir_datasets`` fixes its cache paths when first imported, so this must run
    before that import; afterwards a different home is an error, not a silent
    fallback to ``~/.ir_datasets`` and the network.
    """
    if not home:
        return
    home = str(Path(home).expanduser().resolve())
    if "ir_datasets" in sys.modules and os.environ.get("IR_DATASETS_HOME") != home:
        raise RuntimeError("ir_datasets was imported before IR_DATASETS_HOME was set to "
                           f"{home}; set it before the first import")
    os.environ["IR_DATASETS_HOME"] = home


def _ir_dataset(spec: CollectionSpec):
    import ir_datasets  # imported late: IR_DATASETS_HOME must be set first

    return ir_datasets.load(spec.ir_datasets)


def load_topics(spec: CollectionSpec) -> pd.DataFrame:
    """Topics as ``qid, query`` (the request text as given)."""
    if spec.ir_datasets:
        dataset = _ir_dataset(spec)
        rows = []
        for query in dataset.queries_iter():
            text = getattr(query, spec.topic_field, None)
            if text is None:
                raise InputError(f"ir_datasets:{spec.ir_datasets} queries", None,
                                 f"a query field {spec.topic_field!r}", list(query._fields))
            rows.append((str(query.query_id), " ".join(str(text).split())))
        return pd.DataFrame(rows, columns=["qid", "query"])
    fmt = spec.topics_format or ("tsv" if spec.topics.endswith((".tsv", ".tsv.gz")) else "trec")
    if fmt == "tsv":
        frame = readers.read_topics_tsv(spec.topics)
        frame["query"] = [" ".join(q.split()) for q in frame["query"]]
        return frame
    return readers.read_topics_trec(spec.topics, field=spec.topic_field
                                    if spec.topic_field in ("title", "desc", "narr") else "title")


def load_qrels(spec: CollectionSpec) -> pd.DataFrame:
    """Judgements as ``qid, docno, label, grade``."""
    if spec.ir_datasets:
        dataset = _ir_dataset(spec)
        where = f"ir_datasets:{spec.ir_datasets} qrels"
        rows = []
        seen: dict[tuple[str, str], int] = {}
        for number, qrel in enumerate(dataset.qrels_iter(), start=1):
            key = (str(qrel.query_id), str(qrel.doc_id))
            if key in seen:
                raise InputError(where, number,
                                 f"one judgement per (topic, document); first at record {seen[key]}",
                                 " ".join(key))
            seen[key] = number
            rows.append((*key, str(qrel.relevance),
                         spec.grade_map.level(qrel.relevance, where, number)))
        return pd.DataFrame(rows, columns=["qid", "docno", "label", "grade"])
    return readers.read_qrels(spec.qrels, spec.grade_map)


def iter_documents(spec: CollectionSpec) -> Iterator[tuple[str, int, dict]]:
    """Documents as ``(source, position, {"docno", "text"})``, in collection order."""
    if spec.ir_datasets:
        dataset = _ir_dataset(spec)
        where = f"ir_datasets:{spec.ir_datasets} docs"
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


@dataclass
class Assembled:
    """Topics and qrels that agree with each other and with the documents."""

    topics: pd.DataFrame
    qrels: pd.DataFrame
    exclusions: pd.DataFrame  # kind, id, reason


EXCLUSION_COLUMNS = ["kind", "id", "reason"]


def assemble(topics: pd.DataFrame, qrels: pd.DataFrame,
             docnos: set[str] | None = None) -> Assembled:
    """Reconcile topics with qrels (and qrels with documents), recording every exclusion.

    - a judgement whose topic is not among the topics is excluded
      (reason ``topic not in topics``);
    - a judgement of a document not in the collection is excluded
      (``document not in collection``);
    - a topic with no judgements left is excluded (``no judgements``): it has no
      recall base, so no graded measure is defined for it.
    """
    excluded = []
    topic_ids = set(topics["qid"])
    orphan = ~qrels["qid"].isin(topic_ids)
    for row in qrels[orphan].itertuples():
        excluded.append(("judgement", f"{row.qid} {row.docno}", "topic not in topics"))
    qrels = qrels[~orphan]
    if docnos is not None:
        unknown = ~qrels["docno"].isin(docnos)
        for row in qrels[unknown].itertuples():
            excluded.append(("judgement", f"{row.qid} {row.docno}", "document not in collection"))
        qrels = qrels[~unknown]
    judged = set(qrels["qid"])
    unjudged = ~topics["qid"].isin(judged)
    for qid in topics.loc[unjudged, "qid"]:
        excluded.append(("topic", qid, "no judgements"))
    topics = topics[~unjudged]
    return Assembled(topics.reset_index(drop=True), qrels.reset_index(drop=True),
                     pd.DataFrame(excluded, columns=EXCLUSION_COLUMNS))


def recall_base(qrels: pd.DataFrame, topics: pd.DataFrame) -> pd.DataFrame:
    """Judged documents per topic and level: ``qid, n_0, n_1, n_2, n_3``."""
    counts = (qrels.groupby(["qid", "grade"]).size().unstack(fill_value=0)
              .reindex(columns=list(LEVELS), fill_value=0))
    counts = counts.reindex(topics["qid"], fill_value=0)
    counts.columns = [f"n_{level}" for level in LEVELS]
    return counts.reset_index().rename(columns={"index": "qid"})


def testbed_summary(per_topic: pd.DataFrame, n_documents: int) -> pd.DataFrame:
    """The paper's testbed description: recall base per level, total and per topic."""
    rows = []
    for level in sorted(LEVELS, reverse=True):
        column = per_topic[f"n_{level}"]
        rows.append({
            "level": level, "name": LEVEL_NAMES[level], "judged_total": int(column.sum()),
            "mean_per_topic": float(column.mean()) if len(column) else 0.0,
            "min_per_topic": int(column.min()) if len(column) else 0,
            "max_per_topic": int(column.max()) if len(column) else 0,
            "topics_with_any": int((column > 0).sum()),
        })
    summary = pd.DataFrame(rows)
    summary.attrs["n_topics"] = len(per_topic)
    summary.attrs["n_documents"] = n_documents
    return summary


def testbed_markdown(name: str, summary: pd.DataFrame, n_topics: int, n_documents: int,
                     n_empty_documents: int, exclusions: pd.DataFrame,
                     grade_map: GradeMap) -> str:
    lines = [f"# Testbed: {name}", "",
             f"- documents: {n_documents} ({n_empty_documents} empty, kept in the index)",
             f"- topics with judgements: {n_topics}", "",
             "| level | judged (total) | per topic (mean) | min | max | topics with any |",
             "|---|---:|---:|---:|---:|---:|"]
    for row in summary.itertuples():
        lines.append(f"| {row.level} {row.name} | {row.judged_total} | {row.mean_per_topic:.2f} "
                     f"| {row.min_per_topic} | {row.max_per_topic} | {row.topics_with_any} |")
    lines += ["", "Grade map (level: raw labels):", "", "```", grade_map.describe(), "```", ""]
    if len(exclusions):
        lines.append("Excluded (see exclusions.tsv):")
        lines.append("")
        for (kind, reason), group in exclusions.groupby(["kind", "reason"], sort=True):
            lines.append(f"- {len(group)} {kind}(s): {reason}")
    else:
        lines.append("Excluded: nothing.")
    return "\n".join(lines) + "\n"
