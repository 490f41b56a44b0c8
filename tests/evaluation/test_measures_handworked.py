"""The measures on examples worked by hand (and the 2002 paper's vectors)."""
import math

import numpy as np
import pytest

from gradedrel.evaluation.measures import cumulated_gain as cg
from gradedrel.evaluation.measures import effort, stratified

from helpers_eval import judged, ranked_by_grade

LINEAR = np.array([0.0, 1.0, 2.0, 3.0])

# Järvelin & Kekäläinen (2002), the worked example with b = 2.
G = [3, 2, 3, 0, 0, 1, 2, 2, 3, 0]
CG_2002 = [3, 5, 8, 8, 8, 9, 11, 13, 16, 16]
DCG_2002 = [3, 5, 6.89, 6.89, 6.89, 7.28, 7.99, 8.66, 9.61, 9.61]
IDEAL_2002 = [3, 3, 3, 2, 2, 2, 1, 1, 1, 1]
DCG_IDEAL_2002 = [3, 6, 7.89, 8.89, 9.75, 10.52, 10.88, 11.21, 11.53, 11.83]


def test_cg_and_dcg_b2_reproduce_the_2002_worked_example():
    gains = np.array(G, dtype=float)
    assert cg.cumulated_gain(gains).tolist() == CG_2002
    assert np.round(cg.discounted_cumulated_gain(gains, 2), 2).tolist() == DCG_2002


def test_ideal_vector_and_its_dcg_reproduce_the_2002_worked_example():
    # the recall base of the example: three 3s, three 2s, four 1s (and irrelevant ones)
    _, run = ranked_by_grade(G)
    judgements, _ = ranked_by_grade(IDEAL_2002 + [0] * 5)
    ideal = cg.ideal_vectors(judgements.level_counts, LINEAR, 10)[0]
    assert ideal.tolist() == IDEAL_2002
    dcg_ideal = cg.discounted_cumulated_gain(ideal, 2)
    # The paper prints 10.52 and 11.21 at ranks 6 and 8, where the exact values are
    # 10.5279 and 11.2175 (truncated there, rounded elsewhere): agree to within 0.01.
    assert np.abs(dcg_ideal - DCG_IDEAL_2002).max() < 0.01
    assert dcg_ideal[5] == pytest.approx(6 + 3 / math.log2(3) + 1 + 2 / math.log2(5)
                                         + 2 / math.log2(6))


def test_gain_vector_of_a_ranking_through_the_judgements():
    _, run = ranked_by_grade(G)
    assert cg.gain_vectors(run, LINEAR, 12)[0].tolist() == G + [0, 0]  # 0 beyond the ranking


def test_dcg_b10_is_undiscounted_before_rank_10_and_divides_by_log10_after():
    gains = np.array([0] * 9 + [3, 3], dtype=float)
    dcg = cg.discounted_cumulated_gain(gains, 10)
    assert dcg[:9].tolist() == [0] * 9
    assert dcg[9] == 3.0                                  # log10(10) = 1
    assert dcg[10] == pytest.approx(3 + 3 / 1.0413926851582251)  # log10(11), by hand
    # ranks 1-9 would be *inflated* by log10(i) < 1; the rule must not do that
    early = cg.discounted_cumulated_gain(np.array([3.0, 3.0, 3.0]), 10)
    assert early.tolist() == [3.0, 6.0, 9.0]


def test_gain_profiles_give_gain_only_to_their_levels():
    _, run = ranked_by_grade([3, 2, 1, 0, 3])
    by_name = {name: cg.gain_table(levels) for name, levels in cg.DEFAULT_PROFILES.items()}
    expect = {"all": [3, 2, 1, 0, 3], "2+3": [3, 2, 0, 0, 3], "3": [3, 0, 0, 0, 3]}
    for name, gains in expect.items():
        vector = cg.gain_vectors(run, by_name[name], 5)[0]
        assert vector.tolist() == gains
        assert cg.cumulated_gain(vector).tolist() == np.cumsum(gains).tolist()
    custom = cg.gain_table((3,), {1: 1, 2: 5, 3: 10})
    assert cg.gain_vectors(run, custom, 5)[0].tolist() == [10, 0, 0, 0, 10]


def test_ncg_divides_rank_by_rank_and_is_undefined_without_an_ideal():
    actual = np.array([[3.0, 5.0, 5.0], [0.0, 0.0, 0.0]])
    ideal = np.array([[3.0, 6.0, 8.0], [0.0, 0.0, 0.0]])
    norm = cg.normalised(actual, ideal)
    assert norm[0].tolist() == [1.0, 5 / 6, 5 / 8]
    assert np.isnan(norm[1]).all()


