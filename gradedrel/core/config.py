"""The configuration, checked against its schema: one loader for the workflow and the command.

``config/schema/config.schema.yaml`` describes every key with its default. The workflow
(``workflow/rules/common.smk``) validates its merged config with :func:`validate`, and
``gradedrel evaluate --config FILE`` reads its file with :func:`load_file`; both fill the
defaults as Snakemake's ``validate(config, schema, set_default=True)`` does (the same
jsonschema validator, extended to set each absent property's ``default``), and both turn a
violation into one line (:func:`schema_error_line`): where, what
is wrong, and for a misspelled key the closest valid one. The schema is found beside the
package (the project's ``config/``), never in the working directory.
"""
from __future__ import annotations

from pathlib import Path
import difflib
from typing import Any, Callable, Mapping, MutableMapping

from gradedrel.core.errors import InputError
from gradedrel.core.io import read_text

#: The schema of the configuration, in the project the package belongs to.
#: Inside the package (package data: a plain `pip install` has it too); config/schema/ links
#: to it, where Snakemake workflows keep their schemas.
SCHEMA = Path(__file__).resolve().parents[1] / "schemas" / "config.schema.yaml"


class ConfigError(ValueError):
    """A config that does not match the schema: its message is the one line to show; the
    jsonschema ``ValidationError`` is its ``__cause__`` (the whole story, for
    ``GRADEDREL_VERBOSE=1``)."""


def _yaml_loader():
    from gradedrel.core.yaml_io import StrictLoader

    return StrictLoader  # libyaml's where there is one; a key given twice is refused


def load_schema(path: str | Path = SCHEMA) -> dict:
    """The schema, read afresh on every call: defaults are put into a config as the
    schema's own objects (as Snakemake does), so a schema read once would carry one
    config's values into the next."""
    import yaml

    with open(path, encoding="utf-8") as handle:
        return yaml.load(handle, Loader=_yaml_loader())


def _validator(schema: dict, path: Path, root: object | None):
    """Draft 2020-12 with defaults set, exactly as ``snakemake.utils.validate`` builds it
    (local ``$ref`` resolved against the schema file); ``root``: an instance whose own
    absent properties are left absent (the sections a partial config leaves out)."""
    from jsonschema import Draft202012Validator, validators
    from referencing import Registry, Resource

    schema["$id"] = path.resolve().as_uri()

    def retrieve(uri):
        from urllib.parse import urlparse
        from urllib.request import url2pathname

        return Resource.from_contents(load_schema(url2pathname(urlparse(uri).path)))

    registry = Registry(retrieve=retrieve).with_resource(
        uri=str(path), resource=Resource.from_contents(schema))
    validate_properties = Draft202012Validator.VALIDATORS["properties"]

    def set_defaults(validator, properties, instance, schema):
        if instance is not root:
            for name, subschema in properties.items():
                if "default" in subschema:
                    instance.setdefault(name, subschema["default"])
        yield from validate_properties(validator, properties, instance, schema)

    with_defaults = validators.extend(Draft202012Validator, {"properties": set_defaults})
    return with_defaults(schema, registry=registry)


def validate(config: MutableMapping, source: str = "config", *, sections_only: bool = False,
             lines: "Mapping | None" = None, files=(), overrides: Mapping | None = None,
             schema_path: str | Path = SCHEMA) -> MutableMapping:
    """Check ``config`` against the schema and fill in the defaults (in place; returned).

    ``sections_only``: a config that holds only some sections (``gradedrel evaluate
    --config``): the sections it has are checked and completed, the others stay absent;
    an unknown section is an error all the same. ``source`` names the config in the
    message (a file, or ``config`` for the workflow's merged one); ``lines``: the file's
    YAML node (:func:`load_file`), so that the message gives the line too; ``files``: the
    config files ``config`` was layered from, earliest first (the workflow's
    ``--configfile``s), so that the message names the file that set the value and its
    line (:func:`where_set`; ``overrides``: values given on the command line, layered over
    them, named ``source``). A violation is one :class:`ConfigError`.
    """
    from jsonschema.exceptions import ValidationError


    path = Path(schema_path)
    validator = _validator(load_schema(path), path, config if sections_only else None)
    try:
        validator.validate(config)
    except ValidationError as error:
        line_of = where_set(((str(f), read_file(f)[1]) for f in files), overrides) \
            if files else _line_finder(lines)
        raise ConfigError(schema_error_line(error, source, line_of)) from error
    return config


def merge(into: dict, new: Mapping) -> dict:
    """``new`` layered over ``into`` as Snakemake layers its ``--configfile`` files (and as
    ``snakemake.utils.update_config`` does): mappings merged key by key, any other value
    replaced (a list is replaced whole). In place; returned."""
    import copy

    for key, value in new.items():
        if isinstance(value, Mapping) and isinstance(into.get(key), dict):
            merge(into[key], value)
        else:
            into[key] = copy.deepcopy(value)
    return into


