"""Measure names: one spelling for tables, figures, config and ir_measures.

Names follow ir_measures' syntax ``Name(param=value,…)@cutoff`` so that
:func:`ir_measures.parse_measure` reads them once :mod:`gradedrel.evaluation.measures.irm`
is imported. The canonical spelling lists parameters in a fixed order:

- ``AvP(level=3)`` — stratified AvP, recall base = judged exactly 3 (the paper's);
  ``AvP(level=3,reading='atleast')`` — recall base = judged 3 or more;
- ``JK_CG(profile='all')@10``, ``JK_nCG(profile='3')@10`` — J&K's cumulated gain;
- ``JK_DCG(b=2,profile='2+3')@10``, ``JK_nDCG(b=10,profile='all')@10`` — J&K's DCG
  (no discount before rank b); a non-default gain table adds ``gains={1:1,2:2,3:3}``;
- ``nDCG_log2(gain='linear')@10``, ``nDCG_log2(gain='exp')@10`` — today's nDCG
  (log2(i+1) discount at every rank), *not* J&K's.
"""
from __future__ import annotations

from typing import Mapping

DEFAULT_GAIN_TABLE = {1: 1.0, 2: 2.0, 3: 3.0}


def _number(value: float) -> str:
    value = float(value)
    return str(int(value)) if value.is_integer() else repr(value)


def avp(level: int, reading: str = "exact") -> str:
    return f"AvP(level={int(level)})" if reading == "exact" else \
        f"AvP(level={int(level)},reading={reading!r})"


def gains_suffix(gains: Mapping[int, float] | None) -> str:
    if gains is None or {int(k): float(v) for k, v in gains.items()} == DEFAULT_GAIN_TABLE:
        return ""
    table = ",".join(f"{int(k)}:{_number(v)}" for k, v in sorted(gains.items()))
    return f",gains={{{table}}}"


def cumulated_gain(kind: str, profile: str, base: int, cutoff: int | None = None,
                   gains: Mapping[int, float] | None = None) -> str:
    """``kind`` in CG, DCG, nCG, nDCG; ``base`` is ignored (0) for CG/nCG."""
    params = f"profile={profile!r}" if kind in ("CG", "nCG") else f"b={int(base)},profile={profile!r}"
    name = f"JK_{kind}({params}{gains_suffix(gains)})"
    return name if cutoff is None else f"{name}@{int(cutoff)}"


def ndcg_log2(gain: str, cutoff: int) -> str:
    return f"nDCG_log2(gain={gain!r})@{int(cutoff)}"
