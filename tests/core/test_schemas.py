"""The project's JSON schemas (gradedrel/schemas/*.yaml) say what their authors wrote: every
schema object at any depth holds JSON-Schema keywords only (a YAML slip such as
``{description: a, b}`` or ``text #1`` splits or cuts a description and leaves a stray key),
and every description is a whole sentence. The keywords come from the 2020-12 vocabulary
meta-schemas shipped with jsonschema (jsonschema_specifications), not from this project."""
from __future__ import annotations

from pathlib import Path

import pytest

from gradedrel.core import yaml_io

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = sorted((ROOT / "gradedrel" / "schemas").glob("*.schema.yaml"))

#: Keywords holding one schema, a map of names to schemas, or a list of schemas.
ONE = {"additionalProperties", "items", "not", "propertyNames", "contains", "if", "then",
       "else", "unevaluatedItems", "unevaluatedProperties", "contentSchema"}
MAP = {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
LIST = {"allOf", "anyOf", "oneOf", "prefixItems"}
PAIRS = {"()": ("(", ")"), "[]": ("[", "]"), "{}": ("{", "}")}


def _keywords() -> set[str]:
    from jsonschema_specifications import REGISTRY

    words: set[str] = set()
    for uri in REGISTRY:
        if "/draft/2020-12/" in uri:
            words |= set(REGISTRY[uri].contents.get("properties", {}))
    return words


def _subschemas(schema, where="#"):
    """(where, schema object) for ``schema`` and every schema inside it."""
    if not isinstance(schema, dict):
        return
    yield where, schema
    for key, value in schema.items():
        if key in ONE:
            yield from _subschemas(value, f"{where}/{key}")
        elif key in MAP and isinstance(value, dict):
            for name, child in value.items():
                yield from _subschemas(child, f"{where}/{key}/{name}")
        elif key in LIST and isinstance(value, list):
            for i, child in enumerate(value):
                yield from _subschemas(child, f"{where}/{key}/{i}")


def sentence_problem(text) -> str | None:
    """What keeps ``text`` from being a whole sentence, or None."""
    if not isinstance(text, str) or not text.strip():
        return "no text"
    text = " ".join(text.split())
    if not (text[0].isupper() or text[0] in "`\"'("):  # (skos) ...: the source it is for
        return "starts in lower case"
    if text[-1] not in ".?:!":
        return "does not end with . ? : or !"
    for opening, closing in PAIRS.values():
        depth = 0
        for char in text:
            depth += (char == opening) - (char == closing)
            if depth < 0:
                break
        if depth:
            return f"unbalanced {opening}{closing}"
    for mark in "`\"":
        if text.count(mark) % 2:
            return f"odd number of {mark}"
    return None


def test_the_keywords_come_from_the_specification():
    words = _keywords()
    assert {"description", "default", "properties", "oneOf", "minItems"} <= words
    assert "http or file)" not in words and "DCG)." not in words


@pytest.mark.parametrize("text, problem", [
    ("Download URL (https", "does not end with . ? : or !"),
    ("How queries are built", "does not end with . ? : or !"),
    ("Download URL (https.", "unbalanced ()"),
    ("Use `a or `b`.", "odd number of `"),
    ("pinned to one version.", "starts in lower case"),
    ("Gain (1) or not (0).", None),
    ("(skos) Base URI.", None),
    ("`sha256` of the file; \"quoted\" [x].", None),
])
def test_a_sentence_is_recognised(text, problem):
    assert sentence_problem(text) == problem


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_every_schema_object_holds_json_schema_keywords_only(path):
    words = _keywords()
    stray = [f"{where}: {key!r}" for where, node in _subschemas(yaml_io.load_file(path))
             for key in node if key not in words]
    assert stray == [], f"{path.name}: keys that are not JSON-Schema keywords " \
                        f"(a YAML slip splitting a description?): {stray}"


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_every_description_is_a_whole_sentence(path):
    bad = [f"{where}: {sentence_problem(node['description'])}: {node['description']!r}"
           for where, node in _subschemas(yaml_io.load_file(path))
           if "description" in node and sentence_problem(node["description"])]
    assert bad == [], f"{path.name}: descriptions cut or split: {bad}"
