"""The study design: what the findings reports compute and how each verdict is decided.

A design file (``config/design/*.yaml``; schema ``config/schema/design.schema.yaml``) is the
machine-readable twin of a pre-registration: its constants (α, the equivalence margin,
resamples, seed, trials, power), the query types the findings compare, and for each finding
every comparison with its test, whether it decides and how the deciding parts combine
(:mod:`gradedrel.report.assessment` interprets it). A design may ``amends`` another (a
testbed's pre-registration that applies another's rules with a few changes): its keys replace
the other's. :func:`load` checks the file against the schema and the facts the schema cannot
state (a comparison's query types among the design's; the keys each test needs), naming the
file and the key on any problem.
"""
from __future__ import annotations

import copy
import functools
import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import yaml

from gradedrel.core.errors import InputError
from gradedrel.core.yaml_io import StrictLoader

SCHEMA = Path(__file__).resolve().parents[1] / "schemas" / "design.schema.yaml"
#: What each test needs besides part/test/deciding.
NEEDS = {"equivalence": ("level", "pairs"), "large_spread": ("level",), "spread": ("level",),
         "directional": ("first", "second", "level"),
         "effort_ratio": ("first", "second", "profile", "share"),
         "dcg_advantage": ("first", "second", "profile", "base", "rank")}


@dataclass(frozen=True)
class Constants:
    """The pre-registered constants."""
    alpha: float = 0.05
    margin: float = 5.0
    resamples: int = 10_000
    seed: int = 20000724
    trials: int = 10_000
    power: float = 0.8


@dataclass(frozen=True)
class Comparison:
    """One row of a findings report: a test on one or two query types."""
    part: str
    test: str
    deciding: bool
    first: str | None = None
    second: str | None = None
    level: int | None = None
    pairs: str | None = None
    confidence: float = 0.95
    profile: str | None = None
    share: float | None = None
    base: int | None = None
    rank: int | None = None
    holm: bool = False
    headline: bool = False

    def query_types(self) -> tuple[str, ...]:
        """The query types the comparison reads (one or two)."""
        return tuple(t for t in (self.first, self.second) if t)


@dataclass(frozen=True)
class Finding:
    """A finding of the paper as tested here: its claim, decision rule and comparisons."""

    number: int
    claim: str
    rule: str
    comparisons: tuple[Comparison, ...]
    effort_reading: Mapping[str, Any] = field(default_factory=dict)

    @property
    def headline(self) -> Comparison | None:
        """The row the summaries show (None: the count of deciding rows that hold)."""
        return next((c for c in self.comparisons if c.headline), None)

    def levels(self) -> list[int]:
        """The AvP levels the finding's comparisons read."""
        return sorted({c.level for c in self.comparisons if c.level is not None})

    def profiles(self) -> list[str]:
        """The gain profiles the finding's comparisons read, in order."""
        return list(dict.fromkeys(c.profile for c in self.comparisons if c.profile))


@dataclass(frozen=True)
class Design:
    """The study design: the pre-registration, primary plan set and model, constants, query types
    and findings.
    """

    source: str
    preregistration: str
    primary_plan_set: str | None
    primary_model: str
    constants: Constants
    query_types: tuple[str, ...]
    findings: tuple[Finding, ...]

    def finding(self, number: int) -> Finding:
        """The finding numbered ``number``."""
        return next(f for f in self.findings if f.number == number)

    def levels(self) -> list[int]:
        """Every AvP level a comparison reads."""
        return sorted({lv for f in self.findings for lv in f.levels()})

    def profiles(self) -> list[str]:
        """Every gain profile a comparison reads (per-request gain vectors needed)."""
        return list(dict.fromkeys(p for f in self.findings for p in f.profiles()))

    def pairs(self) -> list[tuple[str, str]]:
        """Every pair of the design's query types, in order (equivalence)."""
        return list(itertools.combinations(self.query_types, 2))


#: libyaml's parser where PyYAML has it (the same documents, about 10x faster; the workflow
#: reads the design files for every job it plans); errors come from PyYAML's own parser.
_FAST_LOADER = StrictLoader  # libyaml's parser; a key given twice is refused


