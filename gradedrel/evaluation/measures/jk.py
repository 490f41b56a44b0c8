"""J&K's cumulated gain read at rank k (Järvelin & Kekäläinen 2000, method 2; 2002 for the
normalised forms) as four measure families:

- ``JK_CG(profile=P)@k`` — CG[k], the gains of the top k summed;
- ``JK_DCG(b=B,profile=P)@k`` — DCG[k] with J&K's rule (no discount before rank b);
- ``JK_nCG(profile=P)@k``, ``JK_nDCG(b=B,profile=P)@k`` — divided by the ideal vector's CG[k]
  or DCG[k] (NaN where that is 0).

The gain profile P names the levels that earn gain (the evaluation's ``profiles``: ``all``,
``2+3``, ``3``); a non-default gain table adds ``gains={1:1,2:5,3:10}``. Definitions:
:mod:`gradedrel.evaluation.measures.cumulated_gain`. Family entries expand over the
evaluation's ``profiles``, ``dcg_bases``, ``cutoffs`` and its ``gains``; listed together
they expand as one grid, in the order of the gain curves: per profile, CG then DCG per base,
each cutoff with the normalised measure beside the plain one.
"""
from __future__ import annotations

from gradedrel.core import lazy

from typing import Sequence

np = lazy.module("numpy")

from gradedrel.evaluation.measures import cumulated_gain as cg
from gradedrel.evaluation.measures import registry
from gradedrel.evaluation.measures.base import Measure, Param, Ranking, spell

#: How figures name the gain profiles (a panel per profile); a profile not here is named as
#: configured.
PROFILE_LABELS = {"3": "level 3 only", "2+3": "levels 2+3", "all": "all levels (1–3)"}


def profile_label(profile: str) -> str:
    """The gain profile as a panel title names it: ``levels 2+3``."""
    return PROFILE_LABELS.get(str(profile), str(profile))


_PROFILE = Param(str, default="all", shown=True, grid="profiles",
                 desc="gain profile: the levels that earn gain (the evaluation's profiles)")
_GAINS = Param(dict, default=dict(cg.DEFAULT_GAINS), grid="gains",
               desc="gain per level (default 1:1,2:2,3:3)")
_CUTOFF = Param(int, required=True, grid="cutoffs", desc="rank at which the curve is read")
_BASE = Param(int, default=2, shown=True, grid="dcg_bases",
              desc="log base b: no discount before rank b")


class JKMeasure(Measure):
    """J&K's cumulated gain at rank ``cutoff`` under a gain profile."""

    KIND = "CG"            # the curve: CG or DCG
    NORMALISED = False
    # (nCG, nDCG)
    UNDEFINED = "no judged document earns gain under profile {profile!r}: an ideal of 0"

    def __init__(self, **params):
        super().__init__(**params)
        if self.params.get("b", 2) < 2:
            raise ValueError(f"{self.NAME}: b={self.params['b']}: the log base must be at least 2")

    @property
    def base(self) -> int:
        """The curve's log base (0 for CG)."""
        return self["b"] if "b" in self.SUPPORTED_PARAMS else 0

    def values(self, ranking: Ranking) -> np.ndarray:
        """Per-topic (n)CG or (n)DCG at the cutoff (``NORMALISED``: over the ideal curve's);
        ValueError when a level of the profile has no gain."""
        k = self["cutoff"]
        levels = ranking.profile_levels(self["profile"])
        missing = [level for level in levels if level not in self["gains"]]
        if missing:
            raise ValueError(f"{self}: the gain table has no gain for levels {missing}")
        table = cg.gain_table(levels, self["gains"])
        actual = ranking.curve(table, self.base, k)[:, k - 1]
        if not self.NORMALISED:
            return actual
        return cg.normalised(actual, ranking.curve(table, self.base, k, ideal=True)[:, k - 1])

    @property
    def curve(self) -> tuple[str, int]:
        """The gain curve this measure reads, as ``gain_curves.tsv`` names it: (kind, base),
        e.g. ``("nDCG", 2)``, ``("CG", 0)``."""
        return ("n" if self.NORMALISED else "") + self.KIND, self.base

    def label(self, long: bool = False) -> str:
        """The curve as the figures name it: ``CG``, ``nDCG (b = 2)`` (``long``: the title's
        ``Normalised discounted cumulated gain (b = 2)``); a measure that sets a cutoff, a
        gain profile or a gain table says so: ``DCG (b = 2) at rank 10, levels 2+3``."""
        kind, base = self.curve
        text = (self.PRETTY_NAME if long else kind) + (f" (b = {base})" if base else "")
        text += self._at_rank()
        if "profile" in self.params:
            text += f", {profile_label(self['profile'])}"
        if "gains" in dict(self.shown_params()):
            text += f", gains {spell(self['gains'])}"
        return text

    @property
    def figure_name(self) -> str:
        """The file name (no suffix) of the curve's figure: ``cg``, ``ndcg_b10``."""
        kind, base = self.curve
        return kind.lower() + (f"_b{base}" if base else "")

    @classmethod
    def grid(cls, entries: Sequence[Measure], settings) -> list[Measure]:
        """Every entry's measures in the order of the gain curves (per profile; CG, then DCG
        per base; per cutoff; plain, then normalised); values the settings do not list sort
        after those they do."""
        profiles, bases, cutoffs = list(settings.profiles), list(settings.dcg_bases), \
            list(settings.cutoffs)

        def position(values: list, value) -> int:
            return values.index(value) if value in values else len(values)

        def key(m: "JKMeasure"):
            kind = 0 if m.KIND == "CG" else 1 + position(bases, m.base)
            return (position(profiles, m["profile"]), kind, position(cutoffs, m["cutoff"]),
                    m.NORMALISED)

        return sorted(super().grid(entries, settings), key=key)


