"""The registry of thesaurus sources: one class per format, looked up by the config's
``source``; the schema's enum is the registry's; a source registered outside the package
is read, cached and recorded through the same interface as the built-in three."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
import yaml

from gradedrel.thesaurus import Concept, cache, sources
from thesaurus_cases import thesaurus_of

REPO = Path(__file__).resolve().parents[2]
SCHEMA = yaml.safe_load((REPO / "config/schema/config.schema.yaml").read_text())
ENTRY = SCHEMA["properties"]["thesauri"]["additionalProperties"]


def test_the_schema_names_exactly_the_registered_sources():
    source = ENTRY["properties"]["source"]
    assert source["enum"] == list(sources.SOURCES) == ["skos", "mesh", "wordnet"]
    assert source["default"] == sources.DEFAULT_SOURCE
    # the sources made of several files are the ones the schema asks `files` of, and
    # `files` knows each of their roles
    several = [name for name, cls in sources.SOURCES.items() if cls.roles != ("file",)]
    assert ENTRY["if"]["properties"]["source"]["enum"] == several == ["mesh"]
    roles = {role for name in several for role in sources.SOURCES[name].roles}
    assert set(ENTRY["properties"]["files"]["properties"]) == roles


def test_each_source_is_looked_up_by_name_with_its_roles_and_parsers():
    config = sources.project_thesauri()
    found = {name: sources.source_of(spec) for name, spec in config.items()}
    assert {name: type(s).__name__ for name, s in found.items()} == \
        {"nasa": "Skos", "mesh": "Mesh", "wordnet": "WordNet"}
    assert list(found["mesh"].file_specs()) == ["descriptors", "trees"]
    assert list(found["nasa"].file_specs()) == list(found["wordnet"].file_specs()) == ["file"]
    assert {n: s.parsers for n, s in found.items()} == \
        {"nasa": ("lxml",), "mesh": ("rdata",), "wordnet": ()}
    assert found["wordnet"].options() == {"pos": ["n", "v", "a", "r"]}
    assert found["nasa"].options() == {"base": ""} and found["mesh"].options() == {}
    # SKOS: keyed by the file's own digest and no provenance block; the others: a digest
    # of source, options and files, and their mapping in words
    assert found["nasa"].cache_key() == config["nasa"]["sha256"]
    assert found["nasa"].provenance() is None
    mesh = found["mesh"].provenance()
    assert mesh["source"] == "mesh" and mesh["mapping"]["reader"] == "gradedrel.thesaurus.mesh"
    assert found["mesh"].cache_key() != found["wordnet"].cache_key()


def test_an_unknown_source_names_the_registered_ones():
    with pytest.raises(ValueError, match=r"source 'marc' is not one of \['skos', 'mesh', "
                                         r"'wordnet'\]"):
        sources.source_of({"source": "marc", "url": "x", "sha256": "0" * 64, "path": "p"})


def test_a_name_is_registered_once():
    class Other(sources.Source):
        name = "skos"

    with pytest.raises(ValueError, match="registered twice"):
        sources.register(Other)
    with pytest.raises(TypeError, match="needs a name"):
        sources.register(type("Nameless", (sources.Source,), {}))
    assert sources.SOURCES["skos"] is sources.Skos


class TermList(sources.Source):
    """A toy format: one concept per line, ``label<TAB>broader label``."""

    name = "termlist"

    @property
    def reader_version(self) -> int:
        return 3

    def options(self) -> dict:
        return {"case": self.spec.get("case", "keep")}

    def read(self, paths):
        rows = [line.split("\t") for line in Path(paths["file"]).read_text().splitlines()]
        fold = str.lower if self.options()["case"] == "lower" else str
        narrower = {f"#{b}": [] for _, b in rows if b}
        for label, broader in rows:
            if broader:
                narrower[f"#{broader}"].append(f"#{label}")
        return thesaurus_of(
            Concept(f"#{label}", fold(label), (), (f"#{broader}",) if broader else (),
                    tuple(narrower.get(f"#{label}", ()))) for label, broader in rows)

    def mapping(self) -> dict:
        return {"concept": "a line", "BT": "the second column"}


@pytest.fixture
def termlist():
    sources.register(TermList)
    yield TermList
    del sources.SOURCES["termlist"]


def test_a_source_registered_outside_the_package_reads_caches_and_records(termlist, tmp_path):
    data = tmp_path / "terms.tsv"
    data.write_text("Wings\t\nSwept wings\tWings\n")
    digest = hashlib.sha256(data.read_bytes()).hexdigest()
    config = {"thesauri": {"t": {"source": "termlist", "url": data.as_uri(), "sha256": digest,
                                 "path": str(data), "case": "lower"}}}
    thesaurus = sources.load("t", config, cache_dir=tmp_path / "cache")
    assert thesaurus.label("#Swept wings") == "swept wings"
    assert thesaurus.concepts["#Wings"].narrower == ("#Swept wings",)
    (cached,) = (tmp_path / "cache").glob("*" + cache.SUFFIX)
    header, again = cache.read_header_and_concepts(cached)
    assert again.concepts == thesaurus.concepts
    assert header["reader_version"] == 3 and header["source"] == data.as_uri()
    assert header["provenance"] == {"source": "termlist", "options": {"case": "lower"},
                                    "files": {"file": {"url": data.as_uri(), "sha256": digest}},
                                    "mapping": {"concept": "a line", "BT": "the second column"}}
    expected = hashlib.sha256(json.dumps(
        {"source": "termlist", "options": {"case": "lower"}, "files": {"file": digest}},
        sort_keys=True).encode()).hexdigest()
    assert header["source_sha256"] == expected
    # another option is another cache entry
    config["thesauri"]["t"]["case"] = "keep"
    assert sources.load("t", config, cache_dir=tmp_path / "cache").label("#Wings") == "Wings"
    assert len(list((tmp_path / "cache").glob("*" + cache.SUFFIX))) == 2
    summary = sources.source_of(config["thesauri"]["t"]).summary(thesaurus)
    assert summary.set_index("statistic").loc["BT_links", "value"] == 1
