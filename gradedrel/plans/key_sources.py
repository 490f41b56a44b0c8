"""Where every search key came from: its source class, computed by program.

Pre-registration, Amendment 1, A1 (docs/preregistration.md). For every key of every plan
(the ``keys`` and the ``expansion`` lists), one class, the first that applies:

1. ``request`` — every term of the key occurs among the terms of the request text (the
   collection's ``topic_field``, as the plans were built from it); order and adjacency are
   not required. Terms: tokens (:func:`gradedrel.core.text.tokenise`) through the index's
   term pipeline (stopwords out, Porter stemming), as the plans use them.
2. ``thesaurus`` — the key's term sequence equals that of a label (preferred or
   alternative) of a concept reachable from a *seed concept* by at most two steps over
   BT, NT and RT (depth 0: the seed's own labels). Seeds: the concepts whose labels the
   automatic analysis matches in the request (:func:`gradedrel.plans.analysis.analyse_request`:
   its lexicon and label matching, longest match first) *without boilerplate removal*.
3. ``other_concept`` — the key equals a label of some other concept of the thesaurus.
4. ``own`` — the key is a label of no concept of the thesaurus.

The shortest path from a seed is the *verified relation* (``UF depth 0``, ``NT depth 1``,
``RT·NT depth 2``). Every declared thesaurus relation (``UF``, ``NT``, ``BT``, ``RT``) is
checked (``declared_holds``): it holds if the key is a label of a concept reached from a
start concept by exactly the declared relation at the declared depth; it is reported, never
trusted (the class is the computed one).

Choices where the amendment is silent (reported to the lead with the code):

- Labels are compared as text to search for: :func:`~gradedrel.plans.analysis.clean_label`
  (NASA's ``~`` mark and a trailing ``(qualifier)`` left out, as expansion writes its keys).
  An *entry term* stored as a concept with USE links (NASA) stands for its preferred
  concept(s): its label is theirs, and a seed that is an entry term is its preferred concepts.
- Equal paths are ordered by relation (NT, BT, RT, as expansion's order), then by the seed's
  position in the request, then by the reached concept's URI: the first is reported. A
  verified relation is reported for every key with such a path (a ``request`` key too);
  ``depth`` is empty where there is none.
- Start concepts of a declared relation: the concepts named by ``via`` (a URI; a label,
  compared by term sequence; or a URI in a trailing qualifier, ``acoustics (#60532)``)
  *and* the plan concept's ``uri``: automatic expansion writes ``via`` as the concept the
  last step started from and counts ``depth`` from ``uri``; curators wrote either.
- ``UF`` holds if the key is a label of a start concept (UF is no step; a depth written with
  it counts the steps to ``via``, whose relation the plan does not declare, and is not
  checked). ``NT``/``BT``/``RT`` written without a depth (read as 0) are checked at depth 1,
  the first step (``declared_depth`` keeps what was written). ``request``, ``variant`` and
  ``curated`` are no thesaurus relation: ``declared_holds`` is empty.
- A key with no indexed term (stopwords only) has every one of its (no) terms in the
  request: class ``request`` by rule 1 as written; its ``terms`` are empty (the compiled
  queries drop such a key).
- Curator: the plan's ``curator`` field, else the curation batches' curator of the request;
  ``auto`` for an automatic plan; a curated plan with neither is an error.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from gradedrel.core import lazy

pd = lazy.module("pandas")

from gradedrel.core.errors import InputError
from gradedrel.core.text import tokenise
from gradedrel.plans import analysis
from gradedrel.plans.key_stats import Pipeline, Terms  # noqa: F401 (scripts import Terms from here)
from gradedrel.plans.model import Plan, PlanKey
from gradedrel.thesaurus import Thesaurus

#: The source classes, in the order they are tried (A1).
SOURCE_CLASSES = ("request", "thesaurus", "other_concept", "own")
#: The step relations of a path, in the order equal paths are ranked.
STEPS = (("NT", "narrower"), ("BT", "broader"), ("RT", "related"))
#: Declared relations checked against the thesaurus.
THESAURUS_RELATIONS = ("UF", "NT", "BT", "RT")
_RANK = {relation: i for i, (relation, _) in enumerate(STEPS)}
MAX_DEPTH = 2
SEP = "\u00b7"  # the middle dot of "RT·NT depth 2"
AUTO_CURATOR = "auto"

#: ``key_sources.tsv``: the contract's columns first, then what a reader needs besides.
COLUMNS = ["qid", "facet", "concept", "key", "list", "declared_relation", "source_class",
           "verified_relation", "declared_holds", "curator", "depth", "terms",
           "declared_depth", "declared_via", "concept_uri", "seed", "label_of",
           "facet_no", "concept_no", "key_no", "seed_senses"]
LISTS = ("keys", "expansion")


@dataclass(frozen=True)
class Path:
    """The shortest path found from a seed to a concept."""

    depth: int
    chain: tuple[str, ...]    # the relations stepped, e.g. ("RT", "NT")
    seed_rank: int            # the seed's position among the request's seeds
    seed: str
    concept: str

    def order(self) -> tuple:
        """Sort key: depth, the relations stepped, the seed's rank, the concept."""
        return (self.depth, tuple(_RANK[r] for r in self.chain), self.seed_rank, self.concept)

    @property
    def relation(self) -> str:
        """The path in words, e.g. 'RT>NT depth 2' ('UF depth 0' for the seed itself)."""
        name = SEP.join(self.chain) if self.chain else "UF"
        return f"{name} depth {self.depth}"


