"""Topics and judgements of a collection, and their reconciliation: :func:`assemble`
says what it excluded and why (nothing is dropped silently)."""
from __future__ import annotations

from dataclasses import dataclass

from gradedrel.core import lazy

pd = lazy.module("pandas")

from gradedrel.collection import readers
from gradedrel.core.errors import InputError
from gradedrel.collection.spec import CollectionSpec


def _ir_datasets(spec: CollectionSpec, part: str):
    """(id, dataset) of every ir_datasets id the part comes from, in order."""
    import ir_datasets  # imported late: IR_DATASETS_HOME must be set first

    return [(i, ir_datasets.load(i)) for i in spec.ir_datasets_sources(part)]


def request_text(values) -> str:
    """The request's fields joined in order (empty ones left out), whitespace collapsed."""
    return " ".join(" ".join(str(v or "").split()) for v in values if str(v or "").strip())


def load_topics(spec: CollectionSpec) -> pd.DataFrame:
    """Topics as ``qid, query`` (the request text as given: the configured field, or
    fields joined in order)."""
    if spec.ir_datasets_id("topics"):
        rows = []
        seen: dict[str, str] = {}
        for dataset_id, dataset in _ir_datasets(spec, "topics"):
            where = f"ir_datasets:{dataset_id} queries"
            for number, query in enumerate(dataset.queries_iter(), start=1):
                missing = [f for f in spec.topic_fields if not hasattr(query, f)]
                if missing:
                    raise InputError(where, None, f"query fields {list(spec.topic_fields)}",
                                     list(query._fields))
                qid = readers.check_id(str(query.query_id), "topic id", where, number)
                if qid in seen:
                    raise InputError(where, number, f"one topic per id (also in {seen[qid]})",
                                     qid)
                seen[qid] = where
                rows.append((qid, request_text(getattr(query, f) for f in spec.topic_fields)))
        return pd.DataFrame(rows, columns=["qid", "query"])
    fmt = spec.topics_format or ("tsv" if spec.topics.endswith((".tsv", ".tsv.gz")) else "trec")
    if fmt == "tsv":
        frame = readers.read_topics_tsv(spec.topics, spec.topics_header)
        frame["query"] = [" ".join(q.split()) for q in frame["query"]]
        return frame
    fields = [f for f in spec.topic_fields if f in readers.TREC_TOPIC_FIELDS] or ["title"]
    frames = [readers.read_topics_trec(spec.topics, field=f) for f in fields]
    joined = frames[0].copy()
    joined["query"] = [request_text(texts) for texts in zip(*(f["query"] for f in frames))]
    return joined


def load_qrels(spec: CollectionSpec) -> pd.DataFrame:
    """Judgements as ``qid, docno, label, grade``."""
    if spec.ir_datasets_id("qrels"):
        rows = []
        seen: dict[tuple[str, str], str] = {}
        for dataset_id, dataset in _ir_datasets(spec, "qrels"):
            where = f"ir_datasets:{dataset_id} qrels"
            for number, qrel in enumerate(dataset.qrels_iter(), start=1):
                key = (readers.check_id(str(qrel.query_id), "topic id", where, number),
                       readers.check_id(str(qrel.doc_id), "document id", where, number))
                if key in seen:
                    raise InputError(where, number, "one judgement per (topic, document); "
                                     f"first at {seen[key]}", " ".join(key))
                seen[key] = f"{where}, record {number}"
                rows.append((*key, str(qrel.relevance),
                             spec.grade_map.level(qrel.relevance, where, number)))
        return pd.DataFrame(rows, columns=["qid", "docno", "label", "grade"])
    return readers.read_qrels(spec.qrels, spec.grade_map)


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


def trec_qrels_text(qrels: pd.DataFrame) -> str:
    """The mapped judgements as TREC qrels, ``qid 0 docno level`` per line, in the order
    of ``qrels`` (``qrels.tsv``'s): what trec_eval and ``ir_measures.read_trec_qrels``
    read, with the paper's levels 0-3 in place of the raw labels."""
    return "".join(f"{q} 0 {d} {int(g)}\n"
                   for q, d, g in zip(qrels["qid"], qrels["docno"], qrels["grade"]))
