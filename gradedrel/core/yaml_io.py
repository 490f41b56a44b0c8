"""The project's YAML loader for every YAML input: safe, libyaml's where there is one, and
refusing a key given twice in a mapping with both lines and values (PyYAML keeps the last
silently: ``grade_map: {"A": 3, "A": 0}`` would remap judgements). Modules with
constructors of their own subclass :class:`StrictLoader`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from gradedrel.core.errors import InputError
from gradedrel.core.io import read_text

_BASE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_MERGE = "tag:yaml.org,2002:merge"


class DuplicateKeyError(yaml.constructor.ConstructorError):
    """A mapping with a key given twice (``problem_mark``: the second)."""


def _shown(node: yaml.Node) -> str:
    if isinstance(node, yaml.ScalarNode):
        return repr(node.value)
    return "a mapping" if isinstance(node, yaml.MappingNode) else "a list"


class StrictLoader(_BASE):  # type: ignore[misc, valid-type]
    """The safe loader, refusing a key given twice in one mapping (also through an alias:
    ``{&a A: 3, *a : 0}``), a second merge key ``<<`` and a mapping merged twice."""

    def construct_mapping(self, node, deep=False):
        """The mapping of ``node``; :class:`DuplicateKeyError` at a key given twice."""
        if isinstance(node, yaml.MappingNode):
            seen: dict = {}
            merge = None
            for index, (key_node, value_node) in enumerate(node.value):
                if key_node.tag == _MERGE:
                    merge = _check_merge(merge, key_node, value_node)
                    continue
                key = self.construct_object(key_node, deep=True)
                try:
                    first = seen.setdefault(key, (key_node, value_node, index))
                except TypeError:  # an unhashable key: PyYAML says so itself
                    continue
                if first[2] != index:  # not node identity: an alias repeats its node
                    # an alias key's node is its anchor's: its value marks where it is
                    mark = (value_node if key_node is first[0] else key_node).start_mark
                    raise DuplicateKeyError(
                        None, None,
                        f"key {key!r} twice: line {first[0].start_mark.line + 1} = "
                        f"{_shown(first[1])}, line {mark.line + 1} = {_shown(value_node)}",
                        mark)
        return super().construct_mapping(node, deep=deep)


def _check_merge(before: yaml.Node | None, key_node: yaml.Node, value_node: yaml.Node
                 ) -> yaml.Node:
    """The merge key ``key_node``, unless the mapping had one ``before`` or it merges one
    mapping twice (:class:`DuplicateKeyError`: PyYAML would merge both silently)."""
    if before is not None:
        raise DuplicateKeyError(None, None, f"merge key '<<' twice: line "
                                f"{before.start_mark.line + 1}, line "
                                f"{key_node.start_mark.line + 1}", key_node.start_mark)
    if isinstance(value_node, yaml.SequenceNode):
        merged: set = set()
        for item in value_node.value:
            if id(item) in merged:
                raise DuplicateKeyError(None, None, "each mapping merged once: the mapping "
                                        f"of line {item.start_mark.line + 1} twice",
                                        value_node.start_mark)
            merged.add(id(item))
    return key_node


class Lined(dict):
    """A mapping read by :class:`LinedLoader`: ``line`` is the line it starts on (1-based)."""
    line: int = 0


def lined_mapping(loader, node) -> Lined:
    """``node``'s mapping as a :class:`Lined` (the constructor :class:`LinedLoader` uses)."""
    mapping = Lined(loader.construct_mapping(node, deep=True))
    mapping.line = node.start_mark.line + 1
    return mapping


def line_at(data: Any, path) -> int | None:
    """The line of the innermost :class:`Lined` mapping on ``path`` (keys and indexes of a
    value in ``data``, as a schema error's ``absolute_path``): where a message about the
    value there points."""
    line = getattr(data, "line", None)
    for part in path:
        data = data[part]
        line = getattr(data, "line", line)
    return line


class LinedLoader(StrictLoader):
    """:class:`StrictLoader` whose mappings know their line, for errors naming it."""


LinedLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, lined_mapping)


def load(text: str, source: str | Path = "<yaml>", loader: type = StrictLoader) -> Any:
    """The YAML document ``text``; one :class:`InputError` naming ``source`` and the line
    for a key given twice or text that is not YAML."""
    try:
        return yaml.load(text, Loader=loader)
    except yaml.YAMLError as error:
        raise as_input_error(error, source) from None


def read(path: str | Path, what: str = "a YAML file") -> str:
    """The text of the YAML file ``path``, read once (UTF-8, a byte-order mark allowed;
    ``what``: the file, as a message names it)."""
    try:
        return read_text(path, f"{what} as UTF-8 text")
    except FileNotFoundError:
        raise InputError(path, None, what, "no such file") from None


def load_file(path: str | Path, loader: type = StrictLoader, what: str = "a YAML file") -> Any:
    """The YAML document in file ``path`` (UTF-8, a byte-order mark allowed; ``what``: the
    file, as a message names it)."""
    return load(read(path, what), path, loader)


def as_input_error(error: yaml.YAMLError, source: str | Path,
                   expected: str = "valid YAML") -> InputError:
    """One line for a YAML error: the file, the line, what was wrong."""
    mark = getattr(error, "problem_mark", None)
    line = None if mark is None else mark.line + 1
    if isinstance(error, DuplicateKeyError):
        return InputError(source, line, "each key once in a mapping", error.problem)
    return InputError(source, line, expected, str(getattr(error, "problem", None) or error))
