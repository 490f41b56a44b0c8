"""The SKOS reader holds exactly what rdflib reads (fixture and the NASA file)."""
from __future__ import annotations

import bz2
import gzip
import io
import shutil
from pathlib import Path

import pytest
import rdflib
from rdflib.compare import isomorphic
from rdflib.namespace import RDF, SKOS

from gradedrel.core.errors import InputError
from gradedrel.thesaurus import normalise_label, rdfxml
from gradedrel.thesaurus.skos import byte_chunks, read_skos

FIXTURES = Path(__file__).parents[1] / "fixtures" / "thesaurus"
MINI_RDF = FIXTURES / "mini_skos.rdf"
MINI_TTL = FIXTURES / "mini_skos.ttl"
SKM = rdflib.Namespace("http://synaptica.net/skm/")
REPO = Path(__file__).resolve().parents[2]
NASA_CANDIDATES = [REPO / ".data/thesauri/nasa/NASA_Thesaurus_Alpha_SKOS.xml.bz2"]


def rdflib_graph(data: bytes, fmt: str) -> rdflib.Graph:
    graph = rdflib.Graph()
    # A stream without a name: rdflib then keeps relative URIs as written, as our reader does.
    graph.parse(io.BytesIO(data), format=fmt)
    return graph


def expected_concepts(graph: rdflib.Graph) -> dict[str, dict[str, set[str]]]:
    """Independently of the package: each concept's label and link sets, by rdflib."""
    subjects = set(graph.subjects(RDF.type, SKOS.Concept)) | set(
        graph.subjects(SKOS.prefLabel, None))
    fields = {"pref": SKOS.prefLabel, "alt": SKOS.altLabel, "definition": SKOS.definition,
              "broader": SKOS.broader, "narrower": SKOS.narrower, "related": SKOS.related,
              "use": SKM.Use, "used_for": SKM.UF}
    literal_fields = {"pref", "alt", "definition"}
    out = {}
    for s in subjects:
        out[str(s)] = {
            name: {str(o) for o in graph.objects(s, p)
                   if isinstance(o, rdflib.Literal) == (name in literal_fields)}
            for name, p in fields.items()}
    return out


def model_concepts(thesaurus) -> dict[str, dict[str, set[str]]]:
    return {uri: {"pref": set(c.pref_labels), "alt": set(c.alt_labels),
                  "definition": set(c.definitions), "broader": set(c.broader),
                  "narrower": set(c.narrower), "related": set(c.related),
                  "use": set(c.use), "used_for": set(c.used_for)}
            for uri, c in thesaurus.concepts.items()}


def _to_rdflib(term):
    if isinstance(term, rdfxml.Literal):
        return rdflib.Literal(term.value, lang=term.lang, datatype=term.datatype)
    if term.startswith("_:"):
        return rdflib.BNode(term[2:])
    return rdflib.URIRef(term)


def test_streaming_triples_are_isomorphic_to_rdflib_on_fixture():
    data = MINI_RDF.read_bytes()
    ours = rdflib.Graph()
    for s, p, o in rdfxml.triples([data]):
        ours.add((_to_rdflib(s), _to_rdflib(p), _to_rdflib(o)))
    theirs = rdflib_graph(data, "xml")
    assert len(ours) == len(theirs)
    assert isomorphic(ours, theirs)


def test_base_resolves_relative_uris_like_rdflib():
    data = MINI_RDF.read_bytes()
    base = "http://example.org/nasa.rdf"
    theirs = rdflib.Graph()
    theirs.parse(io.BytesIO(data), format="xml", publicID=base)
    ours = {(s, p, o) for s, p, o in rdfxml.triples([data], base=base)
            if not s.startswith("_:") and isinstance(o, str) and not o.startswith("_:")}
    theirs_uris = {(str(s), str(p), str(o)) for s, p, o in theirs
                   if isinstance(s, rdflib.URIRef) and isinstance(o, rdflib.URIRef)}
    assert ours == theirs_uris
    assert ("http://example.org/nasa.rdf#100", str(SKOS.narrower),
            "http://example.org/nasa.rdf#110") in ours


def test_fixture_concepts_equal_rdflib():
    thesaurus = read_skos(MINI_RDF)
    assert model_concepts(thesaurus) == expected_concepts(
        rdflib_graph(MINI_RDF.read_bytes(), "xml"))


def test_fixture_repeats_are_merged_in_first_seen_order():
    thesaurus = read_skos(MINI_RDF)
    aero = thesaurus["#100"]
    # Two occurrences of #100: links united, duplicates once, order as first seen.
    assert aero.narrower == ("#110", "#120")
    assert aero.related == ("#200", "#c400")
    assert aero.pref_labels == ("aeroelasticity",)
    assert aero.definitions == (
        "The study of the response of structurally elastic bodies to aerodynamic loads.",)
    # Labels kept as given: the NASA `~ ` mark, white space, every language.
    assert thesaurus["#300"].pref_label == "~ structures"
    assert thesaurus["#300"].marked
    assert normalise_label(thesaurus["#300"].pref_label) == "structures"
    assert thesaurus["#c400"].pref_labels == ("loads (forces)", "Lasten")
    assert thesaurus["#c400"].definitions[1] == "  Forces on a structure, with   spaces kept.  "
    # A concept typed but unlabelled is kept (with an empty preferred label), not dropped.
    assert thesaurus["#500"].pref_label == ""
    # xml:base applies to its element only.
    assert "http://example.org/other/c120" in thesaurus


