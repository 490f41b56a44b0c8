"""What config says about a collection (``collections.<c>``): where its documents, topics
and judgements come from — an ``ir_datasets`` id for all three, separate ids per part
(``ir_datasets: {docs: beir/nfcorpus, topics: nfcorpus/test/video}``; qrels default to the
topics' id), or local files — always with an explicit grade map; the request field(s); and
which settings each step reads."""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping

from gradedrel.core.errors import InputError
from gradedrel.collection.grades import GradeMap
from gradedrel.collection.readers import topics_header_setting


#: The settings of ``collections.<c>`` that the documents (and so the index) depend on.
DOCUMENT_KEYS = ("ir_datasets", "docs", "docs_format", "doc_id_field", "doc_text_fields")
#: The settings the requests (every topic's text) depend on.
REQUEST_KEYS = ("ir_datasets", "topics", "topics_format", "topics_header", "topic_field")
#: The settings that topics and judgements depend on.
JUDGEMENT_KEYS = ("ir_datasets", "topics", "topics_format", "topics_header", "qrels",
                  "topic_field", "grade_map")
#: The settings that decide what a collection's download fetches: which parts come from
#: which ir_datasets id (a part named by a local file is not fetched). Nothing else (grade
#: map, fields, formats) may be among them: a fetch re-run by another setting would, behind
#: the manifest's ``ancient`` edge, hide the re-runs that setting needs downstream (Snakemake
#: does not weigh a job's own reasons once an upstream job runs: docs/cluster.md).
FETCH_KEYS = ("ir_datasets", "docs", "topics", "qrels")
#: The three parts of a collection, each from an ir_datasets id or a local file.
PARTS = ("docs", "topics", "qrels")


def ir_datasets_ids(raw: Mapping, source: str = "config") -> dict[str, "str | tuple[str, ...]"]:
    """The ir_datasets id of each part that comes from ir_datasets: one id for all three
    (a string), or ``{docs, topics, qrels}`` (qrels default to the topics' id). Topics and
    qrels may name several ids (a list, kept as a tuple): the requests and judgements of
    several subsets of the same documents, read in order (``nfcorpus-fresh``: the test and
    dev video requests)."""
    value = raw.get("ir_datasets")
    if not value:
        return {}
    if isinstance(value, str):
        return {part: value for part in PARTS}
    if not isinstance(value, Mapping):
        raise InputError(source, None, "'ir_datasets' as an id, or a mapping of docs, topics, "
                         "qrels to ids", value)
    unknown = sorted(set(value) - set(PARTS))
    if unknown:
        raise InputError(source, None, "ir_datasets parts among docs, topics, qrels", unknown)
    ids: dict = {}
    for part in PARTS:
        named = value.get(part)
        if not named:
            continue
        if isinstance(named, (list, tuple)):
            if part == "docs" or not named or not all(isinstance(i, str) and i for i in named):
                raise InputError(source, None, f"'ir_datasets.{part}' as one id"
                                 + ("" if part == "docs" else " or a list of ids"), named)
            ids[part] = named[0] if len(named) == 1 else tuple(named)
        else:
            ids[part] = str(named)
    if "topics" in ids and "qrels" not in ids:
        ids["qrels"] = ids["topics"]
    return ids


def settings(raw: Mapping, keys: tuple[str, ...]) -> dict:
    """Only the settings ``keys`` of a collection's config (those present), so that a
    step receives, and is re-run for, exactly what it reads: of split ir_datasets ids,
    only the parts whose files are among ``keys`` (the index does not depend on the
    topics' id)."""
    out = {k: raw[k] for k in keys if k in raw}
    if isinstance(out.get("ir_datasets"), Mapping):
        parts = {part: out["ir_datasets"][part] for part in PARTS
                 if part in keys and part in out["ir_datasets"]}
        if "qrels" in keys and "qrels" not in parts and "topics" in out["ir_datasets"]:
            parts["qrels"] = out["ir_datasets"]["topics"]
        out["ir_datasets"] = parts
        if not parts:
            del out["ir_datasets"]
    return out


