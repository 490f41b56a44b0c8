"""The configuration, checked against its schema: one loader for the workflow and the command.

``config/schema/config.schema.yaml`` describes every key with its default. The workflow
(``workflow/rules/common.smk``) validates its merged config with :func:`validate`, and
``gradedrel evaluate --config FILE`` reads its file with :func:`load_file`; both fill the
defaults as Snakemake's ``validate(config, schema, set_default=True)`` does, and both turn
a violation into one line (:func:`schema_error_line`): where, what is wrong, and for a
misspelled key the closest valid one. The schema is found beside the package, never in
the working directory. Other files with a schema (plan files, ``schemas/plans.schema.yaml``)
are checked with :func:`check_located`: one :class:`InputError` naming file, line and what
was expected, in the terms of the schema's titles.
"""
from __future__ import annotations

import copy
import difflib
from pathlib import Path
from typing import Any, Callable, Mapping, MutableMapping

import yaml

from gradedrel.core import yaml_io
from gradedrel.core.errors import InputError

#: The config schema: package data (a plain `pip install` has it); config/schema/ links to it.
SCHEMA = Path(__file__).resolve().parents[1] / "schemas" / "config.schema.yaml"


class ConfigError(ValueError):
    """A config that does not match the schema: its message is the one line to show; the
    jsonschema ``ValidationError`` is its ``__cause__`` (for ``GRADEDREL_VERBOSE=1``)."""


def _validator(schema: dict, root: object | None):
    """Draft 2020-12 with defaults set, as ``snakemake.utils.validate`` builds it (the schema
    refers to no other file); ``root``: an instance whose own absent properties stay absent
    (a partial config's sections)."""
    from jsonschema import Draft202012Validator, validators

    validate_properties = Draft202012Validator.VALIDATORS["properties"]

    def set_defaults(validator, properties, instance, schema):
        if instance is not root and isinstance(instance, dict):  # not a section set to null
            for name, subschema in properties.items():
                if "default" in subschema:
                    instance.setdefault(name, subschema["default"])
        yield from validate_properties(validator, properties, instance, schema)

    with_defaults = validators.extend(Draft202012Validator, {"properties": set_defaults})
    return with_defaults(schema)


def validate(config: MutableMapping, source: str = "config", *, sections_only: bool = False,
             files=(), overrides: Mapping | None = None,
             schema_path: str | Path = SCHEMA) -> MutableMapping:
    """Check ``config`` against the schema and fill in the defaults (in place; returned).

    ``sections_only``: only the sections it has are checked and completed (``gradedrel
    evaluate --config``); an unknown section is an error all the same. ``source`` names the
    config in the message; ``files``: the files it was layered from, earliest first, so
    that the message names the file and line that set the value (:func:`locator`;
    ``overrides``: command-line values over them; a file given as ``(path, text)``: its text,
    read already).
    A violation is one :class:`ConfigError`.
    """
    from jsonschema.exceptions import ValidationError

    # the schema read afresh on every call: defaults go into a config as the schema's own
    # objects, so a schema read once would carry one config's values into the next
    validator = _validator(yaml_io.load_file(schema_path), config if sections_only else None)
    try:
        validator.validate(config)
    except ValidationError as error:
        raise ConfigError(schema_error_line(error, source, locator(files, overrides))) from error
    return config


def merge(into: dict, new: Mapping) -> dict:
    """``new`` layered over ``into`` as Snakemake layers its ``--configfile`` files:
    mappings merged key by key, any other value (a list too) replaced. In place; returned."""
    for key, value in new.items():
        if isinstance(value, Mapping) and isinstance(into.get(key), dict):
            merge(into[key], value)
        else:
            into[key] = copy.deepcopy(value)
    return into


def layered(paths, extra: Mapping | None = None, *, validated: bool = True,
            schema_path: str | Path = SCHEMA) -> dict:
    """The config files ``paths`` layered, later over earlier, then ``extra``: what the
    workflow sees for ``--configfile paths...``; ``validated``: checked, defaults filled."""
    paths = list(paths)
    config: dict = {}
    for path in paths:
        merge(config, yaml_io.load_file(path) or {})
    merge(config, extra or {})
    if not validated:
        return config
    return dict(validate(config, files=paths, overrides=extra, schema_path=schema_path))