def test_stratified_avp_by_hand_for_both_readings():
    # Topic 1: a, b, c highly (3); m fairly (2); n marginally (1); z judged irrelevant.
    qrels = [("1", "a", 3), ("1", "b", 3), ("1", "c", 3), ("1", "m", 2), ("1", "n", 1),
             ("1", "z", 0), ("2", "p", 1)]
    # ranking: a, x(unjudged), m, b, n, z  — c never retrieved
    run = [("1", d, s) for d, s in zip("axmbnz", [6, 5, 4, 3, 2, 1])] + [("2", "q", 1.0)]
    judgements, ranking = judged(qrels, run)
    avp3 = stratified.average_precision(ranking, judgements, 3)
    assert avp3[0] == pytest.approx((1 / 1 + 2 / 4 + 0) / 3)
    assert np.isnan(avp3[1])  # topic 2 has no highly relevant document: no AvP at level 3
    assert stratified.average_precision(ranking, judgements, 2)[0] == pytest.approx(1 / 3)
    # at least 2: a, m, b relevant at ranks 1, 3, 4 (and c missed), recall base 4
    at_least = stratified.average_precision(ranking, judgements, 2, "atleast")[0]
    assert at_least == pytest.approx((1 / 1 + 2 / 3 + 3 / 4) / 4)
    assert stratified.average_precision(ranking, judgements, 1)[0] == pytest.approx(1 / 5)
    assert stratified.average_precision(ranking, judgements, 1)[1] == 0.0


def test_interpolated_precision_by_hand():
    qrels = [("1", d, 3) for d in "abcd"]
    run = [("1", "a", 9), ("1", "x", 8), ("1", "b", 7), ("1", "y", 6), ("1", "w", 5),
           ("1", "c", 4)]  # relevant at ranks 1, 3, 6; d not retrieved; R = 4
    judgements, ranking = judged(qrels, run)
    # precision at the relevant documents: 1, 2/3, 1/2 (at the 1st, 2nd, 3rd).
    # legacy (trec_eval <= 9.0.7, pytrec_eval): needed = floor(4r + 0.9)
    #   = 0, 1, 1, 2, 2, 2, 3, 3, 4, 4, 4 for r = 0.0 .. 1.0
    legacy = stratified.interpolated_precision(ranking, judgements, 3)[0]
    assert legacy.tolist() == pytest.approx([1, 1, 1, 2 / 3, 2 / 3, 2 / 3, 1 / 2, 1 / 2,
                                             0, 0, 0])
    # lround (trec_eval >= 9.0.8): needed = round(4r) = 0, 0, 1, 1, 2, 2, 2, 3, 3, 4, 4
    rounded = stratified.interpolated_precision(ranking, judgements, 3, rounding="lround")[0]
    assert rounded.tolist() == pytest.approx([1, 1, 1, 1, 2 / 3, 2 / 3, 2 / 3, 1 / 2, 1 / 2,
                                              0, 0])


def test_effort_finds_the_first_rank_reaching_the_ideal_value_at_k():
    curve = np.array([1.0, 2.0, 2.5, 4.0, 4.0, 6.0])
    assert effort.rank_reached(curve, 4.0) == 4
    assert effort.rank_reached(curve, 0.5) == 1
    assert effort.rank_reached(curve, 6.5) is None  # not reached within N
    # a sum that misses the target by rounding alone still reaches it
    assert effort.rank_reached(np.array([0.1 + 0.2]), 0.3) == 1


def test_ndcg_log2_by_hand():
    # grades 2, 0, 3 at ranks 1-3; recall base {3, 2}
    _, run = ranked_by_grade([2, 0, 3])
    judgements, _ = ranked_by_grade([2, 0, 3])
    dcg = 2 / math.log2(2) + 0 + 3 / math.log2(4)
    idcg = 3 / math.log2(2) + 2 / math.log2(3)
    assert cg.ndcg_log2(run, judgements, 3)[0] == pytest.approx(dcg / idcg)
    dcg_exp = 3 / math.log2(2) + 7 / math.log2(4)
    idcg_exp = 7 + 3 / math.log2(3)
    assert cg.ndcg_log2(run, judgements, 3, "exp")[0] == pytest.approx(dcg_exp / idcg_exp)
