"""Query plans: facets → concepts → search keys, with provenance, as editable YAML.

A plan records the conceptual analysis of one request the way the paper's
searchers did it (Järvelin & Kekäläinen 2000, sec. 3): the request's *facets*
(major or minor), the *concepts* in each facet, and each concept's *search
keys* — the unexpanded keys (``keys``) and the keys expansion adds
(``expansion``). Every key says where it came from (``relation``: ``request``
for the request's own words, ``UF`` an equivalent label, ``NT``/``BT``/``RT`` a
narrower/broader/related concept at ``depth``, ``curated`` a person's choice).

File format (docs/plans.md)::

    plans:
    - qid: '1'
      request: what similarity laws must be obeyed ...
      source: auto            # or curated
      facets:
      - name: aeroelasticity
        importance: major     # or minor (weights 10 / 7 in WSYN)
        specificity: 3.9      # idf of the facet's most specific key (informative)
        concepts:
        - label: aeroelasticity
          uri: '#38009'       # null for a word the thesaurus does not know
          matched: aeroelastic
          keys:
          - {key: aeroelastic, relation: request}
          expansion:
          - {key: flutter, relation: NT, depth: 1, via: aeroelasticity}

A key may also be written as a bare string (``- flutter``): relation ``curated``. A curated
key may say where it came from — ``source`` (a concept id of the plan set's thesaurus, or
``literature`` with a ``reason``) and ``recalled: true`` — as the curation protocol of
docs/plans.md describes; both are written back only when set. Every check of the fields
is the plan files' JSON Schema (``gradedrel/schemas/plans.schema.yaml``), through
:func:`gradedrel.core.config.check_located`.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable

import yaml

from gradedrel.core.errors import InputError
from gradedrel.core import config, yaml_io
from gradedrel.core.io import read_text, write_text

#: ``source`` of a key that no thesaurus concept labels: a term of the literature (a
#: ``reason`` required). Any other ``source`` is a concept id of the plan set's thesaurus.
LITERATURE = "literature"
#: The sources of plans a person wrote, whose facet names must differ (the planner may give
#: two facets one label: "eggs ... egg board" in an automatic WordNet plan) and whose keys
#: ``plans check`` checks for provenance (:mod:`gradedrel.plans.check`). The plan schema's
#: ``source`` lists every source (``derived``: built by program, :mod:`.transform`).
WRITTEN = ("curated", "expert")


@dataclass(frozen=True)
class PlanKey:
    """A search key of a concept: its text, the relation and depth it came by, and via what."""

    key: str
    relation: str = "request"
    depth: int = 0
    via: str | None = None   # the concept whose relation gave this key
    reason: str | None = None  # a curator's reason for the key, where not obvious
    source: str | None = None  # a thesaurus concept id the key is a label of, or LITERATURE
    recalled: bool = False     # recalled from the request's source page or its citations


@dataclass
class PlanConcept:
    """A concept of a facet: label, thesaurus URI (None: not in it), keys and expansion keys."""

    label: str
    uri: str | None = None
    matched: str | None = None
    keys: list[PlanKey] = field(default_factory=list)
    expansion: list[PlanKey] = field(default_factory=list)

    def all_keys(self, expanded: bool) -> list[PlanKey]:
        """The concept's keys, with its expansion keys if ``expanded``."""
        return self.keys + self.expansion if expanded else list(self.keys)


@dataclass
class Facet:
    """A facet of a request: its name, importance (major or minor) and concepts."""

    name: str
    importance: str = "major"
    concepts: list[PlanConcept] = field(default_factory=list)
    specificity: float | None = None
    rationale: str | None = None  # a curator's one line: why this facet, why major/minor
    #: Whether the facet may leave a query: a concept of it may have no unexpanded key, and
    #: its keys (or its unexpanded keys) may all reduce to nothing under an index's term
    #: pipeline (reported); otherwise either stops the reading or the compilation (query_files).
    may_be_empty: bool = False
    #: The line of the plan file the facet starts on (None: not read from a file).
    line: int | None = field(default=None, compare=False, repr=False)


@dataclass
class Plan:
    """A request's query plan: its facets, where it came from and who curated it."""

    qid: str
    request: str
    facets: list[Facet] = field(default_factory=list)
    source: str = "auto"
    note: str | None = None
    curator: str | None = None
    version: int | None = None
    #: The plan file it was read from and the line it starts on (None: not read from a file).
    path: str | None = field(default=None, compare=False, repr=False)
    line: int | None = field(default=None, compare=False, repr=False)

    def concepts(self) -> list[PlanConcept]:
        """Every concept of every facet, in order."""
        return [c for f in self.facets for c in f.concepts]


