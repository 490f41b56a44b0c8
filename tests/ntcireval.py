"""pyNTCIREVAL (Kato's Python port of Sakai's NTCIREVAL, PyPI ``pyNTCIREVAL`` 0.0.3) as the
oracle of the graded measures NTCIREVAL computes too, topic by topic; and, run as a
script, the check of a finished main job's runs:

    PYTHONPATH=. .venv/bin/python tests/ntcireval.py --results results \\
        --collection cranfield --plan-set expert

The oracle gets each topic's ranking as NTCIREVAL's labeller gives it — ``(docno, level)``
in rank order, ``None`` for an unjudged document — with the qrels looked up here (not
through the package's join), the per-level counts of judged documents (``xrelnum``, level 0
included) and the gain of each level 1–3 (``grades``). The ranking is the run in trec_eval's
order (score descending, then document id descending), the order the evaluation uses:
NTCIREVAL takes a ranked list as given. Where the oracle divides by zero (an ideal of 0),
the measure is undefined: the package gives NaN there. pyNTCIREVAL cannot take an empty
ranking, so a topic a run lacks is given to it as one unjudged document (which adds nothing
to these measures; the package scores such a topic on its empty ranking).

Our measure → pyNTCIREVAL (docs/measures.md, "Checked against NTCIREVAL"):

- ``JK_nDCG(b=B,profile=P[,gains=G])@k`` → ``nDCG(xrelnum, grades, logb=B, cutoff=k)`` with
  ``grades`` the profile's gains of levels 1, 2, 3 (0 for a level outside the profile);
- ``Q(beta=β[,gains=G])[@k]`` → ``QMeasure(xrelnum, grades, beta=β[, cutoff=k])``;
- ``nERR[(gains=G)]@k`` → ``nERR(xrelnum, grades, cutoff=k)``.
"""
from __future__ import annotations

import math
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from pyNTCIREVAL import metrics as ntcir

from gradedrel.evaluation.measures.base import Ranking
from gradedrel.evaluation.measures.judgements import Judgements, judge


def level_gains(measure, profiles: Mapping[str, Sequence[int]] | None = None) -> list[float]:
    """NTCIREVAL's ``grades`` (the gains of levels 1, 2, 3) of one of our measures."""
    if "profile" in measure.SUPPORTED_PARAMS:
        levels = (profiles or {"all": (1, 2, 3), "2+3": (2, 3), "3": (3,)})[measure["profile"]]
        return [float(measure["gains"][lv]) if lv in levels else 0.0 for lv in (1, 2, 3)]
    return [float(measure["gains"][lv]) for lv in (1, 2, 3)]


def oracle_value(measure, xrelnum: list[int], ranked: list[tuple[str, int | None]],
                 profiles=None) -> float:
    """pyNTCIREVAL's value of ``measure`` for one topic (NaN where it divides by zero)."""
    grades = level_gains(measure, profiles)
    if measure.NAME == "JK_nDCG":
        metric = ntcir.nDCG(xrelnum, grades, measure["b"], measure["cutoff"])
    elif measure.NAME == "Q":
        if sum(xrelnum[1:]) == 0:  # NTCIREVAL's compute refuses a topic without one
            return math.nan
        metric = ntcir.QMeasure(xrelnum, grades, measure["beta"], measure.params.get("cutoff"))
    elif measure.NAME == "nERR":
        metric = ntcir.nERR(xrelnum, grades, measure["cutoff"])
    else:
        raise ValueError(f"no NTCIREVAL counterpart for {measure}")
    # pyNTCIREVAL cannot take an empty ranking (max() of nothing): a topic the run lacks is
    # given as one unjudged document, which adds nothing to any of these measures
    try:
        with np.errstate(invalid="ignore", divide="ignore"):  # its 0/0 in NumPy floats: NaN
            return float(metric.compute(ranked or [("<no document>", None)]))
    except ZeroDivisionError:
        return math.nan


