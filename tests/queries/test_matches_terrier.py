"""Phrase and #syn document counts from the posting arrays equal Terrier's retrieval.

The independent source is Terrier 5.11 itself: every query is also run with the Tf model
and every matching document retrieved (tests/terrier_counts.py), and the
two sets of documents must be the same. Hand-made cases cover a repeated term, a
stopword inside a phrase, an absent phrase, co-occurring #syn members and Terrier's
reordering of ``#1`` over three or more terms; a seeded random collection covers every
phrase over a small vocabulary. (The Cranfield plans are checked in
test_queries_terrier.py.)
"""
from __future__ import annotations

import itertools
import random

import pytest

from gradedrel.collection import matches, postings
from gradedrel.core import terrier
from gradedrel.plans import key_stats
from gradedrel.retrieval import inquery
from tests.terrier_counts import document_counter, terrier_phrase_df

pytestmark = pytest.mark.terrier  # starts Java and Terrier

HAND = ["zebra yak", "yak zebra", "yak dog", "yak cat", "zebra zebra zebra",
        "cow dog cat", "cat dog cow", "dog cow cat", "cow cat", "cow of the dog",
        "cow cow dog", "cat cow cow cat", "cat cow dog", "cow yak x y z dog",
        "dog cat cow cow"]


def build(tmp_path, texts):
    directory = tmp_path / "index"
    terrier.build_index([{"docno": f"d{i:03d}", "text": t} for i, t in enumerate(texts)],
                        directory, stemmer="porter", stopwords="terrier", blocks=True,
                        max_docno_length=20)
    index = terrier.open_index(directory)
    arrays = postings.cached(directory, tmp_path / "arrays")
    pipeline = terrier.term_pipeline(directory)
    return index, arrays, pipeline


@pytest.fixture(scope="module")
def hand(tmp_path_factory, terrier_started):
    return build(tmp_path_factory.mktemp("hand"), HAND)


def terrier_docnos(index, query: str) -> set[str]:
    import pyterrier as pt
    retriever = pt.terrier.Retriever(index, wmodel="Tf", num_results=100_000)
    return set(retriever.search(query)["docno"])


def array_docnos(arrays, pipeline, query: str) -> set[str]:
    return {str(arrays.docnos[d]) for d in matches.MatchCounter(arrays, pipeline).documents(query)}


def matches_b64(token: str) -> str:
    import base64
    return f"#base64({base64.b64encode(token.encode()).decode()})"


HAND_QUERIES = [
    "#combine(#1(zebra yak))", "#combine(#1(yak zebra))",      # order of two words kept
    "#combine(#1(zebra zebra))", "#combine(#1(cow cow))",      # a repeated term
    "#combine(#1(cow dog))",                                  # "cow of the dog": stopwords skipped
    "#combine(#1(cow dog cat))", "#combine(#1(cat dog cow))",  # three words: Terrier reorders
    "#combine(#1(dog cow cat))", "#combine(#1(cat cow cow))",
    "#combine(#1(dog zebra))", "#combine(#1(dog unicorn))",    # phrase absent; word absent
    "#combine(#uw2(cow cow))", "#combine(#uw3(cow cow))", "#combine(#uw2(cow dog))",
    "#combine(#uw3(cow dog cat))", "#combine(#uw4(cow dog))", "#combine(#uw8(cow dog))",
    "#combine(#uw3(cat cow cow))", "#combine(#uw2(cow dog cat))",  # window below its terms
    "#combine(#syn(cow cat))", "#combine(#syn(zebra unicorn))",   # members co-occurring; absent
    "#combine(#syn(#1(cow cow) cat))", "#combine(#syn(#1(zebra yak) #uw2(cow dog) yak))",
    "#combine(#syn(#1(dog unicorn) zebra))", "#combine(cow)", "#combine(unicorn)",
    f"#combine(#1({matches_b64('cow')} dog))",
]


@pytest.mark.parametrize("query", HAND_QUERIES)
def test_hand_made_cases_match_terrier(query, hand):
    index, arrays, pipeline = hand
    assert array_docnos(arrays, pipeline, query) == terrier_docnos(index, query)


def test_terrier_reorders_a_long_ordered_phrase_and_the_count_follows(hand):
    """#1(cat dog cow): df(cow) > df(dog), so Terrier matches "cat cow dog" and not the
    document "cat dog cow"; counting the phrase as written (InQuery's #1) would differ."""
    index, arrays, pipeline = hand
    query = "#combine(#1(cat dog cow))"
    assert terrier_docnos(index, query) == {"d012"} == array_docnos(arrays, pipeline, query)
    as_written = inquery.key_postings(arrays, inquery.TermKey(("cat", "dog", "cow")))[0]
    assert {str(arrays.docnos[d]) for d in as_written} == {"d006"}


def test_key_statistics_phrase_df_from_arrays_equals_retrieval(hand):
    index, arrays, pipeline = hand
    counter = matches.MatchCounter(arrays, pipeline)
    for operator in ("auto", "#1", "#uw", "#uw3"):
        from_arrays = key_stats.posting_phrase_df(counter, operator)
        retrieved = terrier_phrase_df(index, operator)
        for tokens in [("cow", "dog"), ("cat", "dog", "cow"), ("cows", "dogs"), ("cow", "cow"),
                       ("dog", "cat", "cow", "cow"), ("unicorn", "dog")]:
            assert from_arrays(tokens) == retrieved(tokens), (operator, tokens)


@pytest.fixture(scope="module")
def random_collection(tmp_path_factory, terrier_started):
    rng = random.Random(3)
    vocab = ["cat", "dog", "cow", "yak", "zebra"]
    texts = [" ".join(rng.choices(vocab, [5, 3, 2, 1.5, 1], k=rng.randint(2, 9)))
             for _ in range(80)]
    return (*build(tmp_path_factory.mktemp("random"), texts), vocab)


def test_every_phrase_over_a_random_collection_matches_terrier(random_collection):
    import pyterrier as pt
    index, arrays, pipeline, vocab = random_collection
    documents = document_counter(index, arrays.N)
    counter = matches.MatchCounter(arrays, pipeline)
    retriever = pt.terrier.Retriever(index, wmodel="Tf", num_results=1000)
    queries = [f"#combine({op}({' '.join(words)}))"
               for n in (2, 3) for words in itertools.product(vocab, repeat=n)
               for op in ("#1", "#uw2", f"#uw{n}", f"#uw{n + 2}")]
    queries += [f"#combine(#1({' '.join(w)}))" for w in itertools.permutations(vocab, 4)]
    queries += [f"#combine(#syn({a} #1({b} {c})))" for a, b, c in itertools.product(vocab, repeat=3)]
    reordered = 0
    for query in queries:
        ids = counter.documents(query)
        assert set(arrays.docnos[ids]) == set(retriever.search(query)["docno"]), query
        assert counter(query) == documents(query)
        if query.startswith("#combine(#1("):
            words = tuple(query[len("#combine(#1("):-2].split())
            reordered += len(ids) != len(inquery.key_postings(arrays, inquery.TermKey(words))[0])
    assert reordered > 50  # Terrier's order of long phrases matters on this collection