class KeySources:
    """A thesaurus prepared for classifying keys: every label as a term sequence, the
    concepts each labels, and the analysis's lexicon for finding seed concepts."""

    def __init__(self, thesaurus: Thesaurus, pipeline: Pipeline,
                 analysis_rules: analysis.Rules = analysis.Rules()):
        self.thesaurus = thesaurus
        self.terms = Terms(pipeline)  # its pipeline cached: one JVM call per token
        # seeds: the analysis's label matching, without boilerplate removal (A1)
        self.seed_rules = analysis.Rules(strict_stems=analysis_rules.strict_stems,
                                         allowed_qualifiers=analysis_rules.allowed_qualifiers)
        self.normalise = analysis.TokenNormaliser(self.terms.pipeline,
                                                  self.seed_rules.strict_stems)
        self.lexicon = analysis.build_lexicon(thesaurus, self.normalise,
                                              self.seed_rules.allowed_qualifiers)
        self.labelled: dict[tuple[str, ...], list[str]] = {}
        self.labels_of: dict[str, set[tuple[str, ...]]] = {}
        for concept in thesaurus.concepts.values():
            for label in concept.labels():
                terms = self.terms(analysis.clean_label(label)[0])
                if not terms:
                    continue
                for uri in self.preferred(concept.uri):
                    bucket = self.labelled.setdefault(terms, [])
                    if uri not in bucket:
                        bucket.append(uri)
                    self.labels_of.setdefault(uri, set()).add(terms)

    def preferred(self, uri: str) -> tuple[str, ...]:
        """The preferred concepts ``uri`` stands for (an entry term: its USE targets)."""
        found = tuple(u for u in self.thesaurus.preferred(uri) if u in self.thesaurus)
        return found or ((uri,) if uri in self.thesaurus else ())

    def seeds(self, text: str) -> dict[str, int]:
        """The seed concepts of a request text, in request order (A1), each with its
        ambiguity: how many concepts the request words that first seeded it name. Each label
        match of the request (the analysis's label matching, without boilerplate removal)
        seeds every concept with a label of the same match form — the analysis's own choice
        first, then the others by URI (Amendment 2, B2: a word that labels several concepts,
        such as a WordNet lemma of several synsets, seeds each of them)."""
        out: dict[str, int] = {}
        for match in analysis.analyse_request(text, self.thesaurus, self.lexicon,
                                              self.normalise, self.seed_rules):
            if not match.uri:
                continue
            forms = tuple(self.normalise(t) for t in tokenise(match.matched))
            chosen = list(self.preferred(match.uri))
            others = sorted({uri for entry in self.lexicon.entries.get(forms, ())
                             for uri in self.preferred(entry.uri)} - set(chosen))
            for uri in chosen + others:
                out.setdefault(uri, len(chosen) + len(others))
        return out

    def neighbours(self, uri: str, attribute: str) -> list[str]:
        """The preferred concepts ``uri`` reaches by ``attribute`` (broader, narrower, related)."""
        targets = getattr(self.thesaurus.concepts[uri], attribute)
        return list(dict.fromkeys(p for t in targets for p in self.preferred(t)))

    def reach(self, seeds: Iterable[str], max_depth: int = MAX_DEPTH) -> dict[str, Path]:
        """Every concept within ``max_depth`` steps (BT, NT, RT) of a seed, with its
        shortest path (ties as in the module docstring). Extending the best path of a
        concept gives the best extensions through it, so one path per concept suffices."""
        best: dict[str, Path] = {}
        for rank, seed in enumerate(seeds):  # a seed named twice: its first rank
            best.setdefault(seed, Path(0, (), rank, seed, seed))
        frontier = list(best)
        for depth in range(1, max_depth + 1):
            step: dict[str, Path] = {}
            for uri in frontier:
                origin = best[uri]
                for relation, attribute in STEPS:
                    for target in self.neighbours(uri, attribute):
                        path = Path(depth, origin.chain + (relation,), origin.seed_rank,
                                    origin.seed, target)
                        if target in best and best[target].depth < depth:
                            continue
                        if target not in step or path.order() < step[target].order():
                            step[target] = path
            best.update(step)
            frontier = sorted(step)
        return best

    def walk(self, start: str, attribute: str, depth: int) -> set[str]:
        """The concepts ``depth`` steps of one relation away from ``start`` (exactly)."""
        current = {start}
        for _ in range(depth):
            current = {t for uri in current for t in self.neighbours(uri, attribute)}
        return current

    def named_by(self, via: str | None) -> list[str]:
        """The concepts a ``via`` names: a URI, a URI in a trailing qualifier, or a label."""
        if not via:
            return []
        if via in self.thesaurus:
            return list(self.preferred(via))
        text, qualifier = analysis.clean_label(via)
        if qualifier is not None and qualifier in self.thesaurus:
            return list(self.preferred(qualifier))
        return list(self.labelled.get(self.terms(text), []))

    def declared_holds(self, key: PlanKey, terms: tuple[str, ...], concept_uri: str | None) -> str:
        """``yes``/``no`` for a declared thesaurus relation, empty for any other (module doc)."""
        if key.relation not in THESAURUS_RELATIONS:
            return ""
        starts = {*self.named_by(key.via), *(self.preferred(concept_uri) if concept_uri else ())}
        reached = starts if key.relation == "UF" else \
            {t for s in starts for t in self.walk(s, dict(STEPS)[key.relation], key.depth or 1)}
        return "yes" if any(terms in self.labels_of.get(uri, ()) for uri in reached) else "no"


