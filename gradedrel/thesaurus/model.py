"""The thesaurus model every reader fills and every analysis step uses.

A concept has one preferred label (``skos:prefLabel``), alternative labels
(``skos:altLabel``: the USE/UF synonyms), and links to broader (BT), narrower
(NT) and related (RT) concepts, by URI.

Labels are kept exactly as the source gives them (the NASA Thesaurus marks 549
preferred labels with a leading ``~ ``, e.g. ``~ aircraft``). Matching uses
:func:`normalise_label`, which strips that mark, folds case and collapses white
space; the stored label is never changed.

Some thesauri (the NASA Thesaurus, exported by Synaptica) also carry every
non-preferred *entry term* as a concept of its own, with a ``skm:Use`` link to
the preferred concept; the preferred concept links back with ``skm:UF``. Such a
concept has a non-empty :attr:`Concept.use`. :meth:`Thesaurus.label_index`
follows these links, so a label always leads to preferred concepts.
"""
from __future__ import annotations

from dataclasses import dataclass, field

#: The mark some NASA Thesaurus preferred labels begin with (meaning undocumented).
TILDE_MARK = "~ "


def normalise_label(label: str) -> str:
    """A label as matching sees it: without a leading ``~`` mark, case-folded,
    white space collapsed to single spaces and trimmed."""
    return " ".join(label.strip().removeprefix("~").split()).casefold()


@dataclass(frozen=True)
class Concept:
    """A thesaurus concept: its labels and its BT, NT, RT, USE and UF relations."""

    uri: str
    pref_label: str
    alt_labels: tuple[str, ...] = ()
    broader: tuple[str, ...] = ()
    narrower: tuple[str, ...] = ()
    related: tuple[str, ...] = ()
    definition: str | None = None
    # Extensions (all optional, so the fields above keep their meaning):
    #: Entry term: use these (preferred) concepts instead (``skm:Use``, zthes USE).
    use: tuple[str, ...] = ()
    #: Entry-term concepts that point here (``skm:UF``, zthes UF).
    used_for: tuple[str, ...] = ()
    #: Every ``skos:prefLabel`` as given (SKOS allows one per language);
    #: ``pref_label`` is the first of them. Filled from ``pref_label`` if empty.
    pref_labels: tuple[str, ...] = ()
    #: Every ``skos:definition``; ``definition`` is the first. Filled if empty.
    definitions: tuple[str, ...] = ()
    #: The alternative labels the source marks as permuted forms of another entry term
    #: (MeSH ``IsPermutedTermYN = Y``: "Atopic Dermatitis" of "Dermatitis, Atopic"); they are
    #: labels like any other, the mark is kept as data (for the lookup's listing).
    permuted: tuple[str, ...] = ()

    def __post_init__(self):
        if not self.pref_labels and self.pref_label:
            object.__setattr__(self, "pref_labels", (self.pref_label,))
        if not self.definitions and self.definition is not None:
            object.__setattr__(self, "definitions", (self.definition,))

    @property
    def marked(self) -> bool:
        """True if the preferred label carries the NASA ``~ `` mark."""
        return self.pref_label.startswith(TILDE_MARK)

    @property
    def is_entry_term(self) -> bool:
        """True for a non-preferred term stored as a concept (it has USE links)."""
        return bool(self.use)

    def labels(self) -> tuple[str, ...]:
        """Preferred labels, then alternative labels, as given."""
        return self.pref_labels + self.alt_labels


@dataclass
class Thesaurus:
    """Concepts by URI."""

    concepts: dict[str, Concept] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.concepts)

    def __getitem__(self, uri: str) -> Concept:
        return self.concepts[uri]

    def __contains__(self, uri: object) -> bool:
        return uri in self.concepts

    def label(self, uri: str) -> str:
        """The preferred label of ``uri``, or the URI itself if it is not a concept
        here (a dangling link)."""
        concept = self.concepts.get(uri)
        return concept.pref_label if concept is not None else uri

    def preferred(self, uri: str) -> tuple[str, ...]:
        """The preferred concepts for ``uri``: its USE targets if it is an entry
        term, else ``uri`` itself."""
        concept = self.concepts.get(uri)
        if concept is None or not concept.use:
            return (uri,)
        return concept.use

    def label_index(self, follow_use: bool = True) -> dict[str, tuple[str, ...]]:
        """Normalised label -> URIs of the concepts it names, in thesaurus order.

        Each concept contributes its preferred and alternative labels. With
        ``follow_use`` an entry term contributes its label to its USE targets
        instead of to itself, so every URI in the index is a preferred concept.
        """
        index: dict[str, dict[str, None]] = {}
        for concept in self.concepts.values():
            targets = self.preferred(concept.uri) if follow_use else (concept.uri,)
            for label in concept.labels():
                key = normalise_label(label)
                if not key:
                    continue
                bucket = index.setdefault(key, {})
                for uri in targets:
                    bucket[uri] = None
        return {key: tuple(uris) for key, uris in index.items()}
