"""Multiple-comparison corrections of a family of p-values, by name (:data:`CORRECTIONS`):
Holm's step-down method (Holm 1979), Bonferroni's, or none. NumPy only, so that a name is
checked (:func:`known`) and a family corrected without a statistics library.

The arithmetic is statsmodels' ``multipletests`` (``holm``, ``bonferroni``) step for step, so
the adjusted p-values are the same to the last bit (tests/evaluation/test_corrections.py
checks that against statsmodels): Holm sorts the family, multiplies the i-th smallest p
(from 0) by m − i, carries the running maximum up the order and caps at 1; Bonferroni
multiplies every p by m and caps at 1. Tied p-values get one adjusted value whichever order
the sort leaves them in. A NaN stays NaN (and, sorted last, touches no other value).
"""
from __future__ import annotations

from typing import Callable

from gradedrel.core import lazy

# imported on first use: the workflow's rule files build evaluation settings, which check a
# correction's name, with Snakemake alone (snakemake --lint; gradedrel.core.lazy)
np = lazy.module("numpy")


def holm(p_values: np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values, in the family's order."""
    p = np.asarray(p_values, dtype=np.float64)
    order = np.argsort(p, kind="stable")
    stepped = np.maximum.accumulate(p[order] * np.arange(len(p), 0, -1))
    adjusted = np.empty_like(stepped)
    adjusted[order] = np.minimum(stepped, 1.0)
    return adjusted


def bonferroni(p_values: np.ndarray) -> np.ndarray:
    """Bonferroni's adjusted p-values: each p times the family's size, at most 1."""
    p = np.asarray(p_values, dtype=np.float64)
    return np.minimum(p * float(len(p)), 1.0)


def unadjusted(p_values: np.ndarray) -> np.ndarray:
    """The p-values as they are (a copy): correction ``none``."""
    return np.array(p_values, dtype=np.float64)


#: correction name (config's ``evaluation.significance.correction``) → its function
CORRECTIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "holm": holm, "bonferroni": bonferroni, "none": unadjusted}


def known(name: str) -> str:
    """``name`` when it is a correction of :data:`CORRECTIONS`, else a ValueError naming them."""
    if name not in CORRECTIONS:
        raise ValueError(f"correction must be one of {tuple(CORRECTIONS)}, not {name!r}")
    return name


def adjust(p_values: np.ndarray, method: str = "holm") -> np.ndarray:
    """A family of p-values corrected by the correction named ``method``."""
    return CORRECTIONS[known(method)](p_values)
