"""A streaming RDF/XML reader: triples from one top-level node element at a time.

It follows the RDF 1.1 XML Syntax grammar (W3C Recommendation, 2014,
https://www.w3.org/TR/rdf-syntax-grammar/): node elements (``rdf:Description`` or
typed), ``rdf:about``/``rdf:ID``/``rdf:nodeID``, property attributes, property
elements with ``rdf:resource``, ``rdf:nodeID``, a nested node element, a literal
(``xml:lang``, ``rdf:datatype``), ``rdf:parseType`` Resource/Literal/Collection,
``rdf:li``, ``xml:base``, and reification by ``rdf:ID`` on a property element.

Why not rdflib: rdflib builds the whole graph first (the NASA Thesaurus: 1.14
million triples, ~50 s and ~1.2 GB). Here lxml's ``iterparse`` hands over each
child of ``rdf:RDF`` when it is complete; it is turned into triples and freed, so
memory holds one top-level element at a time.

Terms: a URI or blank node is a ``str`` (blank nodes ``_:…``); a literal is a
:class:`Literal`. Relative URIs are resolved against ``xml:base`` or the
``base`` argument with :func:`urllib.parse.urljoin`; with the default empty base
they stay as written (``#43163``), as rdflib leaves them when it parses a
stream without a public id.
"""
from __future__ import annotations

import functools
import itertools
from typing import Iterable, Iterator, NamedTuple
from urllib.parse import urljoin


RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
XML = "http://www.w3.org/XML/1998/namespace"
_RDF = "{" + RDF + "}"
_XML = "{" + XML + "}"

RDF_TYPE = RDF + "type"
_ABOUT, _ID, _NODEID = _RDF + "about", _RDF + "ID", _RDF + "nodeID"
_RESOURCE, _DATATYPE, _PARSETYPE = _RDF + "resource", _RDF + "datatype", _RDF + "parseType"
_DESCRIPTION, _LI, _RDFROOT = _RDF + "Description", _RDF + "li", _RDF + "RDF"
_LANG, _BASE = _XML + "lang", _XML + "base"
# Attributes that are syntax, not property attributes.
_SYNTAX_ATTRS = frozenset({_ABOUT, _ID, _NODEID, _RESOURCE, _DATATYPE, _PARSETYPE,
                           _RDF + "bagID", _RDF + "aboutEach", _RDF + "aboutEachPrefix"})
_XML_LITERAL = RDF + "XMLLiteral"


class Literal(NamedTuple):
    """An RDF literal: its text, language tag and datatype."""

    value: str
    lang: str | None = None
    datatype: str | None = None




@functools.lru_cache(maxsize=None)  # a file repeats few tags
def _uri(tag: str) -> str:
    """``{ns}local`` (lxml's Clark notation) -> ``nslocal``."""
    return tag[1:].replace("}", "", 1) if tag[:1] == "{" else tag


def _resolve(base: str, ref: str) -> str:
    return urljoin(base, ref) if base else ref


def _scope(attrib, base: str, lang: str | None) -> tuple[str, str | None]:
    """The base URI and language of an element: its ``xml:base`` and ``xml:lang``, else its
    parent's ``base`` and ``lang``."""
    if _BASE in attrib:
        base = _resolve(base, attrib[_BASE])
    if _LANG in attrib:
        lang = attrib[_LANG] or None
    return base, lang


