"""InQuery's inference network over a Terrier index: beliefs, ``#sum``, ``#wsum``, ``#syn``, phrases.

The paper ran its queries in InQuery 3.1. This back end scores the query tree with
INQUERY's published belief function and operators, over postings read once from the
Terrier index (:mod:`gradedrel.collection.postings`).

Belief of a search key t in document d (Callan, Croft & Harding 1992, *The
INQUERY retrieval system*, DEXA; Callan, Croft & Broglio 1995, *TREC and TIPSTER
experiments with INQUERY*, IP&M 31(3):327-343; Allan et al. 1997, *INQUERY at
TREC-5*, TREC-5)::

    belief(t, d) = db + (1 - db) * T * I          db = default belief = 0.4
    T = tf / (tf + 0.5 + 1.5 * dl / avg_dl)
    I = log((N + 0.5) / df) / log(N + 1)

tf: occurrences of t in d; dl: length of d (indexed tokens), avg_dl their mean; N:
documents; df: documents containing t. A document without t has belief db for it.

Operators (same sources), over child beliefs b_1..b_n:

- ``#sum(c_1 … c_n)`` = (1/n) Σ b_i;
- ``#wsum(w_1 c_1 … w_n c_n)`` = Σ w_i b_i / Σ w_i (InQuery's leading scale weight
  W only multiplies every score, so it is not represented);
- ``#syn(k_1 … k_m)``: the keys are occurrences of one key: tf the sum of their tfs in
  d, df the documents containing *any* key (the union, not the sum of dfs); keys the
  term pipeline maps to the same terms (``flow``, ``flows``) are one key;
- a multi-word key is an ordered phrase of adjacent words (InQuery ``#1``), a new key
  with its own tf and df (positions over indexed terms: a stopword inside is skipped).

Key tokens go through the index's own term pipeline; a key left with no terms is removed,
as InQuery's parser removes stopwords, and an operator left with no children too. A key
absent from the index stays, with belief db everywhere.

Other operators (``#and``, ``#or``, ``#not``, ``#max``: :mod:`gradedrel.queries.query_tree`)
are scored densely, every document's belief in each node combined bottom-up. A tree of
linear operators (``#sum``, ``#wsum``) has belief db + Σ_k c_k · (1 - db) T_k I_k, c_k the
product of the normalised weights on the path to key k: one ``bincount`` over the keys'
postings scores all N documents.

Ranking: documents containing at least one key (as InQuery and Terrier return them), by
score rounded to the 10 significant digits of run files, ties by docno descending.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gradedrel.collection.matches import Pipeline, phrase_matches
from gradedrel.collection.postings import PostingArrays
from gradedrel.queries.query_tree import Key, Node, Operator, Syn
from gradedrel.retrieval.runs import round_scores

DEFAULT_BELIEF = 0.4
TF_K = 0.5        # T's constant term (Callan et al. 1992, 1995)
DL_K = 1.5        # T's document-length factor (Callan et al. 1992, 1995)


def belief(tf, dl, avg_dl: float, df, N: int, default_belief: float = DEFAULT_BELIEF):
    """INQUERY's belief for a key with ``tf`` occurrences in a document (see module docstring)."""
    tf = np.asarray(tf, dtype=np.float64)
    T = tf / (tf + TF_K + DL_K * np.asarray(dl, dtype=np.float64) / avg_dl)
    I = np.log((N + 0.5) / np.asarray(df, dtype=np.float64)) / np.log(N + 1.0)
    return default_belief + (1.0 - default_belief) * T * I


# -- query preparation: tokens -> index terms, stopword-only keys pruned ------------

@dataclass(frozen=True)
class TermKey:
    """A search key as index terms: one term, or an ordered phrase of adjacent terms."""
    terms: tuple[str, ...]


def prepare(node: Node, pipeline: Pipeline):
    """Map key tokens to index terms; drop keys (and operators) left empty. None if nothing is left."""
    if isinstance(node, Key):
        terms = tuple(t for t in (pipeline(tok) for tok in node.tokens) if t)
        return TermKey(terms) if terms else None
    if isinstance(node, Syn):
        # keys with the same index terms (flow, flows) are one key: an occurrence counts once
        keys = tuple(dict.fromkeys(k for k in (prepare(k, pipeline) for k in node.keys)
                                   if k is not None))
        return Syn(keys) if keys else None  # type: ignore[arg-type]
    if isinstance(node, Operator):
        prepared = [prepare(c, pipeline) for c in node.children]
        kept = [i for i, c in enumerate(prepared) if c is not None]
        return node.keep(kept, [prepared[i] for i in kept])
    raise TypeError(f"not a query tree node: {node!r}")


# -- evidence: merged postings (docids ascending, tf) of a key or a #syn ------------

