"""config/README.md is the schema's documentation, current, and names every key the
project's own config files use."""
from __future__ import annotations

import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import config_doc  # noqa: E402  (tools/config_doc.py)


def _paths(value, prefix=""):
    if isinstance(value, dict):
        for key, child in value.items():
            path = f"{prefix}.{key}" if prefix else str(key)
            yield path
            yield from _paths(child, path)


def test_the_config_readme_is_generated_from_the_current_schema():
    schema = yaml.safe_load(config_doc.SCHEMA.read_text(encoding="utf-8"))
    assert config_doc.README.read_text(encoding="utf-8") == config_doc.render(schema), \
        "config/README.md is stale: run python tools/config_doc.py"


def test_every_key_has_a_description():
    schema = yaml.safe_load(config_doc.SCHEMA.read_text(encoding="utf-8"))
    undocumented = [key for key, _, _, text in config_doc.rows(schema) if not text]
    assert undocumented == []


def test_every_key_of_the_main_config_is_documented():
    schema = yaml.safe_load(config_doc.SCHEMA.read_text(encoding="utf-8"))
    documented = {key for key, *_ in config_doc.rows(schema)}
    config = yaml.safe_load((ROOT / "config" / "config.yaml").read_text(encoding="utf-8"))
    named = {"collections", "plan_sets", "thesauri", "models"}  # maps of user-chosen names

    def generic(path):
        parts, out = path.split("."), []
        for i, part in enumerate(parts):
            out.append("<name>" if i and parts[i - 1] in named else part)
        return ".".join(out)

    missing = sorted({generic(p) for p in _paths(config)} - documented)
    # only free-form maps below a documented key (a grade map's labels, a model's
    # parameters, a design's values) are not listed one by one
    assert all(any(m.startswith(d + ".") for d in documented) for m in missing), missing


def test_a_row_shows_type_default_and_meaning():
    text = config_doc.render({"properties": {"a": {"type": "integer", "default": 3,
                                                   "description": "x | y"}}})
    assert text.endswith("| `a` | integer | `3` | x \\| y |\n")
