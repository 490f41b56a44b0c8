"""Measure names from parameters, for code that holds a measure's parameters rather than the
measure (the report's tables and findings): each name is ``str`` of the measure object, so
the spelling is the measure family's own (:mod:`.base`, one module per family: :mod:`.avp`,
:mod:`.jk`, :mod:`.ndcg_log2`, …). New code asks the measure object itself.

- ``AvP(level=3)``, ``AvP(level=3,reading='atleast')``;
- ``JK_CG(profile='all')@10``, ``JK_DCG(b=2,profile='2+3')@10`` (a non-default gain table
  adds ``gains={1:1,2:5,3:10}``);
- ``nDCG_log2(gain='linear')@10``.
"""
from __future__ import annotations

from typing import Mapping

from gradedrel.evaluation.measures import jk
from gradedrel.evaluation.measures.avp import AvP
from gradedrel.evaluation.measures.ndcg_log2 import nDCG_log2


def avp(level: int, reading: str = "exact") -> str:
    """The name of AvP at ``level`` with ``reading``, as the evaluation files write it."""
    return str(AvP(level=level, reading=reading))


def cumulated_gain(kind: str, profile: str, base: int, cutoff: int | None = None,
                   gains: Mapping[int, float] | None = None) -> str:
    """``kind`` in CG, DCG, nCG, nDCG; ``base`` is ignored (0) for CG/nCG."""
    return str(jk.measure(kind, profile, base, cutoff, gains))


def ndcg_log2(gain: str, cutoff: int) -> str:
    """The name of nDCG (log2 discount) with ``gain`` at ``cutoff``, as the evaluation files write
    it.
    """
    return str(nDCG_log2(gain=gain, cutoff=cutoff))