def ranked_lists(run, qrels: pd.DataFrame, topics: Sequence[str]) -> dict[str, list]:
    """Per topic, the run's ranking as NTCIREVAL's labeller gives it."""
    judged = {}
    for qid, docno, grade in zip(qrels["qid"].astype(str), qrels["docno"].astype(str),
                                 qrels["grade"].astype(int)):
        judged.setdefault(qid, {})[docno] = int(grade)
    lists = {str(t): [] for t in topics}
    for t, docno in zip(run.topic.tolist(), run.docno.tolist()):
        qid = str(run.topics[t])
        if qid in lists:
            lists[qid].append((docno, judged.get(qid, {}).get(docno)))
    return lists


def compare(measures: Sequence, runs: Mapping, qrels: pd.DataFrame, topics: Sequence[str],
            profiles=None) -> dict[str, dict]:
    """Per measure: the largest absolute difference between ours and pyNTCIREVAL over every
    run and topic where both are defined, how many (run, topic) values were compared, and
    how many were undefined on either side — which must be the same topics."""
    judgements = Judgements.from_qrels(qrels, list(topics))
    counts = judgements.level_counts
    out = {}
    for measure in measures:
        worst, compared, undefined, mismatched = 0.0, 0, 0, []
        for label, run in runs.items():
            ranking = Ranking(judge(run, judgements), judgements, run=run, profiles=profiles)
            ours = measure.values(ranking)
            lists = ranked_lists(run, qrels, judgements.topics)
            for t, qid in enumerate(judgements.topics):
                theirs = oracle_value(measure, counts[t].tolist(), lists[qid], profiles)
                if math.isnan(theirs) or math.isnan(ours[t]):
                    undefined += 1
                    if math.isnan(theirs) != math.isnan(ours[t]):
                        mismatched.append((label, qid, float(ours[t]), theirs))
                    continue
                worst = max(worst, abs(float(ours[t]) - theirs))
                compared += 1
        out[str(measure)] = {"max_abs_difference": worst, "compared": compared,
                             "undefined": undefined, "mismatched": mismatched}
    return out


def checked_measures(cutoffs=(10, 50, 100), bases=(2, 10), profiles=("all", "2+3", "3")):
    """The measures the main job's check compares."""
    from gradedrel.evaluation.measures.jk import JK_nDCG
    from gradedrel.evaluation.measures.nerr import nERR
    from gradedrel.evaluation.measures.q import Q

    return [JK_nDCG(b=b, profile=p) @ k for p in profiles for b in bases for k in cutoffs] + \
        [Q(beta=1)] + [Q(beta=1) @ k for k in cutoffs] + [nERR @ k for k in cutoffs]


def main(argv=None) -> int:
    import argparse
    from pathlib import Path

    from gradedrel.collection.readers import read_qrels_tsv
    from gradedrel.core.io import read_tsv
    from gradedrel.retrieval.runs import read_run

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=Path("results"))
    parser.add_argument("--collection", default="cranfield")
    parser.add_argument("--plan-set", default="expert")
    parser.add_argument("--tolerance", type=float, default=1e-9)
    args = parser.parse_args(argv)
    base = args.results / args.collection
    qrels = read_qrels_tsv(base / "qrels.tsv")
    topics = read_tsv(base / "plans" / args.plan_set / "topics.tsv")["qid"].tolist()
    paths = sorted((base / "runs" / args.plan_set).glob("*/*.run"))
    runs = {f"{p.parent.name}/{p.stem}": read_run(p) for p in paths}
    print(f"{len(runs)} runs of {args.collection}/{args.plan_set}, {len(topics)} topics")
    failed = False
    for name, row in compare(checked_measures(), runs, qrels, topics).items():
        bad = row["max_abs_difference"] > args.tolerance or row["mismatched"]
        failed |= bool(bad)
        print(f"{name}: max |ours - pyNTCIREVAL| = {row['max_abs_difference']:.3g} over "
              f"{row['compared']} run-topic values ({row['undefined']} undefined on both "
              f"sides){'  FAILED: ' + repr(row['mismatched'][:3]) if bad else ''}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
