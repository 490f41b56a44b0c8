"""Stratified AvP (Järvelin & Kekäläinen 2000, method 1) as a measure family.

``AvP(level=r)``: non-interpolated average precision against the recall base of level r,
the documents judged exactly r (the paper's definition); ``AvP(level=r,reading='atleast')``
against those judged r or higher (trec_eval's relevance threshold). Definitions and
trec_eval's conventions: :mod:`gradedrel.evaluation.measures.stratified`. A family entry
``AvP`` expands over the evaluation's ``levels`` and ``readings``.
"""
from __future__ import annotations

from gradedrel.core import lazy

np = lazy.module("numpy")

from gradedrel.evaluation.measures import stratified
from gradedrel.evaluation.measures.base import Measure, Param, Ranking


class AvPMeasure(Measure):
    """Stratified non-interpolated AvP at one relevance level."""

    NAME = "AvP"
    PRETTY_NAME = "Stratified AvP"
    SHORT_DESC = "Average precision against the recall base of one relevance level."
    SUPPORTED_PARAMS = {
        "level": Param(int, required=True, choices=(1, 2, 3), grid="levels",
                       desc="relevance level of the recall base"),
        "reading": Param(str, default="exact", choices=stratified.READINGS, grid="readings",
                         desc="recall base: judged exactly level, or at least level"),
    }

    def values(self, ranking: Ranking) -> np.ndarray:
        """Per-topic stratified average precision at this measure's level and reading."""
        return stratified.average_precision(ranking.judged, ranking.judgements,
                                            self["level"], self["reading"])

    def undefined_when(self) -> str:
        """An empty recall base: no document judged exactly (or at least) the level."""
        level = self["level"]
        return (f"no document is judged exactly {level}" if self["reading"] == "exact"
                else f"no document is judged {level} or higher")

    def label(self, long: bool = False) -> str:
        """``AvP, level 3`` (``AvP, level 3 or higher`` for the at-least reading; ``long``:
        ``Stratified AvP, level 3``); the family entry without a level: ``AvP``."""
        head = self.PRETTY_NAME if long else self.NAME
        if "level" not in self.params:
            return head
        above = " or higher" if self["reading"] == "atleast" else ""
        return f"{head}, level {self['level']}{above}"

    @property
    def interpolated_name(self) -> str:
        """The name of the interpolated precision curve on the same recall base
        (``iPrec(level=3)``: the P–R curves' points in ``bootstrap_ci.tsv``)."""
        return "iPrec" + str(self)[len(self.NAME):]


AvP = AvPMeasure()
MEASURES = (AvP,)