def load_file(path: str | Path, sections_only: bool = True) -> dict:
    """A YAML config file (UTF-8, a byte-order mark stripped), validated (by default the
    sections it has only), its defaults filled; every problem one line naming file and line."""
    text = yaml_io.read(path, "a YAML config file")  # once: it may be a pipe or '-'
    return dict(validate(read_file(path, text), str(path), sections_only=sections_only,
                         files=[(path, text)]))


def read_file(path: str | Path, text: str | None = None) -> dict:
    """A YAML config file as it is (not validated: several are merged first; ``text``: its
    text, read already); not YAML, or not a mapping: one line."""
    data = yaml_io.load(yaml_io.read(path, "a YAML config file") if text is None else text,
                        path)
    if data is not None and not isinstance(data, dict):
        raise InputError(path, 1, "a YAML mapping of config sections (evaluation: …)",
                         type(data).__name__)
    return data or {}


def _line_in(node, parts: tuple, key: bool) -> int | None:
    """The line at which the YAML document ``node`` sets the value at ``parts`` (``key``:
    the last part is a key), as :func:`merge` layers files: None where a mapping on the way
    lacks the key; a list or scalar on the way was set whole here: its line."""
    current, line, whole = node, None, False
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if isinstance(current, yaml.MappingNode):
            found = next(((k, v) for k, v in current.value if k.value == str(part)), None)
            if found is None:
                return line if whole else None
            key_node, current = found
            line = (key_node if key and last else current).start_mark.line + 1
        elif isinstance(current, yaml.SequenceNode) and isinstance(part, int) \
                and 0 <= part < len(current.value):
            current, whole = current.value[part], True
            line = current.start_mark.line + 1
        else:
            return line if line is not None else current.start_mark.line + 1
    return line


def _sets(mapping: Any, parts: tuple) -> bool:
    """Whether ``mapping`` (``--config`` values) sets the value at ``parts``."""
    current = mapping
    for part in parts:
        if not isinstance(current, Mapping):
            return True  # a value set whole above it
        if part not in current:
            return False
        current = current[part]
    return True


def locator(files, overrides: Mapping | None = None
            ) -> Callable[..., "tuple[str, int] | None"]:
    """``(path, key=None) -> (file, line)`` for a config layered from the config files
    ``files`` (earliest first; each read again, for its YAML nodes; a ``(path, text)`` pair:
    the text already read, for a file that cannot be read twice, such as a pipe): the last
    file that sets the value (or key) there. None where no file set it (a default, or
    ``overrides``: command-line values)."""
    texts = [(str(f[0]), f[1]) if isinstance(f, tuple) else
             (str(f), yaml_io.read(f, "a YAML config file")) for f in files]
    layers = [(source, yaml.compose(text, Loader=yaml_io.StrictLoader)) for source, text in texts]

    def locate(path: tuple, key: Any = None):
        parts = (*path, *(() if key is None else (key,)))
        if overrides and _sets(overrides, parts):
            return None
        for source, node in reversed(layers):
            line = None if node is None else _line_in(node, parts, key is not None)
            if line is not None:
                return source, line
        return None

    return locate


def snakemake_layers(configfiles, given) -> list[str]:
    """The config files of a Snakemake run, earliest first: ``workflow.configfiles`` lists
    the ``--configfile`` files ``given`` before the Snakefile's, which they override."""
    given = [str(f) for f in given or ()]
    return [str(f) for f in list(configfiles)[len(given):]] + given


#: What a JSON-Schema type is called in a message.
_KINDS = {"string": "text", "object": "a mapping", "array": "a list", "boolean": "true or false",
          "integer": "an integer", "number": "a number"}
#: Keywords holding several schemas, by name or by position.
_HOLDERS = {"properties", "patternProperties", "$defs", "dependentSchemas", "allOf", "anyOf",
            "oneOf", "prefixItems"}


def check_located(instance: Any, schema: dict, source: str,
                  line_of: Callable[[tuple], "int | None"]) -> None:
    """Check ``instance`` (read from the file ``source``) against ``schema`` (without
    references: :func:`inlined`; no defaults set): its first violation in file order, the
    outermost first on one line (``line_of``: the line of the value at an instance path), is
    one :class:`InputError` naming the file, the line and what was expected
    (:func:`expected_of`)."""
    from jsonschema import Draft202012Validator

    errors = list(Draft202012Validator(schema).iter_errors(instance))
    if errors:
        lines = [line_of(tuple(e.absolute_path)) for e in errors]
        at = min(range(len(errors)),
                 key=lambda i: (lines[i] or 0, len(errors[i].absolute_path)))
        raise InputError(source, lines[at], *expected_of(errors[at], schema))


