"""Scoring the memory probe: does the curators' language model remember a request's page?

Protocol and the measures' definitions: docs/memory-probe.md ("Scoring"); thresholds:
docs/preregistration.md, Amendment 1, A7 (:class:`Thresholds`). Inputs: the probed requests
(``config/probe/requests.tsv``; sources ``nfcorpus``, ``placebo``, ``cranfield``) and the
probers' answers (YAML batch files: :func:`parse_answers`). Terms: a text's tokens through the
index's term pipeline (stopwords out, Porter stemming), as sets. Each probed request q is
scored against its level-3 documents L3 and the text Q of its *scoring request* (its own; for
a placebo, the real NFCorpus request assigned to it):

- **cited-study recall**: the share of L3 matched by a claimed study: a claimed title T
  matches a document title D when Dice(T, D) ≥ 0.6 and |(T ∩ D) − Q| ≥ 2;
- **remembered-keys lift** L = Σ_k df_L3(k)/|L3| ÷ Σ_k df_N(k)/N over the keys not of class
  ``request`` (:mod:`gradedrel.integrity.leak`), L_mem over the remembered keys, L_der over the
  derived ones; the statistic log(L_mem / L_der) (:func:`log_ratio`).

The rules, in this order: if more than 10 % of the placebos reach one matched document, the
cited-study rule needs two matched level-3 documents instead of one; the Cranfield reference
is the 95th percentile (numpy's linear) of the defined Cranfield statistics. A request is
**remembered** if it reaches the matches needed, or if its statistic exceeds both log 1.5
and that percentile.

Choices where the protocol is silent (reported to the lead):

- placebos and real NFCorpus requests are each taken in probe-id order; the i-th placebo is
  scored against the real request at position ``p[i mod n]`` of a permutation ``p`` drawn by
  ``numpy.random.default_rng(seed).permutation(n)`` (n real requests; seed: the study
  design's ``constants.seed``; a further permutation from the same generator for every
  further n placebos);
- a key set counts each term set once; keys without an indexed term are left out;
- the verdict rules are applied to every probed request (placebos: their false claims;
  Cranfield: the reference's own tail), with the same thresholds; the NFCorpus verdicts
  are the ones the amendment uses, the others are reported;
- an answer's ``remembers_page`` written as YAML's ``yes``/``no`` (booleans) is read as the
  word; a claimed study without a title matches nothing (counted).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from gradedrel.core.errors import InputError
from gradedrel.core import yaml_io
from gradedrel.integrity.leak import Documents, linear_percentile
from gradedrel.report.tables import Table

SOURCES = ("nfcorpus", "placebo", "cranfield")
REAL, PLACEBO, REFERENCE = SOURCES
CLAIMS = ("yes", "unsure", "no")
REQUEST_COLUMNS = ["probe_id", "source", "qid", "text"]


@dataclass(frozen=True)
class Thresholds:
    """Amendment 1, A7 (fixed before any answer)."""

    dice: float = 0.6
    shared_terms: int = 2
    placebo_false_match: float = 0.10
    key_ratio: float = 1.5
    percentile: float = 95.0


@dataclass(frozen=True)
class Study:
    """A study a probe answer cites: authors, year, title."""

    authors: str
    year: str
    title: str


@dataclass(frozen=True)
class Answer:
    """A model's answer to a memory probe: what it remembers of the page, its cited studies and
    keys."""

    probe_id: str
    derived_keys: tuple[str, ...]
    remembers_page: str
    page_summary: str
    cited_studies: tuple[Study, ...]
    remembered_keys: tuple[str, ...]
    where: str = ""


@dataclass
class Collection:
    """What scoring against one collection needs: its terms, documents and judgements."""

    terms: Callable[[str], tuple[str, ...]]
    documents: Documents
    level3: Mapping[str, Sequence[str]]   # qid -> docnos judged 3
    titles: Mapping[str, str]             # docno -> title


# ---------------------------------------------------------------- reading

def read_requests(path: str | Path, columns: Sequence[str] = REQUEST_COLUMNS) -> pd.DataFrame:
    """``config/probe/requests.tsv`` (probe v2: its ``columns``), checked: columns, sources,
    unique probe ids."""
    frame = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
    if any(c not in frame.columns for c in columns):
        raise InputError(path, 1, f"a header with columns {list(columns)}", list(frame.columns))
    seen: dict = {}
    for line, (probe_id, source) in enumerate(zip(frame["probe_id"], frame["source"]), start=2):
        if source not in SOURCES:
            raise InputError(path, line, f"source one of {list(SOURCES)}", source)
        if not probe_id:
            raise InputError(path, line, "a probe id")
        if seen.setdefault(probe_id, line) != line:
            raise InputError(path, line, f"one row per probe id (first at line {seen[probe_id]})",
                             probe_id)
    return frame[list(columns)]


def _text(value) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(map(_text, value))
    return "" if value is None else str(value)


def _keys(item: dict, name: str, path, line) -> tuple[str, ...]:
    value = item.get(name)
    if value is None:
        return ()
    if not isinstance(value, list) or any(isinstance(v, (dict, list)) for v in value):
        raise InputError(path, line, f"{name} as a list of search keys", value)
    return tuple(str(v) for v in value if v is not None and str(v).strip())


#: The fields of an answer, by probe version: v1 (Amendment 1) and v2 (Amendment 2, B4).
#: (the claim's field, the studies' field, every field).
ANSWER_FIELDS = {
    1: ("remembers_page", "cited_studies", ("id", "derived_keys", "remembers_page",
                                            "page_summary", "cited_studies", "remembered_keys")),
    2: ("known", "studies", ("id", "known", "studies")),
}


def parse_answers(text: str, path: str | Path = "<answers>", version: int = 1) -> list[Answer]:
    """One batch file of answers of probe ``version`` (1 or 2: :data:`ANSWER_FIELDS`); any
    error names the file and line. A v2 answer has no keys and no summary (empty)."""
    claim_field, studies_field, fields = ANSWER_FIELDS[version]
    answers = []
    items = yaml_io.load(text, path, yaml_io.LinedLoader)
    if not isinstance(items, (list, type(None))):
        raise InputError(path, getattr(items, "line", 1), "a list of answers")
    for item in items or []:
        line = getattr(item, "line", None)
        if not isinstance(item, dict):
            raise InputError(path, line, "an answer as a mapping", item)
        unknown = sorted(set(item) - set(fields))
        if unknown:
            raise InputError(path, line, f"answer fields among {sorted(fields)}", unknown)
        if item.get("id") in (None, ""):
            raise InputError(path, line, "an answer with an 'id'")
        claim = item.get(claim_field)
        claim = ("yes" if claim else "no") if isinstance(claim, bool) else claim
        if claim is None or str(claim).strip().lower() not in CLAIMS:
            raise InputError(path, line, f"{claim_field} one of {list(CLAIMS)}",
                             item.get(claim_field))
        studies = item.get(studies_field) or []
        if not isinstance(studies, list):
            raise InputError(path, line, f"{studies_field} as a list", studies)
        parsed = []
        for study in studies:
            if not isinstance(study, dict):
                raise InputError(path, getattr(study, "line", line),
                                 "a cited study as a mapping (authors, year, title)", study)
            parsed.append(Study(*(_text(study.get(f)) for f in ("authors", "year", "title"))))
        answers.append(Answer(str(item["id"]), _keys(item, "derived_keys", path, line),
                              str(claim).strip().lower(),
                              _text(item.get("page_summary")), tuple(parsed),
                              _keys(item, "remembered_keys", path, line), f"{path}:{line}"))
    return answers


def read_answers(paths: Iterable[str | Path], requests: pd.DataFrame) -> dict[str, Answer]:
    """probe id → answer over the batch files; an answer to an unknown id, a second answer
    and a probed request without an answer are errors."""
    known = set(requests["probe_id"])
    out: dict[str, Answer] = {}
    for path in paths:
        for answer in parse_answers(Path(path).read_text(encoding="utf-8"), path):
            if answer.probe_id not in known:
                raise InputError(answer.where, None, "an answer to a probed request id",
                                 answer.probe_id)
            if answer.probe_id in out:
                raise InputError(answer.where, None,
                                 f"one answer per id (first at {out[answer.probe_id].where})",
                                 answer.probe_id)
            out[answer.probe_id] = answer
    missing = sorted(known - set(out))
    if missing:
        raise ValueError(f"memory probe: no answer for {len(missing)} probed requests: "
                         f"{missing[:10]}")
    return out


def document_titles(dataset: str, docnos: Iterable[str],
                    ir_datasets_home: str | None = None) -> dict[str, str]:
    """docno → title of the wanted documents of an ``ir_datasets`` collection (its ``title``
    field: NFCorpus's PubMed titles, Cranfield's), read in one pass over the documents
    (no document store is built). A wanted document without a title is an error."""
    from gradedrel.collection.spec import use_ir_datasets_home

    use_ir_datasets_home(ir_datasets_home)
    import ir_datasets

    wanted = set(docnos)
    titles = {doc.doc_id: str(getattr(doc, "title", "") or "")
              for doc in ir_datasets.load(dataset).docs_iter() if doc.doc_id in wanted}
    missing = sorted(wanted - set(titles))
    if missing:
        raise ValueError(f"ir_datasets:{dataset}: no documents {missing[:5]}")
    return titles


# ---------------------------------------------------------------- scoring

def dice(a: set, b: set) -> float:
    """Dice similarity of two sets (0.0 for two empty sets)."""
    return 2 * len(a & b) / (len(a) + len(b)) if a or b else 0.0


def best_similarity(claimed: Sequence[frozenset], title: frozenset, min_shared: int = 2,
                    request_terms: frozenset = frozenset()) -> float:
    """The highest Dice of ``title`` with a claimed title sharing at least ``min_shared``
    terms with it that are not ``request_terms`` (0.0 if none does)."""
    return max((dice(t, title) for t in claimed if len((t & title) - request_terms) >= min_shared),
               default=0.0)


def matched_documents(titles: Sequence[str], documents: Mapping[str, str],
                      request_terms: set, terms: Callable[[str], tuple[str, ...]],
                      thresholds: Thresholds = Thresholds()) -> dict[str, float]:
    """docno → best Dice of the claimed titles that match it (both rules)."""
    claimed = [frozenset(terms(t)) for t in titles if t.strip()]
    best = {d: best_similarity(claimed, frozenset(terms(title)), thresholds.shared_terms,
                               frozenset(request_terms)) for d, title in documents.items()}
    return {d: s for d, s in best.items() if s >= thresholds.dice}


def key_lift(keys: Sequence[str], request_terms: set, collection: Collection,
             level3: np.ndarray) -> tuple[float, int]:
    """(lift, keys used) of a key set: the keys not of class ``request``, each term set once;
    NaN when no key is used, none matches a document of the collection, or there is no
    level-3 document."""
    used = list(dict.fromkeys(t for t in map(collection.terms, keys)
                              if t and not all(x in request_terms for x in t)))
    if not used or not len(level3):
        return math.nan, len(used)
    found = [collection.documents.containing(t) for t in used]
    n3 = sum(np.isin(f, level3, assume_unique=True).sum() / len(level3) for f in found)
    num_n = sum(len(f) / collection.documents.N for f in found)
    return (n3 / num_n if num_n > 0 else math.nan), len(used)


def placebo_assignment(placebos: Sequence[str], real: Sequence[str],
                       seed: int) -> dict[str, str]:
    """placebo probe id → real probe id (module docstring); both in probe-id order; ``seed``:
    the study design's."""
    placebos, real = sorted(placebos), sorted(real)
    if placebos and not real:
        raise ValueError("memory probe: placebos but no real request to score them against")
    rng = np.random.default_rng(seed)
    order = [i for _ in range(math.ceil(len(placebos) / (len(real) or 1)))
             for i in rng.permutation(len(real)).tolist()]
    return {p: real[order[i]] for i, p in enumerate(placebos)}


