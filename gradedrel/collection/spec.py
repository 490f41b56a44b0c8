"""What config says about a collection (``collections.<c>``): an ``ir_datasets`` id or
local files, always with an explicit grade map; and which settings each step reads."""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from gradedrel.core.errors import InputError
from gradedrel.collection.grades import GradeMap


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
