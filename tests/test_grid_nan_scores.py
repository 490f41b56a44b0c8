"""Documents an engine scores NaN (Terrier BM25 under a #syn whose summed df exceeds N)
are left out of the ranking and reported per topic, never written to a run."""
import numpy as np
import pandas as pd

from gradedrel import grid


class _Engine:
    def transform(self, batch):
        return pd.DataFrame({"qid": ["1", "1", "1", "2"], "docno": ["a", "b", "c", "d"],
                             "score": [1.0, np.nan, 0.5, np.nan]})


def test_nan_scores_are_left_out_and_counted():
    topics = pd.DataFrame({"qid": ["1", "2"], "query": ["x", "y"]})
    queries = pd.DataFrame({"qid": ["1", "2"], "query_type": ["SUM/u"] * 2,
                            "tree": [{"op": "key", "tokens": ["wing"]}] * 2,
                            "matchop": ["wing"] * 2})
    run, not_ranked = grid.run_query_type(_Engine(), topics, queries, "SUM/u", lambda t: t)
    assert run[["qid", "docno", "rank"]].values.tolist() == [["1", "a", 1], ["1", "c", 2]]
    reasons = not_ranked[["qid", "reason"]].values.tolist()
    assert reasons[0] == ["1", f"1 {grid.NAN_SCORES}"]
    assert reasons[1] == ["2", f"1 {grid.NAN_SCORES}"]
    assert reasons[2] == ["2", grid.NO_MATCH]
    assert len(reasons) == 3
