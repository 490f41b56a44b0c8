"""A measure as a value, and the judged ranking every measure computes from.

A *family* (``AvP``, ``JK_DCG``, ``nDCG_log2``, …) is a :class:`Measure` subclass that
declares its parameters in ``SUPPORTED_PARAMS`` (:class:`Param`: type, default, choices,
description), as ir_measures' measures do; a *measure* is an instance with its parameter
values: ``AvP(level=3)``, ``JK_DCG(b=2, profile='2+3') @ 10``. Calling a measure sets
parameters and ``@ k`` sets the cutoff, both returning a new measure. A measure

- **names itself** (``str``) in one canonical spelling, ir_measures' syntax
  ``Name(param=value,…)@cutoff``: parameters in declared order, each left out when it has its
  default value unless the family always names it (``Param(shown=True)``). The name is what
  config lists, what :func:`gradedrel.evaluation.measures.registry.parse` reads back, and what
  tables, figure legends and file columns print;
- **computes** its per-request values, vectorised over requests, from a :class:`Ranking` (one
  run judged against the graded judgements): ``values(ranking)`` is a ``(requests,)`` array,
  NaN where the measure is undefined for a request (an empty recall base, an ideal of 0).

ir_measures itself is not imported here (the evaluation runs without it: about 25 ms of every
``gradedrel evaluate``); :mod:`gradedrel.evaluation.measures.irm` hands every registered
family to ir_measures and PyTerrier.
"""
from __future__ import annotations

from gradedrel.core import lazy

import itertools
import numbers
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

np = lazy.module("numpy")

from gradedrel.evaluation.measures import cumulated_gain as cg
from gradedrel.evaluation.measures.judgements import JudgedRun, Judgements

NOT_GIVEN: Any = object()  # a parameter without a default
#: A scalar parameter's type: the values it takes, and how a message names them.
_SCALARS = {int: (numbers.Integral, "a whole number"), float: (numbers.Real, "a number"),
            str: (str, "text")}


@dataclass(frozen=True)
class Param:
    """One parameter of a measure family.

    ``grid`` names the evaluation setting (:class:`gradedrel.evaluation.settings.Settings`
    attribute) whose values a family entry of the config expands over when it leaves this
    parameter out (``levels`` for ``AvP``'s level, ``cutoffs`` for a cutoff, …): a sequence
    gives its items, a mapping its keys (``profiles``) or, for a ``dict`` parameter, itself
    (``gains``)."""

    dtype: type
    default: Any = NOT_GIVEN
    required: bool = False
    choices: tuple | None = None
    desc: str = ""
    shown: bool = False      # named even when it has its default value
    grid: str | None = None
    symbol: str | None = None  # how a label names it (default: its key)

    def check(self, family: str, name: str, value):
        """``value`` as the family stores it (ints, floats, text, ``{level: gain}``), or a
        ValueError naming the measure and the parameter."""
        where = f"{family}: {name}={value!r}"
        if self.dtype in _SCALARS:
            kind, expected = _SCALARS[self.dtype]
            if isinstance(value, bool) or not isinstance(value, kind):
                raise ValueError(f"{where}: expected {expected}")
            value = self.dtype(value)
        elif self.dtype is dict:
            if not isinstance(value, Mapping):
                raise ValueError(f"{where}: expected a mapping such as {{1:1,2:2,3:3}}")
            try:
                value = {int(k): float(v) for k, v in value.items()}
            except (TypeError, ValueError):
                raise ValueError(f"{where}: expected numbers level:gain") from None
        if self.choices is not None and value not in self.choices:
            raise ValueError(f"{where}: expected one of {list(self.choices)}")
        return value


def _number(value: float) -> str:
    value = float(value)
    return str(int(value)) if value.is_integer() else repr(value)


def spell(value) -> str:
    """A parameter value as a name prints it: ``3``, ``0.5``, ``'2+3'``, ``{1:1,2:5,3:10}``."""
    if isinstance(value, Mapping):
        return "{" + ",".join(f"{int(k)}:{_number(v)}" for k, v in sorted(value.items())) + "}"
    if isinstance(value, float):
        return _number(value)
    return repr(value)


