"""config/README.md from the config schema: every key of the configuration with its type,
default and description, in the schema's order (``python tools/config_doc.py`` rewrites
the file; tests/core/test_config_doc.py checks it is current). A maintainer's tool of the
checkout, not the package's: config/README.md is not installed."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator, Mapping

import yaml

from gradedrel.core.config import SCHEMA

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "config" / "README.md"

HEAD = """# Configuration

<!-- GENERATED from config/schema/config.schema.yaml by `python tools/config_doc.py`;
do not edit by hand (tests/core/test_config_doc.py checks that the two agree). -->

The workflow reads `config/config.yaml` (the Cranfield main job), then every file given
with `--configfile` layered over it, key by key (e.g. `config/nfcorpus/testbed.yaml` adds
NFCorpus). Used as a Snakemake module, the config passed in the `module` statement is
layered over `config/config.yaml` the same way (docs/module.md). Every value is checked
against [the schema](schema/config.schema.yaml) before any job runs: an unknown or
misspelled key, or a value of the wrong type, stops the run with one line naming the file,
the line, the key path and the closest valid key.

Files here: `config.yaml` (the defaults and the Cranfield testbed), `nfcorpus/` (the second
testbed: its config, plans and request sources), `expert/` (the curated Cranfield plans),
`design/` (the pre-registered study designs), `published/` (the paper's numbers),
`presets/`, `probe/` (the memory probe's batches and answers), `key_ratings/` (the blinded
ratings of curated keys) and `schema/`.

Below, `<name>` stands for a name you choose (a collection, a plan set, a thesaurus, a
model); `[]` for the items of a list.

| key | type | default | meaning |
|---|---|---|---|
"""


def _type(node: Mapping[str, Any]) -> str:
    if "enum" in node:
        return " \\| ".join(f"`{v}`" for v in node["enum"])
    if "oneOf" in node or "anyOf" in node:
        return " or ".join(_type(n) for n in node.get("oneOf", node.get("anyOf")))
    kind = node.get("type", "")
    if isinstance(kind, list):
        return " or ".join(kind)
    if kind == "array" and isinstance(node.get("items"), Mapping) and "type" in node["items"]:
        return f"list of {node['items']['type']}"
    return kind or "any"


def _text(value: Any) -> str:
    return " ".join(str(value).split()).replace("|", "\\|")


def rows(node: Mapping[str, Any], path: str = "") -> Iterator[tuple[str, str, str, str]]:
    """(key path, type, default, description) for every key under ``node``, depth first:
    its properties, then those of a mapping's values, a list's items and each choice."""
    for name, child in node.get("properties", {}).items():
        key = f"{path}.{name}" if path else name
        default = f"`{json.dumps(child['default'])}`" if "default" in child else ""
        yield key, _type(child), _text(default), _text(child.get("description", ""))
        for under, sub in ((key, child), (f"{key}.<name>", child.get("additionalProperties")),
                           (f"{key}[]", child.get("items")),
                           *((key, c) for c in child.get("oneOf", []) + child.get("anyOf", []))):
            if isinstance(sub, Mapping):
                yield from rows(sub, under)


def render(schema: Mapping[str, Any]) -> str:
    """The README text for ``schema`` (deterministic: the schema's own order)."""
    lines: dict[str, str] = {}  # a key reached twice (a oneOf's branches): its first row
    for key, kind, default, text in rows(schema):
        lines.setdefault(key, f"| `{key}` | {kind} | {default} | {text} |")
    return HEAD + "\n".join(lines.values()) + "\n"


def main() -> None:
    """Rewrite config/README.md from the schema."""
    README.write_text(render(yaml.safe_load(SCHEMA.read_text(encoding="utf-8"))),
                      encoding="utf-8")


if __name__ == "__main__":
    main()
