"""Choosing requests for intellectual query construction by a rule fixed in advance.

The rule may use the request text, the thesaurus (through the automatic
analysis) and the *number* of judged documents per level — nothing else. The
sample is a seeded ranking by SHA-256 of ``"{seed}:{qid}"``: the same candidates
and seed give the same sample on any machine and any library version, and
adding a candidate never reshuffles the others.
"""
from __future__ import annotations

import hashlib

import pandas as pd


def candidates(selection: pd.DataFrame, recall_base: pd.DataFrame, min_fairly: int = 1,
               min_highly: int = 1) -> list[str]:
    """Requests the automatic analysis finds expandable (``selected == 1``) with at least
    ``min_fairly`` judged documents at level 2 and ``min_highly`` at level 3."""
    merged = selection.astype({"qid": str}).merge(recall_base.astype({"qid": str}), on="qid")
    keep = (merged["selected"].astype(int) == 1) & (merged["n_2"] >= min_fairly) & \
        (merged["n_3"] >= min_highly)
    return merged.loc[keep, "qid"].tolist()


def seeded_sample(qids: list[str], size: int, seed: int) -> list[str]:
    """``size`` of ``qids``, ranked by sha256(f"{seed}:{qid}"); returned in numeric order."""
    if size > len(qids):
        raise ValueError(f"cannot sample {size} requests from {len(qids)} candidates")
    return sorted(seeded_order(qids, seed)[:size],
                  key=lambda q: (0, int(q), q) if q.isdigit() else (1, 0, q))


def seeded_order(qids: list[str], seed: int) -> list[str]:
    """``qids`` ranked by sha256(f"{seed}:{qid}") (the order ``seeded_sample`` draws from)."""
    return sorted(qids, key=lambda q: hashlib.sha256(f"{seed}:{q}".encode()).hexdigest())


def deal(qids: list[str], curators: list[str], seed: int) -> dict[str, str]:
    """Deal requests to curators in turn, in the seeded order: qid -> curator (each gets
    n // k or n // k + 1; the batches depend only on qids, curators' order and seed)."""
    return {qid: curators[i % len(curators)] for i, qid in enumerate(seeded_order(qids, seed))}