# ---------------------------------------------------------------- writing

class _Flow(dict):
    """A mapping written on one line ({key: …, relation: …})."""


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(_Flow, lambda d, data: d.represent_mapping(
    "tag:yaml.org,2002:map", data.items(), flow_style=True))

#: Line breaks besides LF (NEL, LS, PS) that YAML folds when they stand as themselves:
#: written with ``allow_unicode`` they would not read back, so such text is written
#: double-quoted, where the emitter escapes them (``\\N``, ``\\L``, ``\\P``).
_UNICODE_BREAKS = ("\x85", "\u2028", "\u2029")


def _represent_text(dumper, data: str):
    style = '"' if any(ch in data for ch in _UNICODE_BREAKS) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_Dumper.add_representer(str, _represent_text)


def _key_dict(key: PlanKey) -> _Flow:
    out = _Flow(key=key.key, relation=key.relation)
    for name in ("depth", "via", "reason", "source", "recalled"):  # written when set
        value = getattr(key, name)
        if value is not None and value is not False and value != 0:
            out[name] = value
    return out


def plan_to_dict(plan: Plan) -> dict:
    """A plan as the mapping the plan files hold (empty optional fields left out)."""
    out: dict[str, Any] = {"qid": plan.qid, "request": plan.request, "source": plan.source}
    out.update({k: v for k in ("curator", "version") if (v := getattr(plan, k)) is not None})
    if plan.note:
        out["note"] = plan.note
    out["facets"] = []
    for facet in plan.facets:
        f: dict[str, Any] = {"name": facet.name, "importance": facet.importance}
        if facet.specificity is not None:
            f["specificity"] = round(float(facet.specificity), 3)
        if facet.rationale is not None:
            f["rationale"] = facet.rationale
        if facet.may_be_empty:
            f["may_be_empty"] = True
        f["concepts"] = [{"label": c.label, "uri": c.uri, "matched": c.matched,
                          "keys": [_key_dict(k) for k in c.keys],
                          "expansion": [_key_dict(k) for k in c.expansion]}
                         for c in facet.concepts]
        out["facets"].append(f)
    return out


def dump_plans(plans: Iterable[Plan]) -> str:
    """The plans as YAML, non-ASCII text as the characters themselves (``Über``, not
    ``"\\xDCber"``: curators and reviewers read these files); characters YAML cannot
    print (controls, U+FEFF) are still escaped."""
    return yaml.dump({"plans": [plan_to_dict(p) for p in plans]}, Dumper=_Dumper,
                     sort_keys=False, allow_unicode=True, width=100, default_flow_style=False)


def write_plans(plans: Iterable[Plan], path: str | Path) -> None:
    """Write ``plans`` to a plan file at ``path`` (YAML, atomically)."""
    write_text(dump_plans(plans), path)


# ---------------------------------------------------------------- reading

class _Loader(yaml_io.LinedLoader):
    """The safe loader on libyaml's C parser where PyYAML has it (the same values and
    line marks, 3-4x faster on the curators' plan files), mappings carrying their line."""


#: The fields of a plan file that hold text. A plain (unquoted) scalar there is read as it is
#: written: YAML would read ``0012`` as 10 (octal), ``1.10`` as 1.1, ``12:30`` as 750 and
#: ``yes`` as true, and the query would hold what YAML made of it.
TEXT_FIELDS = frozenset({"qid", "request", "source", "note", "curator", "name", "importance",
                         "rationale", "label", "uri", "matched", "key", "via", "reason"})
#: The lists of search keys, whose items may be bare text (``- 0012``).
KEY_LISTS = frozenset({"keys", "expansion"})
_STR, _NULL = "tag:yaml.org,2002:str", "tag:yaml.org,2002:null"


def as_written(node: yaml.Node) -> str | None:
    """The text of a plain scalar that YAML would read as a number, time or boolean (a
    ``qid`` is always text as written); None for any other node."""
    if isinstance(node, yaml.ScalarNode) and not node.style and node.tag not in (_STR, _NULL):
        return node.value
    return None


def _construct_mapping(loader, node):
    mapping = yaml_io.lined_mapping(loader, node)
    for key, value in node.value:
        name = key.value if isinstance(key, yaml.ScalarNode) else None
        if name == "qid" and isinstance(value, yaml.ScalarNode) and not value.style:
            # a topic id: even null/NA-like words are the id as written
            mapping["qid"] = value.value
        elif name in TEXT_FIELDS and (text := as_written(value)) is not None:
            mapping[name] = text
        elif name in KEY_LISTS and isinstance(value, yaml.SequenceNode) \
                and isinstance(mapping.get(name), list):
            for i, item in enumerate(value.value):
                if (text := as_written(item)) is not None:
                    mapping[name][i] = text
    return mapping


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


