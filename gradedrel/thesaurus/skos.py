"""SKOS triples -> the thesaurus model; reading SKOS files in any common form.

A *concept* is every subject typed ``skos:Concept`` or carrying a
``skos:prefLabel``. For each, the model holds the sets (in first-seen order, as
given) that the triples give for ``skos:prefLabel``, ``skos:altLabel``,
``skos:broader``, ``skos:narrower``, ``skos:related``, ``skos:definition`` and the
Synaptica entry-term links ``skm:Use`` / ``skm:UF``. Repeated statements (the NASA
file repeats concepts inside ``rdf:Statement`` reifications) are merged, as an
RDF graph merges them: a graph is a set of triples. Language tags and datatypes
are not kept in the model (labels are plain strings).

RDF/XML is read by the streaming reader in :mod:`.rdfxml`; Turtle, N-Triples,
N3 and JSON-LD by rdflib (an optional dependency, meant for small files).
Files may be compressed (``.bz2``, ``.gz``, ``.xz``).
"""
from __future__ import annotations

import bz2
import gzip
import io
import lzma
import zlib
from pathlib import Path
from typing import Iterable, Iterator

from gradedrel.core.errors import InputError
from gradedrel.core.progress import progress
from gradedrel.thesaurus import rdfxml
from gradedrel.thesaurus.model import Concept, Thesaurus
from gradedrel.thesaurus.rdfxml import Literal

#: Bump when the reader's output can change: it keys the cache.
READER_VERSION = 1

SKOS = "http://www.w3.org/2004/02/skos/core#"
SKM = "http://synaptica.net/skm/"
RDF_TYPE = rdfxml.RDF_TYPE

# predicate -> slot in the accumulator
_SLOTS = {
    SKOS + "prefLabel": 0,
    SKOS + "altLabel": 1,
    SKOS + "broader": 2,
    SKOS + "narrower": 3,
    SKOS + "related": 4,
    SKOS + "definition": 5,
    SKM + "Use": 6,
    SKM + "UF": 7,
}
_LITERAL_SLOTS = (0, 1, 5)
#: The predicates the model is made of (the reader skips building the rest).
PREDICATES = frozenset(_SLOTS) | {RDF_TYPE}
_CONCEPT = SKOS + "Concept"

_FORMATS = {".rdf": "xml", ".xml": "xml", ".owl": "xml", ".skos": "xml",
            ".ttl": "turtle", ".nt": "nt", ".n3": "n3", ".jsonld": "json-ld",
            ".json": "json-ld"}
_OPENERS = {".bz2": bz2.open, ".gz": gzip.open, ".xz": lzma.open}


def concepts_from_triples(triples: Iterable[tuple]) -> Thesaurus:
    """Merge SKOS triples into concepts (module docstring); literal objects are
    :class:`rdfxml.Literal`, URIs and blank nodes ``str``."""
    slots: dict[str, list[dict]] = {}
    typed: dict[str, None] = {}
    order: dict[str, None] = {}
    for s, p, o in triples:
        if p == RDF_TYPE:
            if o == _CONCEPT:
                typed[s] = None
                order.setdefault(s, None)
            continue
        slot = _SLOTS.get(p)
        if slot is None:
            continue
        entry = slots.get(s)
        if entry is None:
            entry = slots[s] = [{} for _ in range(8)]
        # Labels and definitions are literals, links are URIs; a term of the
        # other kind is not what SKOS means there and is left out.
        if (slot in _LITERAL_SLOTS) == isinstance(o, Literal):
            entry[slot][o.value if slot in _LITERAL_SLOTS else o] = None
        if slot == 0:
            order.setdefault(s, None)
    concepts = {}
    empty = [{} for _ in range(8)]
    for uri in order:
        if uri not in typed and not slots.get(uri, empty)[0]:
            continue
        e = slots.get(uri, empty)
        pref = tuple(e[0])
        definitions = tuple(e[5])
        concepts[str(uri)] = Concept(
            uri=str(uri), pref_label=pref[0] if pref else "", alt_labels=tuple(e[1]),
            broader=tuple(e[2]), narrower=tuple(e[3]), related=tuple(e[4]),
            definition=definitions[0] if definitions else None,
            use=tuple(e[6]), used_for=tuple(e[7]),
            pref_labels=pref, definitions=definitions)
    return Thesaurus(concepts)


