"""Graded judgements (qrels with levels 0–3) and runs joined to them.

Conventions (docs/measures.md):

- a document the qrels do not judge is not relevant (level 0);
- the *evaluated topics* are the qrels topics (or a given subset); a run topic
  absent from them is ignored and counted;
- an evaluated topic absent from a run has an empty ranking: it scores zero on
  every measure (``missing_topics="zero"``, the default) or is left out of that
  run's means (``missing_topics="skip"``).
"""
from __future__ import annotations

from gradedrel.core import lazy

import logging
from dataclasses import dataclass

np = lazy.module("numpy")
pd = lazy.module("pandas")

from gradedrel.core.errors import InputError
from gradedrel.collection.grades import LEVELS
from gradedrel.retrieval.runs import RankedRun

READINGS = ("exact", "atleast")


def relevant(grade: np.ndarray, level: int, reading: str = "exact") -> np.ndarray:
    """Which grades belong to the recall base at ``level``: judged exactly ``level`` (the
    paper's definition) or, ``reading="atleast"``, ``level`` or higher."""
    if reading == "exact":
        return grade == level
    if reading == "atleast":
        return grade >= level
    raise ValueError(f"reading must be one of {READINGS}, not {reading!r}")


@dataclass(frozen=True)
class Judgements:
    """Graded qrels over an ordered set of evaluated topics.

    ``level_counts[t, g]`` is the number of documents judged at level ``g`` for
    topic ``t`` (the per-level recall bases).
    """

    topics: np.ndarray        # evaluated qids, in order
    qrels: pd.DataFrame       # qid, docno, grade (evaluated topics only)
    level_counts: np.ndarray  # (T, 4) int64

    @classmethod
    def from_qrels(cls, qrels: pd.DataFrame, topics: list[str] | None = None,
                   source: str = "<qrels>") -> "Judgements":
        """``qrels`` has columns ``qid, docno, grade`` (grade 0–3); ``topics`` defaults to
        the qrels topics in order of first appearance."""
        grade = pd.to_numeric(qrels["grade"], errors="coerce")
        bad = ~grade.isin(LEVELS)
        if bad.any():
            row = int(np.flatnonzero(bad.to_numpy())[0])
            raise InputError(source, row + 1, f"a grade in {LEVELS}", qrels["grade"].iloc[row])
        frame = pd.DataFrame({"qid": qrels["qid"].astype(str).to_numpy(dtype=object),
                              "docno": qrels["docno"].astype(str).to_numpy(dtype=object),
                              "grade": grade.to_numpy(dtype=np.int64)})
        dup = frame.duplicated(["qid", "docno"]).to_numpy()
        if dup.any():
            row = int(np.flatnonzero(dup)[0])
            raise InputError(source, row + 1, "one judgement per (topic, document)",
                             f"{frame.qid[row]} {frame.docno[row]}")
        if topics is None:
            topics = list(pd.unique(frame["qid"]))
        else:
            # A requested topic without judgements has no recall base: no measure is
            # defined for it, so it is left out — and named — rather than scored 0.
            judged_topics = set(frame["qid"])
            unjudged = [str(t) for t in topics if str(t) not in judged_topics]
            if unjudged:
                logging.getLogger("gradedrel").warning(
                    "%d requested topic(s) have no judgements and are not evaluated: %s",
                    len(unjudged), ", ".join(unjudged[:10]))
            topics = [str(t) for t in topics if str(t) in judged_topics]
        topics_arr = np.asarray([str(t) for t in topics], dtype=object)
        index = pd.Index(topics_arr)
        t = index.get_indexer(frame["qid"])
        frame = frame[t >= 0].reset_index(drop=True)
        t = t[t >= 0]
        counts = np.zeros((len(topics_arr), len(LEVELS)), dtype=np.int64)
        np.add.at(counts, (t, frame["grade"].to_numpy()), 1)
        return cls(topics=topics_arr, qrels=frame, level_counts=counts)

    @property
    def n_topics(self) -> int:
        """Number of topics judged."""
        return len(self.topics)

    def recall_base(self, level: int, reading: str = "exact") -> np.ndarray:
        """Per-topic size of the recall base at ``level`` (:func:`relevant`)."""
        return self.level_counts[:, relevant(np.arange(len(LEVELS)), level, reading)].sum(axis=1)


@dataclass(frozen=True)
class JudgedRun:
    """A ranked run restricted to the evaluated topics, with each row's grade.

    Rows stay in ranked order; ``topic`` indexes ``Judgements.topics``.
    ``present[t]`` says whether the run ranked anything for topic ``t``.
    """

    topic: np.ndarray     # int64 per row (index into the evaluated topics)
    position: np.ndarray  # int64 per row, 0-based rank within the topic
    grade: np.ndarray     # int8 per row, 0 when unjudged
    present: np.ndarray   # bool (T,)
    ignored_topics: tuple  # run qids not among the evaluated topics
    n_topics: int

    def evaluated(self, missing_topics: str = "zero") -> np.ndarray:
        """Which topics count in this run's means (bool (T,)): every one (``"zero"``) or
        those the run ranks (``"skip"``; the config schema admits no other value)."""
        return self.present.copy() if missing_topics == "skip" else np.ones(self.n_topics, bool)

    def topk_grades(self, depth: int) -> np.ndarray:
        """The grades of the top ``depth`` documents per topic, ``(T, depth)``, 0-padded."""
        matrix = np.zeros((self.n_topics, depth), dtype=np.int8)
        keep = self.position < depth
        matrix[self.topic[keep], self.position[keep]] = self.grade[keep]
        return matrix


def judge(run: RankedRun, judgements: Judgements) -> JudgedRun:
    """Join a ranked run to the graded qrels (unjudged documents get level 0)."""
    topic_index = pd.Index(judgements.topics)
    topic_map = topic_index.get_indexer(run.topics)
    ignored = tuple(str(q) for q, t in zip(run.topics, topic_map) if t < 0)
    row_topic = topic_map[run.topic]
    keep = row_topic >= 0
    position = (run.rank() - 1)[keep]
    row_topic = row_topic[keep]
    # One integer key per (topic, document), through the run's own document codes:
    # only the (few) qrels ids are looked up as text.
    qrels = judgements.qrels
    q_topic = topic_index.get_indexer(qrels["qid"])
    q_code = pd.Index(run.vocabulary).get_indexer(qrels["docno"])
    retrieved = (q_code >= 0) & (q_topic >= 0)
    n_docs = max(len(run.vocabulary), 1)
    q_key = q_topic[retrieved].astype(np.int64) * n_docs + q_code[retrieved]
    q_grade = qrels["grade"].to_numpy()[retrieved]
    r_key = row_topic.astype(np.int64) * n_docs + run.doc_code[keep]
    # the qrels' keys are unique (from_qrels refuses a pair twice); a row they do not judge
    # gets -1: the level 0 appended
    grade = np.append(q_grade, 0)[pd.Index(q_key).get_indexer(r_key)].astype(np.int8)
    present = np.zeros(judgements.n_topics, dtype=bool)
    present[row_topic] = True
    return JudgedRun(topic=row_topic.astype(np.int64), position=position.astype(np.int64),
                     grade=grade, present=present, ignored_topics=ignored,
                     n_topics=judgements.n_topics)
