"""The thesaurus model every reader fills and every analysis step uses.

A concept has one preferred label (``skos:prefLabel``), alternative labels
(``skos:altLabel``: the USE/UF synonyms), and links to broader (BT), narrower
(NT) and related (RT) concepts, by URI.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable


@dataclass(frozen=True)
class Concept:
    uri: str
    pref_label: str
    alt_labels: tuple[str, ...] = ()
    broader: tuple[str, ...] = ()
    narrower: tuple[str, ...] = ()
    related: tuple[str, ...] = ()
    definition: str | None = None


@dataclass
class Thesaurus:
    concepts: dict[str, Concept] = field(default_factory=dict)

    @classmethod
    def from_concepts(cls, concepts: Iterable[Concept]) -> "Thesaurus":
        return cls({c.uri: c for c in concepts})

    def __len__(self) -> int:
        return len(self.concepts)

    def __getitem__(self, uri: str) -> Concept:
        return self.concepts[uri]
