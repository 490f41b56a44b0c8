"""Properties of the measures on random rankings (hypothesis)."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gradedrel.evaluation.measures import cumulated_gain as cg
from gradedrel.evaluation.measures import effort, stratified

from helpers_eval import judged

DEPTH = 30
PROFILES = [cg.gain_table(levels) for levels in cg.DEFAULT_PROFILES.values()]

grades_list = st.lists(st.integers(0, 3), min_size=0, max_size=40)
unretrieved = st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(0, 4))


def build(ranking_grades, extra, scores=None):
    """One topic: a ranking with these grades, plus unretrieved judged documents."""
    qrels = [("1", f"r{i}", g) for i, g in enumerate(ranking_grades) if g > 0 or i % 2]
    for level, count in zip((1, 2, 3), extra):
        qrels += [("1", f"u{level}_{j}", level) for j in range(count)]
    qrels.append(("1", "filler", 0))  # every topic is in the qrels
    if scores is None:
        scores = [float(len(ranking_grades) - i) for i in range(len(ranking_grades))]
    run = [("1", f"r{i}", s) for i, s in enumerate(scores)] or [("1", "nothing", 0.0)]
    return judged(qrels, run)


@settings(max_examples=150, deadline=None)
@given(grades_list, unretrieved, st.integers(2, 12))
def test_the_ideal_curve_bounds_the_actual_one(ranking_grades, extra, base):
    judgements, run = build(ranking_grades, extra)
    for profile in PROFILES:
        gains = cg.gain_vectors(run, profile, DEPTH)
        ideal = cg.ideal_vectors(judgements.level_counts, profile, DEPTH)
        for kind_base in (0, base):
            assert np.all(cg.curve(gains, kind_base) <= cg.curve(ideal, kind_base) + 1e-9)


@settings(max_examples=150, deadline=None)
@given(grades_list, unretrieved, st.integers(2, 12))
def test_normalised_gain_lies_in_0_1_and_cg_equals_dcg_below_rank_b(ranking_grades, extra,
                                                                     base):
    judgements, run = build(ranking_grades, extra)
    for profile in PROFILES:
        gains = cg.gain_vectors(run, profile, DEPTH)
        ideal = cg.ideal_vectors(judgements.level_counts, profile, DEPTH)
        dcg = cg.discounted_cumulated_gain(gains, base)
        cgv = cg.cumulated_gain(gains)
        assert np.array_equal(dcg[:, :base - 1], cgv[:, :base - 1])
        assert np.all(dcg <= cgv + 1e-12)  # from rank b on, discounting only removes gain
        for actual, best in ((cgv, cg.cumulated_gain(ideal)),
                             (dcg, cg.discounted_cumulated_gain(ideal, base))):
            norm = cg.normalised(actual, best)
            defined = norm[~np.isnan(norm)]
            assert np.all((defined >= 0) & (defined <= 1 + 1e-12))
            assert np.isnan(norm).all() == (best[0, 0] == 0)
    for gain in ("linear", "exp"):
        value = cg.ndcg_log2(run, judgements, 10, gain)[0]
        assert np.isnan(value) or 0 <= value <= 1 + 1e-12


@settings(max_examples=100, deadline=None)
@given(grades_list, unretrieved, st.integers(1, DEPTH), st.integers(2, 12))
def test_a_perfect_run_reaches_the_ideal(ranking_grades, extra, k, base):
    judgements, _ = build(ranking_grades, extra)
    # the perfect run: every judged document, by grade, best first
    qrels = judgements.qrels.sort_values("grade", ascending=False, kind="stable")
    perfect = [("1", d, float(len(qrels) - i)) for i, d in enumerate(qrels["docno"])]
    judgements, run = judged(list(judgements.qrels.itertuples(index=False, name=None)),
                             perfect)
    for profile in PROFILES:
        gains = cg.gain_vectors(run, profile, DEPTH)
        ideal = cg.ideal_vectors(judgements.level_counts, profile, DEPTH)
        assert np.array_equal(gains, ideal)
        curve, ideal_curve = (cg.curve(gains, base)[0], cg.curve(ideal, base)[0])
        if ideal_curve[k - 1] > 0:
            assert effort.rank_reached(curve, ideal_curve[k - 1]) <= k
    for level in (1, 2, 3):
        avp = stratified.average_precision(run, judgements, level, "atleast")[0]
        assert np.isnan(avp) or avp == 1.0  # every "at least r" document comes first


@settings(max_examples=150, deadline=None)
@given(grades_list, unretrieved, st.integers(1, 3), st.sampled_from(["exact", "atleast"]))
def test_avp_in_0_1_and_interpolated_precision_never_rises_with_recall(ranking_grades, extra,
                                                                       level, reading):
    judgements, run = build(ranking_grades, extra)
    avp = stratified.average_precision(run, judgements, level, reading)[0]
    ip = stratified.interpolated_precision(run, judgements, level, reading)[0]
    if judgements.recall_base(level, reading)[0] == 0:
        assert np.isnan(avp) and np.isnan(ip).all()
    else:
        assert 0 <= avp <= 1
        assert np.all(np.diff(ip) <= 1e-12) and np.all((ip >= 0) & (ip <= 1))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=25), st.randoms())
def test_ranking_ignores_the_order_of_lines_in_the_file(ranking_grades, rnd):
    scores = [float(i % 4) for i in range(len(ranking_grades))]  # many ties
    judgements, run = build(ranking_grades, (1, 1, 1), scores)
    order = list(range(len(ranking_grades)))
    rnd.shuffle(order)
    # same documents (renamed consistently), same scores, lines in another order
    qrels = [(q, d, g) for q, d, g in judgements.qrels.itertuples(index=False, name=None)]
    lines = [("1", f"r{i}", scores[i]) for i in order]
    _, again = judged(qrels, lines)
    assert np.array_equal(run.grade, again.grade)
    assert np.array_equal(run.position, again.position)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40), st.integers(0, 40),
                          st.integers(0, 40)), min_size=1, max_size=30),
       st.sampled_from([5, 10, 20, 100]))
def test_ideal_vectors_are_the_sorted_recall_base_row_by_row(counts, depth):
    """Each topic's ideal vector is its judged documents' gains, best first, zero-padded
    (built here topic by topic), and a weighted sum over its ranks is the same to the last
    bit (the vectorised construction once came out in column order, and the ideal DCG of
    nDCG_log2 moved by one ulp in the shipped reference)."""
    level_counts = np.array(counts, dtype=np.int64)
    discount = np.log2(np.arange(2, depth + 2, dtype=np.float64))
    for gains in [np.array(g) for g in cg.MODERN_GAINS.values()] + PROFILES:
        expected = np.zeros((len(counts), depth))
        for t, row in enumerate(counts):
            ranked = sorted((g for level, n in enumerate(row) for g in [gains[level]] * n
                             if g > 0), reverse=True)[:depth]
            expected[t, :len(ranked)] = ranked
        ideal = cg.ideal_vectors(level_counts, gains, depth)
        assert np.array_equal(ideal, expected)
        assert (ideal / discount).sum(axis=1).tolist() == \
            (expected / discount).sum(axis=1).tolist()
