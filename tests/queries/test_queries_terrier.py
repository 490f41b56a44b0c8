"""Compiled queries parse and run in Terrier: all Cranfield topics, and hostile text.

Also checks the two document-frequency counts behind docs/query-types.md against an
independent count over the raw documents, and that Terrier's #syn sums member dfs.
"""
from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gradedrel.thesaurus
from gradedrel import collection, plans
from gradedrel.collection import matches, postings
from gradedrel.core import terrier
from gradedrel.plans import key_stats, plan_sets, planner
from gradedrel.queries import matchop, query_tree, query_types, syn_statistics
from gradedrel.core.text import tokenise
from tests.conftest import small_thesaurus
from tests.terrier_counts import document_counter, terrier_phrase_df

pytestmark = pytest.mark.terrier  # starts Java and Terrier

ROOT = Path(__file__).resolve().parents[2]
CONFIG = yaml.safe_load((ROOT / "config/config.yaml").read_text())
SPEC = collection.CollectionSpec.from_config(
    "cranfield", {"ir_datasets": "cranfield", "grade_map": {"1": 3, "2": 3, "3": 2, "4": 1, "-1": 0}})


@pytest.fixture(scope="session")
def engine(cranfield_index):
    index = terrier.open_index(cranfield_index)
    pipeline = terrier.term_pipeline(cranfield_index)
    stats = key_stats.KeyStatistics(pipeline, key_stats.terrier_term_df(index), 1400,
                                    terrier_phrase_df(index))
    return index, pipeline, stats


@pytest.fixture(scope="session")
def cranfield_plans(engine):
    # the project's local copy (CI seeds it; `make reproduce` downloads it, checksum verified)
    path = ROOT / CONFIG["thesauri"]["nasa"]["path"]
    index, pipeline, stats = engine
    model = planner.Planner.build(gradedrel.thesaurus.load(path), pipeline, stats,
                                  CONFIG["analysis"], CONFIG["expansion"])
    topics = collection.load_topics(SPEC)
    auto = [model.plan(q, t) for q, t in zip(topics["qid"], topics["query"])]
    # every automatic plan, and every plan of every curated plan set
    sets = plan_sets.read("cranfield", CONFIG["collections"]["cranfield"],
                          resolve=lambda p: str(ROOT / p))
    # (derived plan sets read their parent's files: counted once, with the parent)
    curated = [plan for plan_set in sets.values() if not plan_set.derived
               for plan in plans.read_curated(plan_set.curated)]
    return auto + curated


def parse(query: str):
    import pyterrier as pt
    return pt.java.autoclass("org.terrier.matching.matchops.MatchOpQLParser")(query).parseAll()


@pytest.mark.parametrize("label", query_types.LABELS)
def test_every_cranfield_query_parses_and_runs(label, cranfield_plans, engine):
    import pyterrier as pt
    index, pipeline, _ = engine
    writer = matchop.MatchOpWriter(pipeline)
    queries = []
    for plan in cranfield_plans:
        tree = query_types.compile_plan(plan, label, pipeline, CONFIG["analysis"]["weights"])
        assert tree is not None, f"topic {plan.qid} has no search key"
        text = writer.query(tree)
        parsed = parse(text)
        if label.startswith("WSYN"):
            weights = sorted({float(e.getValue().getWeight()) for e in parsed.toArray()})
            assert set(weights) <= {7.0, 10.0}
        queries.append((f"{plan.source}-{getattr(plan, 'curator', None)}-{plan.qid}", text))
    # an automatic plan per Cranfield topic, and every curated plan set's plans
    assert len(queries) == len(cranfield_plans) > len(collection.load_topics(SPEC))
    result = pt.terrier.Retriever(index, wmodel="BM25", num_results=10).transform(
        pd.DataFrame(queries, columns=["qid", "query"]))
    assert set(result["qid"]) == {q for q, _ in queries}  # every topic retrieves documents


@pytest.fixture(scope="session")
def hostile_planner(engine):
    _, pipeline, stats = engine
    return planner.Planner.build(small_thesaurus(), pipeline, stats, CONFIG["analysis"],
                                 CONFIG["expansion"])


HOSTILE = st.text(alphabet=st.sampled_from(list("aZ9 -':,./+=?()#&|!\"^~*[]{}\\<>é§\tß")) |
                  st.characters(), max_size=60)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(request=HOSTILE, key=HOSTILE)
def test_queries_from_hostile_text_parse_and_run(request, key, hostile_planner, engine):
    import pyterrier as pt
    index, pipeline, _ = engine
    plan = hostile_planner.plan("1", request + " boundary layers")
    plan.facets.append(plans.Facet("curated", "minor", [plans.PlanConcept(
        "x", None, None, [plans.PlanKey(key)], [plans.PlanKey(key + " wing", "curated")])]))
    writer = matchop.MatchOpWriter(pipeline, "#uw4")
    retriever = pt.terrier.Retriever(index, wmodel="BM25", num_results=5)
    for label in query_types.LABELS:
        text = writer.query(query_types.compile_plan(plan, label, pipeline))
        assert text is not None  # "boundary layers" always leaves a key
        parse(text)
        retriever.search(text)