def layered(paths, extra: Mapping | None = None, *, validated: bool = True,
            schema_path: str | Path = SCHEMA) -> dict:
    """The config files ``paths`` layered, later over earlier, then ``extra`` over them:
    the configuration the workflow sees for ``--configfile paths...``. ``validated``:
    checked against the schema with its defaults filled in, as the workflow does."""

    from gradedrel.core import yaml_io

    paths = list(paths)
    config: dict = {}
    for path in paths:
        merge(config, yaml_io.load_file(path) or {})
    merge(config, extra or {})
    if not validated:
        return config
    return dict(validate(config, files=paths, overrides=extra, schema_path=schema_path))


def load_file(path: str | Path, sections_only: bool = True) -> dict:
    """A YAML config file, validated (:func:`validate`, the sections it has only, by
    default), its defaults filled; every problem one line naming the file and line.
    UTF-8; a byte-order mark at its start is stripped."""
    data, node = read_file(path)
    return dict(validate(data, str(path), sections_only=sections_only, lines=node))


def read_file(path: str | Path) -> tuple[dict, Any]:
    """A YAML config file as it is (not validated, no defaults; several are merged before
    they are validated, as Snakemake merges its ``--configfile``s) and its composed YAML
    node (for the lines of messages); a file that is not YAML, or not a mapping, is one
    line naming the file and line."""
    import yaml

    path = Path(path)
    try:
        text = read_text(path, "a YAML config file as UTF-8 text")
    except FileNotFoundError:
        raise InputError(path, None, "a YAML config file", "no such file") from None
    loader = _yaml_loader()
    try:
        node = yaml.compose(text, Loader=loader)
        data = yaml.load(text, Loader=loader)
    except yaml.YAMLError as error:
        from gradedrel.core.yaml_io import as_input_error

        raise as_input_error(error, path) from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise InputError(path, 1, "a YAML mapping of config sections (evaluation: …)",
                         type(data).__name__)
    return data, node


def _line_in(node, parts: tuple, key: bool) -> int | None:
    """The line at which the composed YAML document ``node`` sets the value at ``parts``
    (mapping keys and list indices; ``key``: the last part is a key, give its line), as
    :func:`merge` layers files: None where a mapping on the way leaves the key out (an
    earlier file set it); a list or scalar on the way was set here whole, so the value
    below came with it: its line (the deepest this file holds)."""
    import yaml

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
    """Whether the plain mapping ``mapping`` (``--config`` values) sets the value at
    ``parts`` when layered over the files (:func:`merge`)."""
    current = mapping
    for part in parts:
        if not isinstance(current, Mapping):
            return True  # a value set whole above it
        if part not in current:
            return False
        current = current[part]
    return True


def where_set(layers, overrides: Mapping | None = None
              ) -> Callable[..., "tuple[str, int] | None"]:
    """``(path, key=None) -> (file, line)`` for a config layered from ``layers`` (pairs
    of a file name and its composed YAML node, earliest first, as :func:`merge` and
    Snakemake's ``--configfile`` layer them): the file that set the value at ``path`` (or
    the key ``key`` in the mapping there) and its line: the last file that sets it, since
    later files win. None where no file set it (a default, or ``overrides``: the values
    given on the command line, layered over every file)."""
    layers = list(layers)

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
    """The config files of a Snakemake run, earliest (overridden) first: ``configfiles``
    is ``workflow.configfiles`` (the ``--configfile`` files ``given``, then those the
    Snakefile's ``configfile:`` read), and Snakemake merges the ``--configfile`` files
    over the Snakefile's, in their order (``snakemake.workflow.Workflow.configfile``)."""
    given = [str(f) for f in given or ()]
    return [str(f) for f in list(configfiles)[len(given):]] + given


def _line_finder(node):
    """``(path, key) -> line`` in one composed YAML document (:func:`where_set` for one
    file); None where it is not found or for no document."""
    if node is None:
        return None
    locate = where_set([("", node)])

    def line_of(path: tuple, key: Any = None) -> int | None:
        found = locate(path, key)
        return None if found is None else found[1]

    return line_of


# --- the config against its schema -------------------------------------------------------

def schema_error_line(error, source: str = "config",
                      line_of: Callable[..., "int | None"] | None = None) -> str:
    """One line for a ``jsonschema.ValidationError``: where in the config, and what is
    wrong; an unknown key with the closest valid one. ``source`` names the config (a file,
    or ``config`` for the workflow's merged one); ``line_of(path, key=None)`` gives the
    file line of a value or key (:func:`gradedrel.core.config.load_file`), or the file and
    line, ``(file, line)``, in a config layered from several (:func:`where_set`)."""
    path = tuple(error.absolute_path)
    where = ".".join(str(p) for p in path) or "the top level"

    def located(key=None) -> str:
        found = line_of(path, key) if line_of is not None else None
        if isinstance(found, tuple):  # (file, line): a layered config (where_set)
            return f"{found[0]}:{found[1]}"
        return source if found is None else f"{source}:{found}"

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


def validation_error_of(error: BaseException):
    """The ``jsonschema.ValidationError`` inside Snakemake's ``WorkflowError``, or None."""
    try:
        from jsonschema.exceptions import ValidationError
    except ImportError:  # pragma: no cover - jsonschema comes with Snakemake
        return None
    seen: set[int] = set()
    pending = [error]
    while pending:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, ValidationError):
            return current
        pending += [a for a in getattr(current, "args", ()) if isinstance(a, BaseException)]
        pending += [e for e in (current.__cause__, current.__context__) if e is not None]
    return None