class JK_CGMeasure(JKMeasure):
    """J&K cumulated gain CG[k] (Järvelin & Kekäläinen 2000)."""
    NAME = "JK_CG"
    PRETTY_NAME = "Cumulated gain"
    SHORT_DESC = "J&K's cumulated gain at rank k under a gain profile."
    SUPPORTED_PARAMS = {"profile": _PROFILE, "gains": _GAINS, "cutoff": _CUTOFF}


class JK_nCGMeasure(JKMeasure):
    """J&K normalised cumulated gain nCG[k] = CG[k] / ideal CG[k] (J&K 2002)."""
    NAME = "JK_nCG"
    PRETTY_NAME = "Normalised cumulated gain"
    SHORT_DESC = "CG[k] over the ideal vector's CG[k]."
    SUPPORTED_PARAMS = JK_CGMeasure.SUPPORTED_PARAMS
    NORMALISED = True


class JK_DCGMeasure(JKMeasure):
    """J&K discounted cumulated gain DCG[k], no discount before rank b (J&K 2000)."""
    NAME = "JK_DCG"
    PRETTY_NAME = "Discounted cumulated gain"
    SHORT_DESC = "J&K's DCG at rank k: gains divided by log_b(rank) from rank b on."
    SUPPORTED_PARAMS = {"b": _BASE, **JK_CGMeasure.SUPPORTED_PARAMS}
    KIND = "DCG"


class JK_nDCGMeasure(JKMeasure):
    """J&K normalised DCG: DCG[k] / ideal DCG[k] with J&K's discount (J&K 2002). Not
    today's nDCG (``nDCG_log2``)."""
    NAME = "JK_nDCG"
    PRETTY_NAME = "Normalised discounted cumulated gain"
    SHORT_DESC = "J&K's DCG[k] over the ideal vector's DCG[k]."
    SUPPORTED_PARAMS = JK_DCGMeasure.SUPPORTED_PARAMS
    KIND = "DCG"
    NORMALISED = True


JK_CG = JK_CGMeasure()
JK_nCG = JK_nCGMeasure()
JK_DCG = JK_DCGMeasure()
JK_nDCG = JK_nDCGMeasure()
MEASURES = (JK_CG, JK_nCG, JK_DCG, JK_nDCG)


def curve(name: str, key: str) -> JKMeasure:
    """The gain curve a figure draws, named in config (``key``) as its measure family:
    ``JK_CG``, ``JK_nCG``, ``JK_DCG(b=B)``, ``JK_nDCG(b=B)`` (B the log base); the gain
    profiles are the figure's panels and the ranks its axis, so the name sets neither. Any
    other name is one ValueError naming ``key``."""
    expected = "expected JK_CG, JK_nCG, JK_DCG(b=B) or JK_nDCG(b=B)"
    try:
        measure = registry.parse_family(str(name))
    except ValueError as error:
        raise ValueError(f"config: {key}: {name!r}: {error}") from None
    if not isinstance(measure, JKMeasure):
        raise ValueError(f"config: {key}: {name!r} is not a gain curve: {expected}")
    extra = sorted(set(measure.params) - {"b"})
    if extra:
        raise ValueError(f"config: {key}: {name!r} sets {', '.join(extra)}: a curve is drawn "
                         f"at every rank for each of report.profiles; {expected}")
    if measure.KIND == "DCG" and "b" not in measure.params:
        raise ValueError(f"config: {key}: {name!r}: name the log base, e.g. {measure.NAME}(b=2)")
    return measure
