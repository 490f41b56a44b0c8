"""The study design: what the findings reports compute and how each verdict is decided.

A design file (``config/design/*.yaml``; schema ``config/schema/design.schema.yaml``) is the
machine-readable twin of a pre-registration: its constants (α, the equivalence margin,
resamples, seed, trials, power), the query types the findings compare, and for each finding
every comparison with its test, whether it decides and how the deciding parts combine
(:mod:`gradedrel.report.assessment` interprets it). A design may ``amends`` another (a
testbed's pre-registration that applies another's rules with a few changes): its keys replace
the other's. :func:`load` checks the file against the schema and the facts the schema cannot
state (a comparison's query types among the design's; the keys each test needs; every
``measure`` a registered measure name, parsed by :mod:`gradedrel.evaluation.measures.registry`),
naming the file and the key on any problem. A comparison's quantity is its measure's name as
the evaluation's ``per_topic.tsv`` writes it; its p is its test of record's
(``constants.test_of_record``, a comparison may override it; a spread's is Friedman's).
"""
from __future__ import annotations

import copy
import functools
import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from gradedrel.core import yaml_io
from gradedrel.core.errors import InputError
from gradedrel.evaluation.measures import registry

SCHEMA = Path(__file__).resolve().parents[1] / "schemas" / "design.schema.yaml"
#: What each test needs besides part/test/deciding.
NEEDS = {"equivalence": ("measure", "pairs"), "large_spread": ("measure",),
         "spread": ("measure",), "directional": ("first", "second", "measure"),
         "effort_ratio": ("first", "second", "measure", "share"),
         "difference": ("first", "second", "measure")}
#: The tests on AvP in points (the paper's unit; the margin is in AvP points).
AVP_TESTS = ("equivalence", "large_spread", "spread", "directional")


@dataclass(frozen=True)
class Constants:
    """The pre-registered constants."""
    alpha: float = 0.05
    margin: float = 5.0
    resamples: int = 10_000
    seed: int = 20000724
    trials: int = 10_000
    power: float = 0.8
    test_of_record: str = "randomisation"


@dataclass(frozen=True)
class Comparison:
    """One row of a findings report: a test on one or two query types."""
    part: str
    test: str
    deciding: bool
    first: str | None = None
    second: str | None = None
    measure: str | None = None      # the registered name, as per_topic.tsv writes it
    pairs: str | None = None
    confidence: float = 0.95
    share: float | None = None
    holm: bool = False
    headline: bool = False
    test_of_record: str | None = None   # whose p: the paired test, or "friedman" (spreads)

    def parameter(self, name: str):
        """A parameter of the comparison's measure (``level`` of ``AvP(level=3)``,
        ``cutoff`` of ``JK_DCG(b=2,profile='2+3')@50``); None without a measure."""
        return None if self.measure is None else registry.parse(self.measure)[name]

    @property
    def level(self) -> int | None:
        """The relevance level of the comparison's AvP measure (None for other tests)."""
        return self.parameter("level") if self.test in AVP_TESTS else None


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


@dataclass(frozen=True)
class Design:
    """The study design: the pre-registration, primary plan set and model, constants, query
    types and findings."""

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

    def measures(self) -> list[str]:
        """Every per-topic measure a comparison reads, in order (not the CG curve an effort
        ratio reads whole)."""
        return list(dict.fromkeys(c.measure for f in self.findings for c in f.comparisons
                                  if c.measure and c.test != "effort_ratio"))

    def pairs(self) -> list[tuple[str, str]]:
        """Every pair of the design's query types, in order (equivalence)."""
        return list(itertools.combinations(self.query_types, 2))


def _parsed(path: Path):
    """``path`` parsed as YAML, once per file content (a copy: callers may change it);
    OSError as reading raises it, an InputError naming the line where it is not YAML."""
    return copy.deepcopy(_parsed_text(path.read_text(encoding="utf-8"), str(path)))


@functools.lru_cache(maxsize=64)
def _parsed_text(text: str, source: str):
    return yaml_io.load(text, source)   # libyaml's parser; a key given twice is refused