class Measure:
    """A family of measures (subclass) and a measure (instance with parameter values)."""

    NAME = ""
    PRETTY_NAME = ""
    SHORT_DESC = ""
    SUPPORTED_PARAMS: dict[str, Param] = {}
    AT_PARAM = "cutoff"  # the parameter ``measure @ k`` sets
    #: Why a request has no value (NaN), for messages, its parameters filled in by name
    #: (``{level}``): ``no document is judged exactly 3``.
    UNDEFINED = "the measure is undefined there (docs/measures.md, 'defined for a topic when')"

    def __init__(self, **params):
        unknown = [k for k in params if k not in self.SUPPORTED_PARAMS]
        if unknown:
            raise ValueError(f"{self.NAME}: no parameter {unknown[0]!r} (its parameters: "
                             f"{', '.join(self.SUPPORTED_PARAMS) or 'none'})")
        self.params = {key: spec.check(self.NAME, key, params[key])  # in declared order
                       for key, spec in self.SUPPORTED_PARAMS.items()
                       if params.get(key) is not None}
        if self.AT_PARAM in self.params and self.params[self.AT_PARAM] < 1:
            raise ValueError(f"{self.NAME}: the cutoff must be at least 1, not "
                             f"{self.params[self.AT_PARAM]}")

    # --- a value -----------------------------------------------------------------------
    def __call__(self, **params) -> "Measure":
        return type(self)(**{**self.params, **params})

    def __matmul__(self, cutoff) -> "Measure":
        return self(**{self.AT_PARAM: cutoff})

    def __getitem__(self, key: str):
        """A parameter's value, or its default (KeyError when it has neither)."""
        if key in self.params:
            return self.params[key]
        default = self.SUPPORTED_PARAMS[key].default
        if default is NOT_GIVEN:
            raise KeyError(f"{self}: parameter {key!r} is not set")
        return default

    @property
    def complete(self) -> bool:
        """Every required parameter is set (an incomplete measure is a family entry)."""
        return all(k in self.params for k, p in self.SUPPORTED_PARAMS.items() if p.required)

    def shown_params(self) -> list[tuple[str, Any]]:
        """The parameters the name shows, in declared order, the cutoff left out: those set
        to a value other than their default, and those the family always names."""
        return [(key, value) for key, spec in self.SUPPORTED_PARAMS.items()
                if key != self.AT_PARAM
                and (value := self.params.get(key, spec.default)) is not NOT_GIVEN
                and (spec.shown or (key in self.params and value != spec.default))]

    def __str__(self) -> str:
        shown = [f"{key}={spell(value)}" for key, value in self.shown_params()]
        name = f"{self.NAME}({','.join(shown)})" if shown else self.NAME
        if self.AT_PARAM in self.params:
            name += f"@{self.params[self.AT_PARAM]}"
        return name

    def label(self, long: bool = False) -> str:
        """The measure as a figure legend or table header names it, for people (``str`` is
        its name for machines): by default the family's name (``long``: its
        ``PRETTY_NAME``), the parameters the name shows as ``key = value`` in brackets and
        the cutoff as ``at rank k`` (``Q (β = 1)``, ``nERR at rank 10``; a parameter with a
        ``symbol`` is named by it). A family whose figures and tables print it otherwise
        overrides this."""
        head = self.PRETTY_NAME if long and self.PRETTY_NAME else self.NAME
        shown = ", ".join(f"{self.SUPPORTED_PARAMS[key].symbol or key} = "
                          f"{value if isinstance(value, str) else spell(value)}"
                          for key, value in self.shown_params())
        return head + (f" ({shown})" if shown else "") + self._at_rank()

    def _at_rank(self) -> str:
        """`` at rank k`` when the cutoff is set, else nothing (for labels)."""
        return f" at rank {self.params[self.AT_PARAM]}" if self.AT_PARAM in self.params else ""

    __repr__ = __str__

    def __eq__(self, other) -> bool:
        return isinstance(other, Measure) and other.NAME == self.NAME and str(other) == str(self)

    def __hash__(self) -> int:
        return hash(str(self))

    # --- what a family defines ----------------------------------------------------------
    def values(self, ranking: "Ranking") -> np.ndarray:  # pragma: no cover - abstract
        """Per-request values ``(requests,)`` in the judgements' topic order; NaN where
        the measure is undefined for a request."""
        raise NotImplementedError

    def undefined_when(self) -> str:
        """Why a request has no value (NaN), for messages: :data:`UNDEFINED` filled in."""
        return self.UNDEFINED.format_map(self)

    def expand(self, settings) -> list["Measure"]:
        """This family entry over the evaluation's values of every grid parameter it does
        not set (in declared order, the first outermost)."""
        grids = {key: spec for key, spec in self.SUPPORTED_PARAMS.items()
                 if key not in self.params and spec.grid is not None}
        # a dict parameter's mapping is one value
        choices = [[getattr(settings, spec.grid)] if spec.dtype is dict
                   else list(getattr(settings, spec.grid)) for spec in grids.values()]
        return [self(**dict(zip(grids, combination)))
                for combination in itertools.product(*choices)]

    @classmethod
    def grid(cls, entries: Sequence["Measure"], settings) -> list["Measure"]:
        """The measures of the family entries of one family module, in the evaluation's
        order (by default, entry by entry; a module whose families interleave overrides it)."""
        return [m for entry in entries for m in entry.expand(settings)]