def log_ratio(l_mem: float, l_der: float) -> float:
    """log(L_mem / L_der); NaN when either is undefined or both are 0; +∞ when only L_der is
    0, −∞ when only L_mem is."""
    if math.isnan(l_mem) or math.isnan(l_der) or (l_mem == 0 and l_der == 0):
        return math.nan
    return math.log(l_mem / l_der) if l_mem and l_der else math.copysign(math.inf, l_mem - l_der)


PER_REQUEST_COLUMNS = ["probe_id", "source", "qid", "scored_against", "remembers_page",
                       "level3", "claimed_studies", "matched", "recall", "matched_documents",
                       "remembered_keys", "derived_keys", "L_mem", "L_der", "log_ratio",
                       "cited_rule", "keys_rule", "remembered"]


def score(requests: pd.DataFrame, answers: Mapping[str, Answer],
          collections: Mapping[str, Collection], seed: int,
          thresholds: Thresholds = Thresholds()) -> tuple[pd.DataFrame, dict]:
    """Per probed request its scores and verdict, and the decisions (placebo rate, matches
    needed, Cranfield percentile) in the protocol's order; ``seed``: the study design's."""
    frame = requests.sort_values("probe_id").reset_index(drop=True)
    by_id = {r.probe_id: r for r in frame.itertuples(index=False)}
    assigned = placebo_assignment(frame.loc[frame["source"] == PLACEBO, "probe_id"],
                                  frame.loc[frame["source"] == REAL, "probe_id"], seed)
    rows = []
    for r in frame.itertuples(index=False):
        target = by_id[assigned[r.probe_id]] if r.source == PLACEBO else r
        collection = collections[REFERENCE if r.source == REFERENCE else REAL]
        answer = answers[r.probe_id]
        q_terms = set(collection.terms(target.text))
        docnos = collection.level3.get(target.qid, [])
        l3 = collection.documents.id_set(docnos, f"request {target.qid}")
        matched = matched_documents([s.title for s in answer.cited_studies],
                                    {d: collection.titles.get(d, "") for d in docnos}, q_terms,
                                    collection.terms, thresholds)
        l_mem, n_mem = key_lift(answer.remembered_keys, q_terms, collection, l3)
        l_der, n_der = key_lift(answer.derived_keys, q_terms, collection, l3)
        rows.append({"probe_id": r.probe_id, "source": r.source, "qid": r.qid,
                     "scored_against": target.qid, "remembers_page": answer.remembers_page,
                     "level3": len(l3), "claimed_studies": len(answer.cited_studies),
                     "matched": len(matched),
                     "recall": len(matched) / len(l3) if len(l3) else math.nan,
                     "matched_documents": " ".join(f"{d}:{s:.3f}" for d, s in sorted(matched.items())),
                     "remembered_keys": n_mem, "derived_keys": n_der, "L_mem": l_mem,
                     "L_der": l_der, "log_ratio": log_ratio(l_mem, l_der)})
    table = pd.DataFrame(rows)
    placebo = table[table["source"] == PLACEBO]
    rate = float((placebo["matched"] >= 1).mean()) if len(placebo) else math.nan
    needed = 2 if (len(placebo) and rate > thresholds.placebo_false_match) else 1
    reference = table.loc[table["source"] == REFERENCE, "log_ratio"].dropna()
    p95 = linear_percentile(reference.to_numpy(), thresholds.percentile) if len(reference) \
        else math.nan
    floor = math.log(thresholds.key_ratio)
    table["cited_rule"] = np.where(table["matched"] >= needed, "yes", "no")
    keys_rule = (table["log_ratio"] > floor) & (table["log_ratio"] > p95)
    table["keys_rule"] = np.where(table["log_ratio"].isna(), "",
                                  np.where(keys_rule, "yes", "no"))
    table["remembered"] = np.where((table["cited_rule"] == "yes") | keys_rule, "yes", "no")
    decisions = {"placebos": int(len(placebo)), "placebo_false_match_rate": rate,
                 "matches_needed": needed, "cranfield_answers_defined": int(len(reference)),
                 "cranfield_p95": p95, "log_floor": floor}
    return table[PER_REQUEST_COLUMNS], decisions