class _Reader:
    def __init__(self, predicates: frozenset[str] | None = None):
        self.keep = predicates
        self._bnodes = itertools.count(1)

    def bnode(self) -> str:
        return f"_:n{next(self._bnodes)}"

    def node(self, el, base: str, lang: str | None, out: list) -> str:
        """Triples of a node element into ``out``; returns its subject."""
        attrib = el.attrib
        base, lang = _scope(attrib, base, lang)
        about = attrib.get(_ABOUT)
        if about is not None:
            subject = _resolve(base, about)
        elif _ID in attrib:
            subject = _resolve(base, "#" + attrib[_ID])
        elif _NODEID in attrib:
            subject = "_:" + attrib[_NODEID]
        else:
            subject = self.bnode()
        if el.tag != _DESCRIPTION:
            self.emit(out, subject, RDF_TYPE, _uri(el.tag))
        self._property_attributes(subject, attrib, base, lang, out)
        self.properties(subject, el, base, lang, out)
        return subject

    def emit(self, out, subject, predicate, obj) -> None:
        if self.keep is None or predicate in self.keep:
            out.append((subject, predicate, obj))

    def _property_attributes(self, subject, attrib, base, lang, out) -> None:
        for name, value in attrib.items():
            if name in _SYNTAX_ATTRS or name.startswith(_XML) or name[:1] != "{":
                continue
            if name == _RDF + "type":
                self.emit(out, subject, RDF_TYPE, _resolve(base, value))
            else:
                self.emit(out, subject, _uri(name), Literal(value, lang))

    def properties(self, subject, el, base, lang, out) -> None:
        li = 0
        keep = self.keep
        for prop in el:
            tag = prop.tag
            if not isinstance(tag, str):  # comments, processing instructions, entities
                continue
            if tag == _LI:
                li += 1
                predicate = f"{RDF}_{li}"
            else:
                predicate = _uri(tag)
            keys = prop.keys()
            if (not keys or keys == [_RESOURCE]) and (
                    not len(prop) or isinstance(prop[0].tag, str)):
                # The common forms, fast: a literal, a resource, or one nested node.
                if len(prop):
                    obj = self.node(prop[0], base, lang, out)
                elif keep is not None and predicate not in keep:
                    continue
                elif keys:
                    obj = _resolve(base, prop.get(_RESOURCE))
                else:
                    obj = Literal(prop.text or "", lang, None)
                if keep is None or predicate in keep:
                    out.append((subject, predicate, obj))
            else:
                self.property(subject, predicate, prop, base, lang, out)

    def property(self, subject, predicate, prop, base, lang, out) -> None:
        """Any property element (the general grammar)."""
        attrib = prop.attrib
        base, lang = _scope(attrib, base, lang)
        parse_type = attrib.get(_PARSETYPE)
        children = [c for c in prop if isinstance(c.tag, str)]
        if parse_type == "Resource":
            obj = self.bnode()
            self.properties(obj, prop, base, lang, out)
        elif parse_type == "Collection":
            items = [self.node(c, base, lang, out) for c in children]
            obj = RDF + "nil"
            for item in reversed(items):
                cell = self.bnode()
                self.emit(out, cell, RDF + "first", item)
                self.emit(out, cell, RDF + "rest", obj)
                obj = cell
        elif parse_type is not None:  # "Literal" and any other value (the spec)
            from lxml import etree  # on use: the workflow's rule files read without lxml
            # Exclusive canonical XML: only the namespaces each element uses.
            inner = (prop.text or "") + "".join(
                etree.tostring(c, method="c14n", exclusive=True, with_comments=False
                               ).decode("utf-8") + (c.tail or "") for c in prop)
            obj = Literal(inner, None, _XML_LITERAL)
        elif children:
            obj = self.node(children[0], base, lang, out)
        elif _RESOURCE in attrib or _NODEID in attrib or any(
                n not in _SYNTAX_ATTRS and n != _ID and not n.startswith(_XML)
                for n in attrib):
            if _RESOURCE in attrib:
                obj = _resolve(base, attrib[_RESOURCE])
            elif _NODEID in attrib:
                obj = "_:" + attrib[_NODEID]
            else:
                obj = self.bnode()
            self._property_attributes(obj, attrib, base, lang, out)
        else:
            obj = Literal(prop.text or "", None if _DATATYPE in attrib else lang,
                          attrib.get(_DATATYPE))
        self.emit(out, subject, predicate, obj)
        if _ID in attrib:  # reification of this very triple
            statement = _resolve(base, "#" + attrib[_ID])
            self.emit(out, statement, RDF_TYPE, RDF + "Statement")
            self.emit(out, statement, RDF + "subject", subject)
            self.emit(out, statement, RDF + "predicate", predicate)
            self.emit(out, statement, RDF + "object", obj)


def triples(source: Iterable[bytes], base: str = "", name: str = "<stream>",
            predicates: Iterable[str] | None = None) -> Iterator[tuple]:
    """Yield ``(subject, predicate, object)`` triples of RDF/XML bytes (an iterable of
    byte chunks, e.g. :func:`.skos.byte_chunks`).

    With ``predicates``, only triples with those predicates are yielded (the
    others are still parsed past, not built). Memory is bounded by the largest
    child of ``rdf:RDF``. ``name`` only labels errors.
    """
    from lxml import etree  # on use: the workflow's rule files read without lxml

    reader = _Reader(None if predicates is None else frozenset(predicates))
    depth = 0
    root = None
    root_is_rdf = True
    out: list = []
    try:
        for event, el in _events(source):
            if event == "start":
                depth += 1
                if depth == 1:
                    root = el
                    root_is_rdf = el.tag == _RDFROOT
                    root_base, root_lang = _scope(el.attrib, base, None)
                continue
            depth -= 1
            if depth == 1 and root_is_rdf:
                reader.node(el, root_base, root_lang, out)
                yield from out
                out.clear()
                el.clear()
                # Drop the finished siblings, so that memory stays flat.
                while el.getprevious() is not None:
                    del root[0]
            elif depth == 0 and not root_is_rdf:
                reader.node(el, base, None, out)
                yield from out
                out.clear()
    except etree.XMLSyntaxError as error:
        from gradedrel.core.errors import InputError
        raise InputError(name, error.lineno, "well-formed RDF/XML", error.msg) from None


def _events(source: Iterable[bytes], feed: int = 1 << 16) -> Iterator[tuple]:
    """``(event, element)`` pairs from a pull parser fed in 64 KiB slices.

    ``source`` is an iterable of byte chunks (e.g. from a decompressor). Feeding the
    parser ourselves lets the caller decompress in large blocks: ``iterparse`` over a
    ``bz2`` file object reads it in small pieces and costs about twice the CPU time.
    """
    from lxml import etree

    parser = etree.XMLPullParser(events=("start", "end"), huge_tree=True,
                                 resolve_entities=False, no_network=True,
                                 remove_comments=True, remove_pis=True)
    for block in source:
        for start in range(0, len(block), feed):
            parser.feed(block[start:start + feed])
            yield from parser.read_events()
    parser.close()
    yield from parser.read_events()
