"""The evaluation's settings (config section ``evaluation`` and ``standard_measures``).

``measures`` lists the evaluation's measures by name (:mod:`gradedrel.evaluation.measures.registry`):
full names (``Q(beta=1)``, ``AvP(level=3)``) and family entries (``AvP``, ``JK_DCG``), which
expand over the other keys (levels, readings, profiles, dcg_bases, cutoffs, gains,
ndcg_log2); None (the default) is :data:`~gradedrel.evaluation.measures.registry.DEFAULT_MEASURES`,
the paper's grid. Config's ``also`` adds measures to that list without restating it
(:func:`with_also`). The standard measures follow them: ir_measures measures, computed by
ir_measures/pytrec_eval like any ir_measures name listed under ``measures``.

``significance_tests`` (config: ``evaluation.significance: null`` turns them off,
``gradedrel evaluate --no-significance`` too) says whether the evaluation runs its
significance tests; the correction is checked by name against
:data:`~gradedrel.evaluation.measures.corrections.CORRECTIONS`, so building settings imports
no statistics library.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Mapping

from gradedrel.evaluation.measures import corrections, registry, stratified
from gradedrel.evaluation.measures import cumulated_gain as cg
from gradedrel.evaluation.measures.avp import AvP


def profile_order(profiles: Mapping[str, tuple[int, ...]]) -> dict[str, tuple[int, ...]]:
    """Gain profiles in one order whatever the order config writes them in (a mapping's key
    order carries no meaning, so a config rewritten in another key order gives the same
    files): more levels first, then by their levels, then by name — ``all`` (1, 2, 3),
    ``2+3``, ``3``."""
    return dict(sorted(profiles.items(), key=lambda kv: (-len(kv[1]), tuple(kv[1]), kv[0])))


def with_also(measures, also) -> tuple[str, ...] | None:
    """The measure list ``measures`` (None: the paper's grid,
    :data:`~gradedrel.evaluation.measures.registry.DEFAULT_MEASURES`) with the names ``also``
    appended; ``measures`` unchanged when ``also`` is empty."""
    if not also:
        return tuple(measures) if measures is not None else None
    base = registry.DEFAULT_MEASURES if measures is None else measures
    return (*base, *also)


class SettingError(ValueError):
    """Evaluation settings that cannot work: ``key``, the config path of the value
    (``("evaluation", "cutoffs")``), and what is wrong with it; the message says both as
    ``config: evaluation.cutoffs: …`` (:func:`check_config` names the file and line)."""

    def __init__(self, key: tuple[str, ...], problem: str):
        self.key, self.problem = key, problem
        super().__init__(f"config: {'.'.join(key)}: {problem}")


def check_config(config: Mapping, files=(), overrides: Mapping | None = None) -> None:
    """The workflow's evaluation settings (``config``: validated, layered from ``files``,
    earliest first, then ``overrides``) checked before any job runs: one
    :class:`~gradedrel.core.config.ConfigError` naming the file and line that set the value
    that cannot work (``config/x.yaml:4: evaluation.cutoffs: [500] outside 1..depth …``)."""
    try:
        Settings.from_config(config.get("evaluation"), list(config.get("standard_measures") or []))
    except SettingError as error:
        raise located(error, files, overrides) from error


def located(error: SettingError, files=(), overrides: Mapping | None = None):
    """``error`` as one :class:`~gradedrel.core.config.ConfigError` naming the file and line
    among ``files`` (earliest first) that set its value (``config`` where none did)."""
    from gradedrel.core.config import ConfigError, locator

    found = locator(files, overrides)(error.key)
    where = "config" if found is None else f"{found[0]}:{found[1]}"
    return ConfigError(f"{where}: {'.'.join(error.key)}: {error.problem}")


@dataclass(frozen=True)
class Settings:
    """What to compute; defaults are the paper's (config section ``evaluation``)."""

    levels: tuple[int, ...] = (1, 2, 3)
    readings: tuple[str, ...] = ("exact", "atleast")
    recall_points: tuple[float, ...] = stratified.RECALL_POINTS
    gains: Mapping[int, float] = field(default_factory=lambda: dict(cg.DEFAULT_GAINS))
    profiles: Mapping[str, tuple[int, ...]] = field(
        default_factory=lambda: dict(cg.DEFAULT_PROFILES))
    dcg_bases: tuple[int, ...] = (2, 10)
    depth: int = 100
    cutoffs: tuple[int, ...] = (10, 50, 100)
    effort_ranks: tuple[int, ...] = (10,)
    ndcg_log2_cutoffs: tuple[int, ...] = (10,)
    ndcg_log2_gains: tuple[str, ...] = ("linear", "exp")
    missing_topics: str = "zero"
    significance_tests: bool = True  # False: config's evaluation.significance is null
    significance_measures: tuple[str, ...] | None = None  # None: AvP per level, exact
    baseline_run: str | None = "SUM/u"
    correction: str = "holm"
    randomisation_trials: int = 10000
    bootstrap_resamples: int = 1000
    confidence: float = 0.95
    seed: int = 20000724
    standard_measures: tuple[str, ...] = ()
    measures: tuple[str, ...] | None = None  # None: registry.DEFAULT_MEASURES

    @classmethod
    def from_config(cls, section: Mapping | None,
                    standard: list[str] | None = None) -> "Settings":
        """Settings from the config's ``evaluation`` section (absent keys: the defaults) and the
        standard measure names; the section's ``also`` names are added to ``measures``
        (:func:`with_also`); ``significance: null`` turns the significance tests off."""
        s = dict(section or {})
        values = {k: v for k, v in s.items() if k in _FIELDS and k != "measures"}
        if "significance" in s and s["significance"] is None:
            values["significance_tests"] = False
        for nested, fields in _NESTED.items():
            values.update({field: v for k, v in dict(s.get(nested) or {}).items()
                           if (field := fields.get(k))})
        values["significance_measures"] = values.get("significance_measures") or None
        return cls.from_record({**values, "standard_measures": standard or (),
                                "measures": with_also(s.get("measures"), s.get("also"))})

    @classmethod
    def from_record(cls, record: Mapping, source: str = "<evaluation record>") -> "Settings":
        """The settings an evaluation recorded (``config.evaluation`` of its provenance.json:
        the fields as :func:`dataclasses.asdict` gives them, JSON-plain, ``measures`` left
        out when it is the default grid), as :func:`gradedrel.evaluation.files.evaluate_files`
        writes them; the same settings again (and :meth:`from_config`'s fields). Each field
        as JSON or config spells it (lists, text keys) is converted to the field's type
        (:data:`_CONVERT`), then checked. A field this version does not know is a ValueError
        naming it."""
        unknown = sorted(set(record) - _FIELDS)
        if unknown:
            raise ValueError(f"{source}: config.evaluation: settings this version of "
                             f"gradedrel does not know: {unknown}")
        settings = cls(**{name: _CONVERT.get(name, _tuple)(value)
                          for name, value in record.items()})
        settings.check()
        return settings

    def check(self) -> None:
        """Settings that cannot work are a :class:`SettingError` naming the key."""
        def wrong(key: str, problem: str) -> SettingError:
            return SettingError(("evaluation", *key.split(".")), problem)

        # levels, readings, bases, missing_topics and ndcg_log2 gains: the config schema's
        # (gradedrel/schemas/config.schema.yaml); here what it cannot judge
        for name, levels in self.profiles.items():
            missing = [lv for lv in levels if lv not in self.gains]
            if missing or not levels:
                raise wrong(f"profiles.{name}", f"levels {missing or '[]'} have no gain")
        for key in ("cutoffs", "effort_ranks"):
            too_deep = [k for k in getattr(self, key) if not 1 <= k <= self.depth]
            if too_deep:
                raise wrong(key, f"{too_deep} outside 1..depth ({self.depth}, evaluation.depth)")
        try:
            corrections.known(self.correction)
        except ValueError as error:
            raise wrong("significance.correction", str(error)) from None
        if self.measures is not None and not self.measures:
            raise wrong("measures", "an empty list (null = the paper's grid)")
        # standard_measures holds ir_measures measures only (whether or not irm has handed
        # our families to ir_measures): a gradedrel name is told where it belongs
        for name in self.standard_measures:
            try:
                ours = registry.parse_family(name)
            except ValueError:  # a registered family with wrong parameters
                ours = True
            if ours is not None:
                raise SettingError(
                    ("standard_measures",), f"{name!r} is a gradedrel measure, not an "
                    f"ir_measures one; list it under evaluation.also (added to the paper's "
                    f"grid) or evaluation.measures")
        try:
            measures = self.measure_list()
        except ValueError as error:
            raise wrong("measures", str(error)) from None
        for measure in measures:
            if "profile" in getattr(measure, "SUPPORTED_PARAMS", {}) and \
                    measure["profile"] not in self.profiles:
                raise wrong("measures", f"{measure}: gain profile {measure['profile']!r} not "
                            "in config: evaluation.profiles")

    def measure_list(self) -> list:
        """The evaluation's measures, in order: ``measures`` (or the default grid) expanded
        over these settings, then the standard measures; each named once."""
        from gradedrel.evaluation.standard_measures import StandardMeasure

        names = self.measures if self.measures is not None else registry.DEFAULT_MEASURES
        measures = registry.expand(list(names), self)
        listed = {str(m) for m in measures}
        # config's standard_measures: checked where they are computed (ir_measures' parser)
        return measures + [StandardMeasure(name) for name in self.standard_measures
                           if name not in listed]

    def default_significance_measures(self) -> tuple[str, ...]:
        """The measures significance is tested on: those configured, else AvP at each level."""
        return self.significance_measures or tuple(str(AvP(level=lv)) for lv in self.levels)