def test_entry_terms_lead_to_preferred_concepts():
    thesaurus = read_skos(MINI_RDF)
    assert thesaurus["#900"].is_entry_term and thesaurus["#900"].use == ("#200",)
    assert thesaurus["#200"].used_for == ("#900",)
    index = thesaurus.label_index()
    assert index["aeroelastic flutter"] == ("#200",)
    assert index["structures"] == ("#300",)
    assert index["wing"] == ("#310",)
    assert thesaurus.label_index(follow_use=False)["aeroelastic flutter"] == ("#200", "#900")


def test_turtle_concepts_equal_rdflib():
    thesaurus = read_skos(MINI_TTL)
    assert model_concepts(thesaurus) == expected_concepts(
        rdflib_graph(MINI_TTL.read_bytes(), "turtle"))
    assert thesaurus["http://example.org/nasa#100"].narrower == (
        "http://example.org/nasa#110", "http://example.org/nasa#120")


@pytest.mark.parametrize("suffix, compress", [(".rdf.bz2", bz2.compress),
                                               (".rdf.gz", gzip.compress),
                                               (".xml", lambda b: b)])
def test_compressed_and_renamed_sources_read_alike(tmp_path, suffix, compress):
    target = tmp_path / f"mini{suffix}"
    target.write_bytes(compress(MINI_RDF.read_bytes()))
    assert read_skos(target).concepts == read_skos(MINI_RDF).concepts


def test_unknown_suffix_is_sniffed(tmp_path):
    xml_copy, ttl_copy = tmp_path / "thesaurus.data", tmp_path / "other.data"
    shutil.copy(MINI_RDF, xml_copy)
    shutil.copy(MINI_TTL, ttl_copy)
    assert read_skos(xml_copy).concepts == read_skos(MINI_RDF).concepts
    assert read_skos(ttl_copy).concepts == read_skos(MINI_TTL).concepts


def test_malformed_xml_is_one_error_with_file_and_line(tmp_path):
    bad = tmp_path / "bad.rdf"
    text = MINI_RDF.read_text().replace("</skos:prefLabel>\n        <skos:broader",
                                        "</skos:prefLabl>\n        <skos:broader", 1)
    bad.write_text(text)
    with pytest.raises(InputError) as caught:
        read_skos(bad)
    message = str(caught.value)
    assert str(bad) in message and "RDF/XML" in message
    assert caught.value.line is not None and caught.value.line > 10


def test_missing_file_and_no_concepts_are_clear_errors(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_skos(tmp_path / "absent.rdf")
    empty = tmp_path / "empty.rdf"
    empty.write_text('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>')
    with pytest.raises(InputError, match="SKOS concepts"):
        read_skos(empty)


@pytest.mark.slow  # reads the whole NASA Thesaurus twice (about 2 minutes)
def test_nasa_thesaurus_equals_rdflib():
    """Slow (~1 min, ~1.2 GB: rdflib parses the whole file). Every concept's sets."""
    source = next((p for p in NASA_CANDIDATES if p.exists()), None)
    if source is None:
        pytest.skip("NASA Thesaurus not present (run the workflow's thesaurus_fetch rule)")
    thesaurus = read_skos(source)
    with bz2.open(source, "rb") as handle:
        graph = rdflib_graph(handle.read(), "xml")
    expected = expected_concepts(graph)
    del graph
    ours = model_concepts(thesaurus)
    assert ours.keys() == expected.keys()
    differing = [uri for uri in expected if ours[uri] != expected[uri]]
    assert differing == []
    # Counts the data README states (measured independently when the data was seeded).
    assert len(thesaurus) == 22622
    assert sum(len(c.alt_labels) for c in thesaurus.concepts.values()) == 4503
    assert sum(len(c.related) for c in thesaurus.concepts.values()) == 117340


@pytest.mark.parametrize("suffix, compress", [(".rdf.bz2", bz2.compress),
                                               (".rdf.gz", gzip.compress)])
def test_concatenated_compressed_streams_are_read_to_the_end(tmp_path, suffix, compress):
    # Split the file in two compressed streams, as parallel compressors (pbzip2,
    # pigz) write them; the decompressed bytes are the whole file.
    data = MINI_RDF.read_bytes()
    middle = len(data) // 2
    target = tmp_path / f"mini{suffix}"
    target.write_bytes(compress(data[:middle]) + compress(data[middle:]))
    assert b"".join(byte_chunks(target, block=64)) == data
    assert read_skos(target).concepts == read_skos(MINI_RDF).concepts


@pytest.mark.parametrize("suffix, compress", [(".rdf.bz2", bz2.compress),
                                               (".rdf.gz", gzip.compress),
                                               (".ttl.gz", gzip.compress)])
def test_a_truncated_compressed_file_is_one_error_not_part_of_a_thesaurus(
        tmp_path, suffix, compress):
    # A download cut short: gzip.open/bz2.open raise EOFError; the streaming reader must
    # not hand the parser a prefix (which may parse into fewer concepts without a word).
    source = MINI_TTL if suffix.startswith(".ttl") else MINI_RDF
    whole = compress(source.read_bytes())
    target = tmp_path / f"mini{suffix}"
    target.write_bytes(whole[:len(whole) - 8])
    with pytest.raises(InputError, match="truncated") as caught:
        read_skos(target)
    assert str(target) in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("suffix, compress", [(".rdf.bz2", bz2.compress),
                                               (".rdf.gz", gzip.compress)])
def test_a_damaged_compressed_file_is_one_error(tmp_path, suffix, compress):
    # bz2 raises OSError, zlib its own error, on a corrupted block: one line naming the file
    whole = bytearray(compress(MINI_RDF.read_bytes()))
    middle = len(whole) // 2
    whole[middle:middle + 16] = bytes(16)
    target = tmp_path / f"mini{suffix}"
    target.write_bytes(bytes(whole))
    with pytest.raises(InputError, match="a complete thesaurus file") as caught:
        read_skos(target)
    assert str(target) in str(caught.value) and "\n" not in str(caught.value)