def local_files(raw: Mapping, keys: tuple[str, ...]) -> dict[str, str]:
    """The local files (docs, topics, qrels) among ``keys`` that a collection names."""
    return {k: raw[k] for k in PARTS if k in keys and raw.get(k)}


@dataclass(frozen=True)
class CollectionSpec:
    """What config says about one collection."""

    name: str
    grade_map: GradeMap | None
    ir_datasets_ids: Mapping[str, str] | None = None   # part (docs, topics, qrels) -> id
    docs: str | None = None
    docs_format: str | None = None
    topics: str | None = None
    topics_format: str | None = None
    topics_header: "tuple[str, str] | bool | None" = None  # TSV topics: None = detected
    qrels: str | None = None
    doc_id_field: str = "docno"
    doc_text_fields: tuple[str, ...] = ("text",)
    topic_fields: tuple[str, ...] = ("text",)

    def ir_datasets_id(self, part: str) -> str | None:
        """The ir_datasets id the part (docs, topics, qrels) comes from, as text (several
        joined by " + "); None: a local file."""
        found = self.ir_datasets_sources(part)
        return " + ".join(found) if found else None

    def ir_datasets_sources(self, part: str) -> tuple[str, ...]:
        """Every ir_datasets id the part comes from, in order (empty: a local file)."""
        ids = (self.ir_datasets_ids or {}).get(part) or ()
        return (ids,) if isinstance(ids, str) else tuple(ids)

    @property
    def topic_field(self) -> str:
        """The request fields as written in config (one name, or names joined by '+')."""
        return "+".join(self.topic_fields)

    @classmethod
    def from_config(cls, name: str, raw: Mapping, needs: tuple[str, ...] = PARTS
                    ) -> "CollectionSpec":
        """``needs``: the parts the caller reads (a step given only the document settings
        needs only ``docs``); each must come from an ir_datasets id or a local file, not
        both; the grade map is required with qrels."""
        source = f"config: collections.{name}"
        grade_map = None
        if "qrels" in needs or "grade_map" in raw:
            grade_map = GradeMap.from_config(raw["grade_map"], source=f"{source}.grade_map")
        ids = ir_datasets_ids(raw, source)
        local = {k: raw.get(k) for k in PARTS}
        both = [k for k in PARTS if local[k] and k in ids]
        if both:
            raise InputError(source, None, "either 'ir_datasets' or local files, not both",
                             both)
        missing = [k for k in needs if not local[k] and k not in ids]
        if missing:
            raise InputError(source, None, "an 'ir_datasets' id, or all of " + ", ".join(needs),
                             sorted(k for k, v in local.items() if v))
        # the request text: one topic field, or a list of fields joined in order
        value = raw.get("topic_field", "text")
        topic_fields = (value,) if isinstance(value, str) else tuple(value)
        if not topic_fields or not all(isinstance(f, str) and f for f in topic_fields):
            raise InputError(source, None, "topic_field: a field name or a list of names", value)

        def resolve(path):
            return None if path is None else str(Path(path))

        return cls(
            name=name, grade_map=grade_map, ir_datasets_ids=ids or None,
            docs=resolve(local["docs"]), docs_format=raw.get("docs_format"),
            topics=resolve(local["topics"]), topics_format=raw.get("topics_format"),
            topics_header=topics_header_setting(raw.get("topics_header"),
                                                f"{source}.topics_header"),
            qrels=resolve(local["qrels"]),
            doc_id_field=raw.get("doc_id_field", "docno"),
            doc_text_fields=tuple(raw.get("doc_text_fields", ["text"])),
            topic_fields=topic_fields,
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


def ids_of(settings: Mapping, parts: Iterable[str]) -> dict[str, str]:
    """The ir_datasets id of each of ``parts`` a collection's settings name."""
    ids = ir_datasets_ids(settings)
    return {part: list(ids[part]) if isinstance(ids[part], tuple) else ids[part]
            for part in parts if part in ids}