SOURCE_COLUMNS = ["source", "requests", *(f"claims_{c}" for c in CLAIMS), "with_match",
                  "mean_recall", "statistic_defined", "median_log_ratio", "keys_rule",
                  "cited_rule", "remembered"]


def per_source(table: pd.DataFrame) -> pd.DataFrame:
    """Rates per source: claimed memory (shares), requests with a matched study (for the
    placebos: the false-match rate), mean recall, the key statistic, each rule, remembered."""
    rows = [{"source": source, "requests": len(part),
             **{f"claims_{c}": float((part["remembers_page"] == c).mean()) for c in CLAIMS},
             "with_match": float((part["matched"] >= 1).mean()),
             "mean_recall": float(part["recall"].mean()),
             "statistic_defined": int(part["log_ratio"].notna().sum()),
             "median_log_ratio": float(part["log_ratio"].median()),
             **{rule: float((part[rule] == "yes").mean())
                for rule in ("keys_rule", "cited_rule", "remembered")}}
            for source in SOURCES if len(part := table[table["source"] == source])]
    return pd.DataFrame(rows, columns=SOURCE_COLUMNS)


def remembered(table: pd.DataFrame) -> pd.DataFrame:
    """The remembered requests (every source), with the rule(s) that called them."""
    chosen = table[table["remembered"] == "yes"]
    rules = [" and ".join(n for n, on in (("cited studies", c == "yes"), ("keys", k == "yes"))
                          if on) for c, k in zip(chosen["cited_rule"], chosen["keys_rule"])]
    return chosen[["source", "qid", "probe_id"]].assign(rule=rules).reset_index(drop=True)