def test_union_df_counts_agree_with_the_documents(cranfield_plans, engine):
    """Terrier's match counts (used for union df and phrase df) equal a count over
    the raw documents, on the stopword-free term sequence: a two-word key as adjacent
    words in order (#1), a longer one as its words in a window of its length (#uwK)."""
    import pyterrier as pt
    index, pipeline, _ = engine
    documents = [[t for t in (pipeline(tok) for tok in tokenise(d["text"])) if t]
                 for _, _, d in collection.iter_documents(SPEC)]
    postings: dict[str, set[int]] = {}
    for number, doc in enumerate(documents):
        for term in doc:
            postings.setdefault(term, set()).add(number)
    counter = pt.terrier.Retriever(index, wmodel="Tf", num_results=2000)
    writer = matchop.MatchOpWriter(pipeline)
    checked = 0
    for plan in cranfield_plans[:30]:
        tree = query_types.compile_plan(plan, "SSYN-C/e", pipeline)
        for group in syn_statistics.syn_groups(tree):
            members = [tuple(t for t in (pipeline(x) for x in k.tokens) if t) for k in group.keys]
            union = set()
            for member in members:
                candidates = set.intersection(*(postings.get(t, set()) for t in member))
                union |= {d for d in candidates if has(documents[d], member)}
            query = f"#combine(#syn({' '.join(writer.group_members(group.keys))}))"
            assert len(counter.search(query)) == len(union), query
            checked += 1
    assert checked > 50


def has(doc: list[str], key: tuple[str, ...]) -> bool:
    n = len(key)
    if n <= 2:
        return any(tuple(doc[i:i + n]) == key for i in range(len(doc) - n + 1))
    return any(sorted(doc[i:i + n]) == sorted(key) for i in range(len(doc) - n + 1))


def test_terrier_ordered_phrase_misses_some_three_word_phrases(engine):
    """Why the default phrase operator is ``auto``: Terrier 5.11's #1 over three terms
    finds no document for 'sharp leading edges', which 18 Cranfield documents contain
    (found by #uw3 and by a count over the raw text in the test above)."""
    import pyterrier as pt
    index, _, _ = engine
    tf = pt.terrier.Retriever(index, wmodel="Tf", num_results=2000)
    assert len(tf.search("#combine(#1(sharp leading edges))")) == 0
    assert len(tf.search("#combine(#uw3(sharp leading edges))")) == 18
    assert len(tf.search("#combine(#1(sharp leading))")) == 19


def test_terrier_syn_adds_member_dfs(engine):
    """#syn(flow flows): both stem to 'flow', so the union df is df(flow), yet the
    scores turn NaN — BM25's idf got df = 2·df(flow) > N (log of a negative number)."""
    import pyterrier as pt
    index, pipeline, stats = engine
    df = stats.df("flow")
    assert 700 < 2 * df and df < 1400 < 2 * df
    bm25 = pt.terrier.Retriever(index, wmodel="BM25", num_results=5)
    assert not bm25.search("#combine(flow)")["score"].isna().any()
    assert bm25.search("#combine(#syn(flow flows))")["score"].isna().all()
    tf = pt.terrier.Retriever(index, wmodel="Tf", num_results=2000)
    assert len(tf.search("#combine(#syn(flow flows))")) == df  # the documents matched: df(flow)


def keys_of(node) -> list:
    if isinstance(node, query_tree.Key):
        return [node]
    if isinstance(node, query_tree.Syn):
        return list(node.keys)
    return [k for c in node.children for k in keys_of(c)]


@pytest.fixture(scope="module")
def cranfield_arrays(cranfield_index, tmp_path_factory):
    return postings.cached(cranfield_index, tmp_path_factory.mktemp("cranfield_arrays"))


@pytest.mark.parametrize("operator", ["auto", "#1", "#uw4"])
def test_phrase_and_syn_counts_from_the_arrays_equal_terrier_on_every_cranfield_plan(
        operator, cranfield_plans, engine, cranfield_arrays):
    """What plan_requests and syn_statistics count from the posting arrays equals the
    documents Terrier retrieves, for every multi-word key and every #syn group (members
    and union) of every Cranfield plan (automatic and curated), in every query type."""
    index, pipeline, _ = engine
    arrays = cranfield_arrays
    from_arrays = matches.MatchCounter(arrays, pipeline)
    retrieved = document_counter(index, arrays.N)
    writer = matchop.MatchOpWriter(pipeline, operator)
    queries: set[str] = set()
    for plan in cranfield_plans:
        for label in query_types.LABELS:
            tree = query_types.compile_plan(plan, label, pipeline)
            queries |= {f"#combine({writer.key(k)[0]})" for k in keys_of(tree)
                        if writer.key(k) and len(writer.key(k)[1]) > 1}
            syn_statistics.group_rows(plan.qid, label, tree, writer,
                                      lambda q: queries.add(q) or 0, arrays.N)
    phrases = [q for q in queries if not q.startswith("#combine(#syn(")]
    assert len(phrases) > 300 and len(queries) - len(phrases) > 300
    assert {q: from_arrays(q) for q in sorted(queries)} == {q: retrieved(q) for q in sorted(queries)}
