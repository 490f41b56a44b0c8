"""Relevance grades: the paper's four-point scale and the map from a collection's raw labels.

Järvelin & Kekäläinen (2000) judge on a four-point scale: 0 irrelevant,
1 marginally, 2 fairly, 3 highly relevant. Collections label their judgements in
their own ways (Cranfield: Cleverdon's codes, where 1 is *best*), so every
collection declares an explicit *grade map* from raw label to level. A raw
label missing from the map is an error, never a guess.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from gradedrel.core.errors import InputError

LEVELS = (0, 1, 2, 3)
LEVEL_NAMES = {0: "irrelevant", 1: "marginally", 2: "fairly", 3: "highly"}
#: The same levels as table rows and figure panels name them ("3 high").
LEVEL_SHORT = {0: "irrelevant", 1: "marginal", 2: "fair", 3: "high"}


def canonical_label(label: object) -> str:
    """A raw label in the one form labels are compared in: an integer's text (``"1"``,
    ``1``, ``"01"``, ``" 1"`` and the fullwidth ``"１"`` are label ``1``), else the text
    stripped."""
    text = str(label).strip()
    try:
        return str(int(text))
    except ValueError:
        return text


@dataclass(frozen=True)
class GradeMap:
    """Map from raw relevance labels (as text) to the paper's levels 0–3."""

    mapping: Mapping[str, int]
    #: How to give a label the map lacks, said with the error (a command's option).
    remedy: str = field(default="", compare=False)

    @classmethod
    def from_config(cls, raw: Mapping[object, object], source: str = "config",
                    remedy: str = "") -> "GradeMap":
        """A grade map from config's {label: level} (or its (label, level) pairs); a level
        not in LEVELS, no label, or one label given twice (``1`` and ``"01"`` are one:
        :func:`canonical_label`): InputError. ``remedy``: how to add a label it lacks
        (:attr:`remedy`)."""
        given: dict[str, tuple] = {}
        for label, level in (raw.items() if isinstance(raw, Mapping) else raw):
            if not isinstance(level, int) or isinstance(level, bool) or level not in LEVELS:
                raise InputError(source, None, f"grade map level in {LEVELS} for label {label!r}",
                                 level)
            key = canonical_label(label)
            if key in given:  # the last would win silently and remap judgements
                first = given[key]
                raise InputError(source, None, "each relevance label once (compared as the "
                                 "grade map compares them: 1, '1', '01' and '１' are one)",
                                 f"label {key} twice: {first[0]!r}: {first[1]} and "
                                 f"{label!r}: {level}")
            given[key] = (label, level)
        if not given:
            raise InputError(source, None, "a non-empty grade map")
        return cls({key: level for key, (_, level) in given.items()}, remedy)

    def level(self, label: object, path: str | None = None, line: int | None = None) -> int:
        """The level of a raw label; an unmapped label is an :class:`InputError`."""
        key = canonical_label(label)
        try:
            return self.mapping[key]
        except KeyError:
            known = ", ".join(sorted(self.mapping, key=_sort_key))
            remedy = f"; {self.remedy}" if self.remedy else ""
            raise InputError(path, line, f"a relevance label in the grade map ({known}{remedy})",
                             key) from None

    def describe(self) -> str:
        """One line per level, e.g. ``3 highly: 1, 2``."""
        rows = []
        for level in sorted(LEVELS, reverse=True):
            labels = sorted((k for k, v in self.mapping.items() if v == level), key=_sort_key)
            rows.append(f"{level} {LEVEL_NAMES[level]}: {', '.join(labels) if labels else '-'}")
        return "\n".join(rows)


def _sort_key(label: str):
    try:
        return (0, int(label), label)
    except ValueError:
        return (1, 0, label)