def _tuple(value):
    return tuple(value) if isinstance(value, list) else value


def _ints(values) -> tuple[int, ...]:
    return tuple(int(x) for x in values)


_FIELDS = {f.name for f in fields(Settings)}
#: How a field's value as config or a record spells it becomes the setting.
_CONVERT = {
    "levels": _ints, "dcg_bases": _ints, "cutoffs": _ints, "effort_ranks": _ints,
    "ndcg_log2_cutoffs": _ints, "depth": int, "randomisation_trials": int,
    "bootstrap_resamples": int, "seed": int, "confidence": float, "significance_tests": bool,
    "recall_points": lambda values: tuple(float(x) for x in values),
    "gains": lambda gains: {int(k): float(v) for k, v in gains.items()},
    "profiles": lambda profiles: profile_order({str(k): _ints(v) for k, v in profiles.items()}),
}
#: The config's nested sections: key → field.
_NESTED = {
    "significance": {"measures": "significance_measures", "baseline_run": "baseline_run",
                     "correction": "correction", "randomisation_trials": "randomisation_trials"},
    "bootstrap": {"resamples": "bootstrap_resamples", "confidence": "confidence"},
    "ndcg_log2": {"cutoffs": "ndcg_log2_cutoffs", "gains": "ndcg_log2_gains"},
}