#: The plan files' schema (docs/plans.md): every check of a plan's fields, with the title
#: of each object and of each rule a message names.
SCHEMA = Path(__file__).resolve().parents[1] / "schemas" / "plans.schema.yaml"


@functools.cache
def _schema() -> dict:
    return config.inlined(yaml_io.load_file(SCHEMA))


# A key's and a concept's fields are the schema's properties (no other: additionalProperties
# is false), each absent one the field's default.
def _key(data: Any) -> PlanKey:
    if isinstance(data, str):  # a bare key: a person's choice
        return PlanKey(data, "curated")
    return PlanKey(**{**data, "relation": data.get("relation") or "curated"})


def _concept(data: dict) -> PlanConcept:
    return PlanConcept(**{**data, "keys": [_key(k) for k in data["keys"]],
                          "expansion": [_key(k) for k in data.get("expansion") or []]})


def _facet(data: yaml_io.Lined) -> Facet:
    specificity = data.get("specificity")
    return Facet(data["name"], data.get("importance") or "major",
                 [_concept(c) for c in data["concepts"]],
                 None if specificity is None else float(specificity), data.get("rationale"),
                 data.get("may_be_empty", False), data.line)


def _plan(data: yaml_io.Lined, path: str) -> Plan:
    plan = Plan(data["qid"], data.get("request") or "", [_facet(f) for f in data["facets"]],
                data.get("source") or "curated", data.get("note"), data.get("curator"),
                data.get("version"), path, data.line)
    if plan.source in WRITTEN:
        _unique(plan.facets, "name", path, "facet names unique in a plan (facet {!r} first "
                "at line {})")
    return plan


def _unique(items: list, attribute: str, path: str, expected: str) -> None:
    """An InputError at the second of ``items`` with the same ``attribute`` (``expected``: the
    message, with the value and the first one's line)."""
    seen: dict[str, int] = {}
    for item in items:
        value = getattr(item, attribute)
        if value in seen:
            raise InputError(path, item.line, expected.format(value, seen[value]), value)
        seen[value] = item.line


def parse_plans(text: str, path: str | Path = "<plans>") -> list[Plan]:
    """Plans from YAML text, checked against the plan files' schema (:data:`SCHEMA`); any
    error names the file and line (InputError)."""
    data = yaml_io.load(text, str(path), _Loader)
    if data is None:
        return []
    config.check_located(data, _schema(), str(path), lambda at: yaml_io.line_at(data, at)
                         or yaml.compose(text, Loader=_Loader).start_mark.line + 1)
    plans = [_plan(p, str(path)) for p in data["plans"]]
    _unique(plans, "qid", str(path), "one plan per topic (qid {} first at line {})")
    return plans


def read_plans(path: str | Path) -> list[Plan]:
    """Plans from a YAML file (UTF-8; a byte-order mark at its start stripped and logged)."""
    path = Path(path)
    try:
        text = read_text(path, "a plan file as UTF-8 text", note_bom=True)
    except FileNotFoundError:
        raise InputError(str(path), None, "a plan file", "no such file") from None
    return parse_plans(text, path)


def read_curated(paths: Iterable[str | Path]) -> list[Plan]:
    """Curated plans from several files (e.g. one per curator), in file order. A topic
    curated in two files is an error naming both: a plan set has one plan per topic."""
    plans, seen = [], {}
    for path in paths:
        for plan in read_plans(path):
            if plan.qid in seen:
                raise InputError(str(path), None, "each topic curated in one file only",
                                 f"topic {plan.qid}, also in {seen[plan.qid]}")
            seen[plan.qid] = str(path)
            plans.append(plan)
    return plans


def merge_curated(auto: list[Plan], curated: list[Plan],
                  path: str | Path = "<curated>") -> list[Plan]:
    """Automatic plans with curated ones in their place; a curated plan for a topic the
    collection does not have is an error."""
    by_qid = {p.qid: p for p in curated}
    unknown = sorted(set(by_qid) - {p.qid for p in auto})
    if unknown:
        raise InputError(str(path), None, "curated plans only for topics of the collection",
                         unknown)
    return [replace(by_qid[p.qid], request=by_qid[p.qid].request or p.request)
            if p.qid in by_qid else p for p in auto]