def inlined(schema: dict) -> dict:
    """``schema`` with each local ``$ref`` (``#/$defs/…``, none recursive) replaced by the
    schema it names and ``$defs`` left out: the same checks, a third faster (jsonschema
    resolves a reference at every use), and error paths through every schema they pass."""
    def resolved(node):
        if isinstance(node, dict):
            if "$ref" in node:
                target = schema
                for step in node["$ref"].split("/")[1:]:
                    target = target[step]
                return resolved(target)
            return {k: resolved(v) for k, v in node.items() if k != "$defs"}
        return [resolved(v) for v in node] if isinstance(node, list) else node
    return resolved(schema)


def _names(error, root: dict) -> tuple:
    """``(object, property, branch)`` along ``error``'s schema path in ``root``: the title
    of the innermost object schema it is in, the property it is at (None: the object
    itself), and the title of the innermost ``then``/``else``/``allOf`` branch it passed."""
    owner, name, branch = root.get("title"), None, None
    node, holder, keyword = root, None, None
    for part in list(error.absolute_schema_path)[:-1]:  # the last: the keyword that failed
        if holder is not None:  # ``part`` names a schema in a map or list of schemas
            node, keyword, holder = node[part], holder, None
            name = part if keyword == "properties" else name
        elif part in _HOLDERS:
            node, holder = node[part], part
            continue
        else:
            node, keyword = node[part], part
        if isinstance(node, dict) and node.get("title"):
            if keyword in ("then", "else", "allOf"):
                branch = node["title"]
            else:
                owner, name = node["title"], None
    return owner, name, branch


def expected_of(error, root: dict) -> tuple[str, Any]:
    """``(expected, found)`` of :class:`InputError` for a ``jsonschema.ValidationError``
    against the schema ``root``: the title of a then/else/allOf branch the error passed says
    what was expected; otherwise the object's title, the property and the keyword do
    (``facet.specificity as a number``, ``importance one of [...]``, ``plan with a 'qid'``)."""
    owner, name, branch = _names(error, root)
    what = f"{owner}.{name}" if name else owner
    kind, value, instance = error.validator, error.validator_value, error.instance
    if kind == "additionalProperties":
        known = sorted(error.schema.get("properties") or {})
        return f"{owner} fields among {known}", sorted((k for k in instance if k not in known),
                                                       key=str)
    found = None if kind in ("required", "minItems") else instance
    if branch:
        return branch, found
    if kind == "type":
        kinds = [value] if isinstance(value, str) else value
        return f"{what} as {' or '.join(_KINDS[k] for k in kinds if k in _KINDS)}", found
    if kind == "enum":
        return f"{name or owner} one of {[v for v in value if v is not None]}", found
    if kind == "required":
        return f"{owner} with a '{next(k for k in value if k not in instance)}'", None
    if kind == "minLength":
        return f"{what} as non-empty text", found
    if kind == "minimum":
        return f"{what} of at least {value}", found
    if kind == "minItems":
        one = (error.schema.get("items") or {}).get("title")
        return (f"a {owner} with at least one {one}" if one else
                f"{what} with at least {value} items"), None
    return f"{what}: {' '.join(str(error.message).split())}", None


def schema_error_line(error, source: str = "config",
                      line_of: Callable[..., "tuple[str, int] | None"] | None = None) -> str:
    """One line for a ``jsonschema.ValidationError``: where, and what is wrong; an unknown
    key with the closest valid one. ``line_of(path, key=None)``: the ``(file, line)`` of a
    value or key in a layered config (:func:`locator`), or None (then ``source`` is named)."""
    path = tuple(error.absolute_path)
    where = ".".join(str(p) for p in path) or "the top level"

    def located(key=None) -> str:
        found = line_of(path, key) if line_of is not None else None
        return source if found is None else f"{found[0]}:{found[1]}"

    if error.validator == "additionalProperties" and isinstance(error.instance, Mapping):
        known = list((error.schema.get("properties") or {}).keys())
        unknown = [k for k in error.instance if k not in known]
        parts = []
        for key in unknown:
            close = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]!r}?" if close else \
                f" (valid keys: {', '.join(sorted(known))})"
            parts.append(f"{located(key)}: unknown key {key!r} at {where}{hint}")
        if parts:
            return " | ".join(parts)
    message = " ".join(str(error.message).split())
    if len(message) > 240:
        message = message[:237] + "..."
    return f"{located()}: {where}: {message}"

