"""The numpy InQuery scorer against a brute-force pure-Python scorer on random small cases.

The brute-force scorer works from each document's list of terms: it counts a
key's occurrences by scanning the list (a phrase: its terms at consecutive
positions), a #syn's tf as the sum over its distinct members and its df as the number of
documents where that sum is positive, and evaluates #sum/#wsum recursively.
"""
import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gradedrel.retrieval.inquery import Scorer
from gradedrel.queries.query_tree import Key, Sum, Syn, WSum
from posting_cases import from_postings

VOCAB = ["a", "b", "c", "d", "e"]


def occurrences(doc, terms):
    n = len(terms)
    return sum(1 for i in range(len(doc) - n + 1) if tuple(doc[i:i + n]) == tuple(terms))


def brute_force(docs, tree, db=0.4):
    N = len(docs)
    avg_dl = sum(map(len, docs)) / N

    def key_tfs(node):
        if isinstance(node, Key):
            return [occurrences(doc, node.tokens) for doc in docs]
        members = dict.fromkeys(node.keys)  # a key listed twice is still one key
        return [sum(tf) for tf in zip(*(key_tfs(k) for k in members))]

    def belief(node, d):
        if isinstance(node, (Key, Syn)):
            tfs = key_tfs(node)
            tf, df = tfs[d], sum(1 for t in tfs if t > 0)
            if tf == 0:
                return db
            T = tf / (tf + 0.5 + 1.5 * len(docs[d]) / avg_dl)
            return db + (1 - db) * T * math.log((N + 0.5) / df) / math.log(N + 1)
        if isinstance(node, Sum):
            return sum(belief(c, d) for c in node.children) / len(node.children)
        return sum(w * belief(c, d) for w, c in zip(node.weights, node.children)) / sum(node.weights)

    def matches(node, d):
        if isinstance(node, (Key, Syn)):
            return key_tfs(node)[d] > 0
        weights = node.weights if isinstance(node, WSum) else [1] * len(node.children)
        return any(w > 0 and matches(c, d) for w, c in zip(weights, node.children))

    return [belief(tree, d) for d in range(N)], [matches(tree, d) for d in range(N)]


keys = st.lists(st.sampled_from(VOCAB), min_size=1, max_size=2).map(lambda t: Key(tuple(t)))
leaves = keys | st.lists(keys, min_size=1, max_size=3).map(lambda k: Syn(tuple(k)))
trees = st.recursive(
    leaves,
    lambda children: st.lists(children, min_size=1, max_size=3).map(lambda c: Sum(tuple(c)))
    | st.lists(st.tuples(st.integers(1, 10), children), min_size=1, max_size=3).map(
        lambda wc: WSum(tuple(float(w) for w, _ in wc), tuple(c for _, c in wc))),
    max_leaves=6)
collections = st.lists(st.lists(st.sampled_from(VOCAB), min_size=1, max_size=8),
                       min_size=1, max_size=8)


def arrays_of(docs):
    posting_lists = {}
    for d, doc in enumerate(docs):
        for p, term in enumerate(doc):
            posting_lists.setdefault(term, {}).setdefault(d, []).append(p)
    return from_postings({t: sorted(v.items()) for t, v in posting_lists.items()},
                                  [len(doc) for doc in docs], [f"d{i:02d}" for i in range(len(docs))])


@settings(max_examples=300, deadline=None)
@given(collections, trees, st.integers(1, 10))
def test_numpy_scorer_agrees_with_brute_force(docs, tree, depth):
    scorer = Scorer(arrays_of(docs), pipeline=lambda token: token)
    expected, expected_matched = brute_force(docs, tree)
    beliefs, matched = scorer.score(tree)
    np.testing.assert_allclose(beliefs, expected, rtol=1e-12, atol=1e-12)
    assert matched.tolist() == expected_matched
    # ranking: matching documents by score (as written, 10 digits), ties by docno descending
    ranked = sorted((d for d in range(len(docs)) if expected_matched[d]),
                    key=lambda d: (-float(f"{expected[d]:.10g}"), -d))[:depth]
    docids, _ = scorer.rank(tree, depth)
    assert docids.tolist() == ranked