def key_postings(arrays: PostingArrays, key: TermKey) -> tuple[np.ndarray, np.ndarray]:
    """``(docids, tf)`` of a key; for a phrase, tf counts ordered adjacent matches."""
    if len(key.terms) == 1:
        docids, tfs = arrays.postings(key.terms[0])
        return docids.astype(np.int64), tfs.astype(np.int64)
    docids, tf = phrase_matches(arrays, key.terms)
    return docids.astype(np.int64), tf.astype(np.int64)


def syn_postings(members: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """Merged postings of ``#syn``: tf summed per document over the union of documents."""
    docids = np.concatenate([d for d, _ in members])
    tfs = np.concatenate([t for _, t in members])
    union, inverse = np.unique(docids, return_inverse=True)
    return union, np.bincount(inverse, weights=tfs, minlength=len(union)).astype(np.int64)


class Scorer:
    """Scores query trees over one index's postings (see the module docstring)."""

    def __init__(self, arrays: PostingArrays, pipeline: Pipeline,
                 default_belief: float = DEFAULT_BELIEF):
        if not 0.0 <= default_belief < 1.0:
            raise ValueError(f"default belief must be in [0, 1), not {default_belief}")
        self.arrays = arrays
        self.pipeline = pipeline
        self.default_belief = float(default_belief)
        self._dl = arrays.doc_lengths.astype(np.float64)
        order = np.argsort(arrays.docnos, kind="stable")[::-1]
        self._docno_desc = np.empty(arrays.N, np.int64)  # 0 = greatest docno
        self._docno_desc[order] = np.arange(arrays.N)

    def _postings(self, node) -> tuple[np.ndarray, np.ndarray]:
        """``(docids, tf)`` of a key or a #syn."""
        if isinstance(node, TermKey):
            return key_postings(self.arrays, node)
        return syn_postings([key_postings(self.arrays, k) for k in node.keys])

    def _leaves(self, node, weight: float, out: list) -> bool:
        """Collect (coefficient, docids, tf) of every key or #syn under ``node`` (what
        :func:`prepare` returned: keys, #syn and operators only); False if an operator under
        it is not linear."""
        if isinstance(node, (TermKey, Syn)):
            out.append((weight, *self._postings(node)))
            return True
        coefficients = node.linear(weight)
        if coefficients is None:
            return False
        return all([self._leaves(child, c, out) for c, child in zip(coefficients, node.children)])

    def _beliefs(self, node, leaves: list) -> np.ndarray:
        """Every document's belief in ``node`` (any operator), collecting its keys' postings
        in ``leaves`` (coefficient 1: which documents contain a key)."""
        if isinstance(node, (TermKey, Syn)):
            docids, tf = self._postings(node)
            leaves.append((1.0, docids, tf))
            out = np.full(self.arrays.N, self.default_belief)
            if docids.size:
                out[docids] = belief(tf, self._dl[docids], self.arrays.avg_dl, docids.size,
                                     self.arrays.N, self.default_belief)
            return out
        return node.combine(np.vstack([self._beliefs(c, leaves) for c in node.children]))

    def score(self, tree: Node) -> tuple[np.ndarray, np.ndarray]:
        """``(beliefs, matched)`` over all N documents (matched: contains a key; all False
        for a tree with no key left after the term pipeline)."""
        N, db = self.arrays.N, self.default_belief
        prepared = prepare(tree, self.pipeline)
        if prepared is None:
            return np.full(N, db), np.zeros(N, bool)
        leaves: list = []
        if not self._leaves(prepared, 1.0, leaves):
            leaves = []
            beliefs = self._beliefs(prepared, leaves)
            docids = np.concatenate([d for _, d, _ in leaves])
            return beliefs, np.bincount(docids, minlength=N) > 0
        docids = [d for _, d, _ in leaves]
        values = [c * (belief(tf, self._dl[d], self.arrays.avg_dl, d.size, N, db) - db)
                  if d.size else np.zeros(0) for c, d, tf in leaves]
        all_docids = np.concatenate(docids) if docids else np.zeros(0, np.int64)
        beliefs = db + np.bincount(all_docids, weights=np.concatenate(values), minlength=N)
        positive = np.concatenate([np.full(d.size, c > 0) for c, d, _ in leaves])
        matched = np.bincount(all_docids[positive], minlength=N) > 0
        return beliefs, matched

    def rank(self, tree: Node, depth: int) -> tuple[np.ndarray, np.ndarray]:
        """Top ``depth`` ``(docids, scores)`` of the documents that contain a key."""
        beliefs, matched = self.score(tree)
        candidates = np.flatnonzero(matched)
        if candidates.size > depth:
            # keep everything within rounding distance of the depth-th score, then order exactly
            kth = np.partition(beliefs[candidates], candidates.size - depth)[candidates.size - depth]
            candidates = candidates[beliefs[candidates] >= kth - 1e-9 * abs(kth)]
        rounded = round_scores(beliefs[candidates])
        order = np.lexsort((self._docno_desc[candidates], -rounded))[:depth]
        return candidates[order], rounded[order]