def _parsed(path: Path):
    """``path`` parsed as YAML, once per file content (a copy: callers may change it).
    OSError and yaml.YAMLError as yaml.safe_load raises them."""
    text = path.read_text(encoding="utf-8")
    return copy.deepcopy(_parsed_text(text))


@functools.lru_cache(maxsize=64)
def _parsed_text(text: str):
    return yaml.load(text, Loader=_FAST_LOADER)  # raises with the line


@functools.lru_cache(maxsize=1)
def _validator():
    import jsonschema

    return jsonschema.Draft202012Validator(yaml.load(SCHEMA.read_text(encoding="utf-8"),
                                                     Loader=_FAST_LOADER))


def _schema_errors(raw: Mapping, path: str) -> None:
    errors = sorted(_validator().iter_errors(raw),
                    key=lambda e: list(e.absolute_path))
    if errors:
        from gradedrel.core.config import schema_error_line

        line = schema_error_line(errors[0]).replace("config: ", "", 1)
        raise InputError(path, None, "a study design as config/schema/design.schema.yaml "
                         "describes it", line)


def _read(path: Path) -> dict:
    try:
        raw = _parsed(path) or {}
    except FileNotFoundError:
        raise InputError(str(path), None, "a study design file", "no such file") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        raise InputError(str(path), None if mark is None else mark.line + 1, "valid YAML",
                         str(error).splitlines()[0]) from None
    if not isinstance(raw, dict):
        raise InputError(str(path), None, "a mapping", type(raw).__name__)
    _schema_errors(raw, str(path))
    if "amends" in raw:
        base = _read(path.parent / raw["amends"])
        raw = {**base, **{k: v for k, v in raw.items() if k != "amends"}}
    return raw


def files(path: str | Path) -> list[str]:
    """The design file and every file it amends, in that order (a rule's inputs)."""
    out, path = [], Path(path)
    while True:
        out.append(str(path))
        try:
            raw = _parsed(path) or {}
        except (OSError, yaml.YAMLError):
            return out   # load() names the problem
        if not isinstance(raw, dict) or "amends" not in raw or str(path.parent / raw["amends"]) in out:
            return out
        path = path.parent / raw["amends"]


def load(path: str | Path) -> Design:
    """The design of ``path`` (and of the design it amends), checked."""
    path = Path(path)
    raw = _read(path)
    where = str(path)
    for key in ("preregistration", "query_types", "findings"):
        if key not in raw:
            raise InputError(where, None, f"key '{key}' (here or in the design it amends)",
                             "missing")
    query_types = tuple(raw["query_types"])
    findings = []
    for i, item in enumerate(raw["findings"]):
        comparisons = []
        for j, row in enumerate(item["comparisons"]):
            at = f"findings[{i}].comparisons[{j}]"
            missing = [k for k in NEEDS[row["test"]] if k not in row]
            if missing:
                raise InputError(where, None, f"{at} ({row['test']}): keys {list(NEEDS[row['test']])}",
                                 f"missing {missing}")
            unknown = [t for t in (row.get("first"), row.get("second"))
                       if t is not None and t not in query_types]
            if unknown:
                raise InputError(where, None, f"{at}: query types among {list(query_types)}",
                                 unknown)
            comparisons.append(Comparison(**row))
        headlines = [c for c in comparisons if c.headline]
        if len(headlines) > 1 or (item["rule"] in ("primary", "deciding_row")
                                  and len(headlines) != 1):
            raise InputError(where, None, f"findings[{i}] (rule {item['rule']}): one headline "
                             "comparison" if item["rule"] in ("primary", "deciding_row")
                             else f"findings[{i}]: at most one headline comparison",
                             f"{len(headlines)}")
        findings.append(Finding(item["finding"], item["claim"], item["rule"], tuple(comparisons),
                                dict(item.get("effort_reading") or {})))
    return Design(source=where, preregistration=raw["preregistration"],
                  primary_plan_set=raw.get("primary_plan_set"),
                  primary_model=raw.get("primary_model", "InQuery"),
                  constants=Constants(**(raw.get("constants") or {})),
                  query_types=query_types, findings=tuple(findings))
