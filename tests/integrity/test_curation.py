"""Agreement between curators and plan profiles, on hand-made plans."""
import pandas as pd
import pytest

from gradedrel.integrity import curation
from gradedrel.plans.model import Facet, Plan, PlanConcept, PlanKey


def stem(token):
    return None if token in {"of", "the", "on"} else token.rstrip("s")


def plan(qid, facets):
    return Plan(qid, "request", [Facet(name, imp, [PlanConcept(label, None, label,
                                                                [PlanKey(k) for k in keys],
                                                                [PlanKey(e, rel) for e, rel in exp])
                                                   for label, keys, exp in concepts])
                                 for name, imp, concepts in facets])


A = [plan("1", [("layers", "major", [("boundary layers", ["boundary layers"],
                                       [("skin friction", "NT"), ("wakes", "RT")])]),
                ("plates", "minor", [("flat plates", ["flat plates"], [])])])]
B = [plan("1", [("layer", "major", [("boundary layer", ["boundary layer"],
                                      [("skin friction", "NT")])]),
                ("heat", "major", [("heat", ["heat"], [("heating", "curated")])])]),
     plan("2", [("x", "major", [("x", ["x"], [])])])]


def test_agreement_by_hand():
    table = curation.agreement(A, B, stem).set_index("qid")
    assert table.index.tolist() == ["1"]  # only requests both planned
    row = table.loc["1"]
    assert (row.facets_first, row.facets_second, row.major_first, row.major_second) == (2, 2, 1, 2)
    # concepts {boundary layer, flat plate} vs {boundary layer, heat}: 1 of 3
    assert row.concepts_jaccard == pytest.approx(1 / 3)
    assert row.keys_u_jaccard == pytest.approx(1 / 3)
    # all keys {boundary layer, skin friction, wake, flat plate} vs
    # {boundary layer, skin friction, heat, heating}: 2 of 6
    assert row.keys_e_jaccard == pytest.approx(2 / 6)


def test_profile_by_hand():
    out = curation.profile([p for p in A + B if p.qid == "1"])
    assert out["plans"] == 2 and out["facets"] == 2 and out["major_facets"] == 1.5
    assert out["keys_u"] == 2 and out["keys_e"] == 4 and out["growth"] == pytest.approx(2)
    assert out["share_NT"] == pytest.approx(2 / 4) and out["share_curated"] == pytest.approx(1 / 4)


def test_avp_between():
    first = pd.DataFrame({"run": ["S"] * 3, "qid": ["1", "2", "3"], "measure": ["m"] * 3,
                          "value": [0.5, 0.2, 0.9]})
    second = first.assign(value=[0.1, 0.4, 0.0])
    table = curation.avp_between(first, second, ["1", "2"], ["m"])
    assert table.loc[0, "topics"] == 2
    assert table.loc[0, "mean_diff"] == pytest.approx((0.4 - 0.2) / 2)
    assert table.loc[0, "mean_abs_diff"] == pytest.approx((0.4 + 0.2) / 2)