class Ranking:
    """One run judged against graded judgements: what every measure computes from.

    ``judged`` and ``judgements`` (:mod:`~gradedrel.evaluation.measures.judgements`) hold the
    retrieved rows with their levels and the per-level recall bases; ``run`` is the ranked run
    itself (the standard measures need trec_eval's order of it); ``depth`` is the evaluation's
    curve depth, so that gain vectors and curves computed once at that depth serve every
    cutoff at or above it; ``profiles`` resolves a gain profile's name to its levels;
    ``standard`` is the evaluation's provider of standard measures. Arrays several measures
    share are computed once (:meth:`cached`).
    """

    def __init__(self, judged: JudgedRun, judgements: Judgements, run=None, depth: int = 0,
                 profiles: Mapping[str, Sequence[int]] | None = None, standard=None):
        self.judged = judged
        self.judgements = judgements
        self.run = run
        self.depth = int(depth)
        self.profiles = dict(cg.DEFAULT_PROFILES if profiles is None else profiles)
        self.standard = standard
        self._cache: dict = {}

    def cached(self, key, compute: Callable[[], Any]):
        """The value under ``key``, computed by ``compute()`` the first time it is asked for."""
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def profile_levels(self, name: str) -> tuple[int, ...]:
        """The relevance levels of the gain profile ``name`` (ValueError: no such profile)."""
        if name not in self.profiles:
            raise ValueError(f"gain profile {name!r} is not one of the evaluation's profiles "
                             f"{sorted(self.profiles)}")
        return tuple(int(x) for x in self.profiles[name])

    def _length(self, key, length: int, compute: Callable[[int], np.ndarray]) -> np.ndarray:
        """``compute(n)[:, :length]`` with n ≥ length computed once per key (a prefix of a
        longer vector is the same floats: every vector here is built rank by rank)."""
        held = self._cache.get(key)
        if held is None or held.shape[1] < length:
            held = self._cache[key] = compute(max(length, self.depth))
        return held[:, :length]

    def vectors(self, gain_by_grade: np.ndarray, length: int, ideal: bool = False) -> np.ndarray:
        """Gain vectors ``(requests, length)`` of the run's top ``length`` documents, or
        (``ideal``) the ideal gain vectors from the recall bases."""
        table = np.asarray(gain_by_grade, dtype=np.float64)
        source = (self.judgements.level_counts, cg.ideal_vectors) if ideal else \
            (self.judged, cg.gain_vectors)
        return self._length(("vectors", ideal, table.tobytes()), length,
                            lambda n: source[1](source[0], table, n))

    def curve(self, gain_by_grade: np.ndarray, base: int, length: int,
              ideal: bool = False) -> np.ndarray:
        """CG (``base`` 0) or J&K's DCG with log base ``base``, ``(requests, length)``, of the
        run's gain vectors or (``ideal``) of the ideal ones."""
        table = np.asarray(gain_by_grade, dtype=np.float64)
        return self._length(("curve", ideal, table.tobytes(), base), length,
                            lambda n: cg.curve(self.vectors(table, n, ideal), base))

    def standard_vectors(self) -> dict[str, np.ndarray]:
        """The standard measures' values (name → per request), computed once for all (the
        evaluation sets ``standard`` up whenever it lists a standard measure)."""
        return self.cached(("standard",), lambda: self.standard.vectors(self.run))