def markdown(table: pd.DataFrame, sources: pd.DataFrame, decisions: Mapping) -> str:
    """The probe's report: the decisions, the rates per source, the remembered requests."""
    lines = ["# The memory probe (Amendment 1, A7; docs/memory-probe.md)", "",
             f"- Placebo false-match rate: {decisions['placebo_false_match_rate']:.1%} of "
             f"{decisions['placebos']} placebos reach one matched document; the cited-study rule "
             f"needs **{decisions['matches_needed']}** matched level-3 document(s).",
             f"- Cranfield reference: the 95th percentile of log(L_mem/L_der) over "
             f"{decisions['cranfield_answers_defined']} defined Cranfield answers is "
             f"{decisions['cranfield_p95']:.3f}; the key rule needs more than it and more than "
             f"log 1.5 = {decisions['log_floor']:.3f}.", ""]
    lines.append(Table(sources, "Rates per source", ["Shares of the requests of each source; "
                                                     "median_log_ratio over the defined ones."],
                       {c: 3 for c in SOURCE_COLUMNS[2:] if c != "statistic_defined"}
                       ).to_markdown())
    called = remembered(table)
    real = called[called["source"] == REAL]
    lines += [f"Remembered NFCorpus requests: {len(real)} of "
              f"{int((table['source'] == REAL).sum())}"
              + (": " + ", ".join(f"{q} ({r})" for q, r in zip(real["qid"], real["rule"]))
                 if len(real) else "") + ".", ""]
    return "\n".join(lines)