def syntax_of(path: str | Path) -> str:
    """rdflib-style format name from the file name, ignoring a compression suffix."""
    path = Path(path)
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] in _OPENERS:
        suffixes = suffixes[:-1]
    if suffixes and suffixes[-1] in _FORMATS:
        return _FORMATS[suffixes[-1]]
    return ""


def byte_chunks(path: str | Path, block: int = 1 << 20) -> Iterator[bytes]:
    """The (decompressed) bytes of ``path`` in chunks; memory stays bounded.

    Reading 1 MiB blocks of a ``bz2.open`` stream is as fast as decompressing them by hand
    (reading it piecemeal is about half as fast). Concatenated streams (multi-stream bz2,
    multi-member gzip) are read to the end; a truncated or damaged stream (``EOFError``,
    ``OSError``) is one :class:`InputError` naming the file.
    """
    path = Path(path)
    with open(path, "rb") as raw, progress(desc=f"reading {path.name}", unit="B",
                                           unit_scale=True, total=path.stat().st_size) as bar:
        opener = _OPENERS.get(path.suffix.lower())
        handle = opener(raw) if opener else raw
        try:
            for data in iter(lambda: handle.read(block), b""):
                bar.update(raw.tell() - bar.n)
                yield data
        except EOFError:  # cut short
            raise _incomplete(path, "the compressed stream ends before its end-of-stream "
                              "marker (truncated?)") from None
        except (OSError, zlib.error, lzma.LZMAError) as error:
            raise _incomplete(path, f"{error} (a damaged download?)") from None


def _incomplete(path: Path, why: str) -> InputError:
    return InputError(path, None, "a complete thesaurus file (SKOS; gzip, bzip2 or xz "
                      "allowed)", why)


def read_skos(path: str | Path, base: str = "") -> Thesaurus:
    """Read a SKOS file (RDF/XML streamed; other syntaxes via rdflib) into the model; the
    syntax is the file name's (:func:`syntax_of`), else RDF/XML if it begins with ``<``,
    else Turtle."""
    path = Path(path)
    if not path.exists():
        raise InputError(path, None, "a SKOS thesaurus file", "no such file")
    syntax = syntax_of(path)
    if not syntax:
        head = next(byte_chunks(path), b"").lstrip()
        syntax = "xml" if head.startswith(b"<") else "turtle"
    if syntax == "xml":
        thesaurus = concepts_from_triples(
            rdfxml.triples(byte_chunks(path), base, str(path), predicates=PREDICATES))
    else:
        thesaurus = concepts_from_triples(rdflib_triples(path, syntax, base))
    if not thesaurus.concepts:
        raise InputError(path, None, "SKOS concepts (skos:Concept or skos:prefLabel)",
                         "none")
    return thesaurus


def rdflib_triples(path: str | Path, syntax: str, base: str = "") -> Iterable[tuple]:
    """Triples of a file parsed by rdflib, terms as plain ``str`` / Literal."""
    try:
        import rdflib
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise InputError(path, None, "rdflib installed to read this syntax "
                         f"({syntax}); RDF/XML needs no rdflib", str(error)) from None
    graph, data = rdflib.Graph(), b"".join(byte_chunks(path))
    try:
        graph.parse(io.BytesIO(data), format=syntax, publicID=base or None)
    except Exception as error:  # rdflib raises many types; report one clear line
        raise InputError(path, getattr(error, "lines", None), f"valid {syntax}",
                         str(error).splitlines()[0] if str(error) else repr(error)) from None
    # Sorted: a graph is a set; this keeps the model's order deterministic.
    for s, p, o in sorted(graph):
        if isinstance(o, rdflib.Literal):
            yield _term(s), str(p), Literal(str(o), o.language, o.datatype and str(o.datatype))
        else:
            yield _term(s), str(p), _term(o)


def _term(term) -> str:
    import rdflib
    return f"_:{term}" if isinstance(term, rdflib.BNode) else str(term)