def curator_of(plan: Plan, curators: Mapping[str, str]) -> str:
    """The plan's curator: its own field, else the batches', ``auto`` for automatic plans."""
    found = plan.curator or curators.get(plan.qid)
    if found or plan.source == "auto":
        return found or AUTO_CURATOR
    raise ValueError(f"plan of request {plan.qid}: no curator (no 'curator' field and not in "
                     "the curation batches)")


def classify(plans: Iterable[Plan], requests: Mapping[str, str], sources: KeySources,
             curators: Mapping[str, str] | None = None) -> pd.DataFrame:
    """``key_sources`` rows (:data:`COLUMNS`) for every key of the plans of ``requests``
    (qid → request text); a plan whose request is not given is left out by the caller,
    a request without a plan is an error."""
    curators = curators or {}
    by_qid = {p.qid: p for p in plans}
    missing = [q for q in requests if q not in by_qid]
    if missing:
        raise ValueError(f"key sources: no plan for requests {missing[:10]}"
                         f"{' …' if len(missing) > 10 else ''} ({len(missing)} in all)")
    rows = []
    for qid, text in requests.items():
        plan = by_qid[qid]
        curator = curator_of(plan, curators)
        request_terms = set(sources.terms(text))
        senses = sources.seeds(text)
        reached = sources.reach(senses)
        for f, facet in enumerate(plan.facets):
            for c, concept in enumerate(facet.concepts):
                for kind in LISTS:
                    for k, key in enumerate(getattr(concept, kind)):
                        terms = sources.terms(key.key)
                        labelled = sources.labelled.get(terms, []) if terms else []
                        paths = [reached[u] for u in labelled if u in reached]
                        path = min(paths, key=Path.order) if paths else None
                        source_class = ("request" if all(t in request_terms for t in terms)
                                        else "thesaurus" if path is not None
                                        else "other_concept" if labelled else "own")  # A1
                        rows.append({
                            "qid": qid, "facet": facet.name, "concept": concept.label,
                            "key": key.key, "list": kind,
                            "declared_relation": key.relation, "source_class": source_class,
                            "verified_relation": path.relation if path else "",
                            "declared_holds": sources.declared_holds(key, terms, concept.uri),
                            "curator": curator,
                            "depth": str(path.depth) if path else "",
                            "terms": " ".join(terms), "declared_depth": str(key.depth),
                            "declared_via": key.via or "", "concept_uri": concept.uri or "",
                            "seed": path.seed if path else "",
                            "label_of": (path.concept if path else
                                         (labelled[0] if labelled else "")),
                            "facet_no": f, "concept_no": c, "key_no": k,
                            "seed_senses": str(senses[path.seed]) if path else ""})
    return pd.DataFrame(rows, columns=COLUMNS)