def _read(path: Path, chain: tuple[str, ...] = ()) -> dict:
    """The design of ``path`` checked against the schema, over the design it amends
    (``chain``: the files that amend it, so that a circle of amendments is one error)."""
    if str(path) in chain:
        # the circle by file name (the message names the first file whole), so that a long
        # path does not push the circle past the message's bound
        raise InputError(chain[-1], None, "amends: a design that does not amend this one",
                         " -> ".join(Path(p).name for p in chain + (str(path),)))
    try:
        raw = _parsed(path) or {}
    except FileNotFoundError:
        raise InputError(str(path), None, "a study design file", "no such file") from None
    if not isinstance(raw, dict):
        raise InputError(str(path), None, "a mapping", type(raw).__name__)
    errors = sorted(_validator().iter_errors(raw), key=lambda e: list(e.absolute_path))
    if errors:
        from gradedrel.core.config import schema_error_line

        raise InputError(str(path), None, "a study design as config/schema/design.schema.yaml "
                         "describes it", schema_error_line(errors[0]).replace("config: ", "", 1))
    if "amends" in raw:
        base = _read(path.parent / raw["amends"], chain + (str(path),))
        raw = {**base, **{k: v for k, v in raw.items() if k != "amends"}}
    return raw


@functools.lru_cache(maxsize=1)
def _validator():
    import jsonschema

    return jsonschema.Draft202012Validator(yaml_io.load_file(SCHEMA))


def files(path: str | Path) -> list[str]:
    """The design file and every file it amends, in that order (a rule's inputs)."""
    out, path = [], Path(path)
    while str(path) not in out:
        out.append(str(path))
        try:
            raw = _parsed(path)
        except (OSError, InputError):
            break   # load() names the problem
        if not isinstance(raw, dict) or "amends" not in raw:
            break
        path = path.parent / raw["amends"]
    return out


def load(path: str | Path) -> Design:
    """The design of ``path`` (and of the design it amends), checked."""
    path = Path(path)
    raw = _read(path)
    where = str(path)
    bad = functools.partial(InputError, where, None)   # (expected, found): names the file
    for key in ("preregistration", "query_types", "findings"):
        if key not in raw:
            raise bad(f"key '{key}' (here or in the design it amends)", "missing")
    query_types = tuple(raw["query_types"])
    constants = Constants(**(raw.get("constants") or {}))
    findings = []
    for i, item in enumerate(raw["findings"]):
        comparisons = []
        for j, row in enumerate(item["comparisons"]):
            at = f"findings[{i}].comparisons[{j}]"
            missing = [k for k in NEEDS[row["test"]] if k not in row]
            if missing:
                raise bad(f"{at} ({row['test']}): keys {list(NEEDS[row['test']])}",
                          f"missing {missing}")
            unknown = [t for t in (row.get("first"), row.get("second"))
                       if t is not None and t not in query_types]
            if unknown:
                raise bad(f"{at}: query types among {list(query_types)}", unknown)
            comparisons.append(_comparison(row, bad, at, constants))
        headlines = sum(c.headline for c in comparisons)
        one = item["rule"] in ("primary", "deciding_row")   # the headline's verdict decides
        if headlines > 1 or (one and headlines != 1):
            raise bad(f"findings[{i}] (rule {item['rule']}): one headline comparison" if one
                      else f"findings[{i}]: at most one headline comparison", f"{headlines}")
        findings.append(Finding(item["finding"], item["claim"], item["rule"], tuple(comparisons),
                                dict(item.get("effort_reading") or {})))
    return Design(source=where, preregistration=raw["preregistration"],
                  primary_plan_set=raw.get("primary_plan_set"),
                  primary_model=raw.get("primary_model", "InQuery"),
                  constants=constants,
                  query_types=query_types, findings=tuple(findings))


def _comparison(row: Mapping[str, Any], bad, at: str, constants: Constants) -> Comparison:
    """One comparison of a design file: its measure name parsed (and written as the
    evaluation writes it; every test needs one, :data:`NEEDS`) and its test of record
    settled; ``bad(expected, found)``: the error naming the file."""
    row = dict(row)
    try:
        measure = registry.parse(row["measure"])
    except ValueError as error:   # UnknownMeasure, or a family's wrong parameters
        raise bad(f"{at}: a registered measure name", str(error)) from None
    if row["test"] == "effort_ratio":
        if measure.NAME != "JK_CG" or set(measure.params) != {"profile"}:
            raise bad(f"{at} (effort_ratio): a CG curve named by its gain profile only, e.g. "
                      "JK_CG(profile='3')", row["measure"])
    elif not getattr(measure, "complete", False):
        raise bad(f"{at}: one measure with every parameter given", row["measure"])
    if row["test"] in AVP_TESTS and measure.NAME != "AvP":
        raise bad(f"{at} ({row['test']}): an AvP measure", row["measure"])
    row["measure"] = str(measure)
    if row["test"] in ("large_spread", "spread"):   # p: Friedman's, not a paired test
        if row.get("test_of_record", "friedman") != "friedman":
            raise bad(f"{at} ({row['test']}): Friedman's test", row["test_of_record"])
        row["test_of_record"] = "friedman"
    elif row["test"] != "effort_ratio":
        row.setdefault("test_of_record", constants.test_of_record)
    return Comparison(**row)