# ---------------------------------------------------------------- shares

SHARE_SCOPES = (("all keys", None), ("expansion keys", "expansion"))


def _count_row(group: pd.DataFrame) -> dict:
    counts = group["source_class"].value_counts()
    row = {"keys": len(group), **{name: int(counts.get(name, 0)) for name in SOURCE_CLASSES}}
    row.update({f"share_{name}": row[name] / len(group) if len(group) else float("nan")
                for name in SOURCE_CLASSES})
    row["declared_checked"] = int(group["declared_holds"].isin(["yes", "no"]).sum())
    row["declared_not_holding"] = int((group["declared_holds"] == "no").sum())
    return row


SHARE_COLUMNS = ["scope", "keys", *SOURCE_CLASSES, *(f"share_{c}" for c in SOURCE_CLASSES),
                 "declared_checked", "declared_not_holding"]


def shares(key_sources: pd.DataFrame, by: str) -> pd.DataFrame:
    """Counts and shares of each class per ``by`` (``qid`` or ``curator``), for all keys
    and for the expansion keys; ``curator`` tables end with a row ``all``. Per request,
    the curator is a column beside the qid."""
    groups = list(key_sources.groupby(by, sort=by == "curator"))
    if by == "curator":
        groups.append(("all", key_sources))
    rows = []
    for name, group in groups:
        first = {"qid": name, "curator": group["curator"].iloc[0]} if by == "qid" else \
            {"curator": name, "requests": int(group["qid"].nunique())}
        for scope, kind in SHARE_SCOPES:
            part = group if kind is None else group[group["list"] == kind]
            rows.append({**first, "scope": scope, **_count_row(part)})
    lead = ["qid", "curator"] if by == "qid" else ["curator", "requests"]
    return pd.DataFrame(rows, columns=lead + SHARE_COLUMNS)


# ---------------------------------------------------------------- reading

def read_curators(path: str, column: str) -> dict[str, str]:
    """qid → curator from a curation batches file (``config/expert/curation_batches.tsv``:
    ``first_curator`` or ``second_curator``; ``config/nfcorpus/curation_batches.tsv``:
    ``curator``); an empty cell is no curator."""
    from gradedrel.core.io import read_tsv

    table = read_tsv(path)
    if not {"qid", column} <= set(table.columns):
        raise InputError(path, 1, f"a header with columns qid and {column}", list(table.columns))
    values = table[column].fillna("").astype(str)
    return {q: v for q, v in zip(table["qid"], values) if v}


def read(path: str) -> pd.DataFrame:
    """A ``key_sources.tsv`` with its columns checked (text kept as written)."""
    frame = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
    missing = [c for c in COLUMNS if c not in frame.columns]
    if missing:
        raise InputError(path, 1, f"a header with columns {COLUMNS}", f"missing {missing}")
    frame = frame.astype(dict.fromkeys(("facet_no", "concept_no", "key_no"), int))
    bad = ~frame["source_class"].isin(SOURCE_CLASSES)
    if bad.any():
        line = int(bad.to_numpy().nonzero()[0][0]) + 2
        raise InputError(path, line, f"source_class one of {list(SOURCE_CLASSES)}",
                         frame["source_class"][bad].iloc[0])
    return frame
