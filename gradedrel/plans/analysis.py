"""Request analysis: from a request's text to the concepts it names.

The paper built its queries from a conceptual analysis of each request: the
concepts it names, grouped into facets, each with search keys from a thesaurus
(Järvelin & Kekäläinen 2000, sec. 3). This module finds the concepts,
automatically and by documented rules (docs/plans.md):

1. Tokenise the request as the indexer does (:func:`gradedrel.core.text.tokenise`).
2. Remove *boilerplate phrases* ("are there any", "state of the art") and mark
   *boilerplate words* ("papers", "investigated"): they phrase the request, they
   are not part of its subject.
3. Match thesaurus labels (preferred and alternative, multi-word included),
   **longest match first**, token by token. Two tokens match when the index's own
   term pipeline (Terrier's stemmer, :func:`gradedrel.core.terrier.term_pipeline`)
   gives them the same term **and** their S-stems agree (Harman 1991: only the
   plural endings -ies/-es/-s are removed). The second test keeps Porter's
   conflations of different words apart (solutions/solutes,
   associated/associations, developed/development) while still matching
   plurals. Stopwords inside a label must match literally ("angle of attack").
   An alternative label leads to its preferred concept. A one-word match on a
   boilerplate word is not a concept.
4. Every remaining content word (not a stopword, not boilerplate) becomes a
   concept of its own, so no content word of a request is lost; a prefix word
   ("non", "semi", …) is joined to the word after it ("non linear").
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from gradedrel.core.text import s_stem, tokenise
from gradedrel.plans.key_stats import Pipeline
from gradedrel.thesaurus import Thesaurus

_QUALIFIER = re.compile(r"\s*\(([^()]*)\)\s*$")


def clean_label(label: str) -> tuple[str, str | None]:
    """A thesaurus label as text to match: ``(text, qualifier)``.

    NASA marks 549 preferred labels with a leading ``~ `` (``~ aircraft``); the
    mark is not part of the term. A trailing parenthetical qualifier
    (``relaxation (mechanics)``) tells homographs apart; it is returned
    separately, never matched.
    """
    text = label.strip().removeprefix("~").strip()
    found = _QUALIFIER.search(text)
    if found is None:
        return text, None
    return text[:found.start()].strip(), found.group(1).strip().lower()


def collection_settings(global_analysis: dict, collection: dict) -> dict:
    """The analysis settings of one collection: its own ``analysis`` keys
    (``collections.<c>.analysis``, names the config schema checked) replace the global ones
    of the same name."""
    return {**global_analysis, **(collection.get("analysis") or {})}


@dataclass(frozen=True)
class Rules:
    """Analysis rules (config section ``analysis``)."""

    boilerplate_phrases: tuple[str, ...] = ()
    boilerplate_words: frozenset[str] = frozenset()
    prefix_words: frozenset[str] = frozenset()
    strict_stems: bool = True
    allowed_qualifiers: frozenset[str] | None = None  # None: every qualified label may match

    @classmethod
    def from_config(cls, section: dict) -> "Rules":
        """Analysis rules from the config's plan-analysis section (absent keys: the defaults)."""
        qualifiers = section.get("allowed_qualifiers")
        return cls(
            boilerplate_phrases=tuple(section.get("boilerplate_phrases", ())),
            boilerplate_words=frozenset(w.lower() for w in section.get("boilerplate_words", ())),
            prefix_words=frozenset(w.lower() for w in section.get("prefix_words", ())),
            strict_stems=bool(section.get("strict_stems", True)),
            allowed_qualifiers=None if qualifiers is None
            else frozenset(q.lower() for q in qualifiers))


class TokenNormaliser:
    """Match form of a token: (index term or ``=token`` for a stopword, S-stem)."""

    def __init__(self, pipeline: Pipeline, strict: bool = True):
        self.pipeline = pipeline
        self.strict = strict

    @functools.cache  # one pipeline call per token (a normaliser lives as long as its run)
    def __call__(self, token: str) -> tuple[str, str]:
        term = self.pipeline(token)
        return ("=" + token, token) if term is None else \
            (term, s_stem(token) if self.strict else "")

    def is_stopword(self, token: str) -> bool:
        """Whether ``token`` is a stopword of the index's pipeline."""
        return self(token)[0].startswith("=")


@dataclass(frozen=True)
class LabelEntry:
    """A thesaurus label in the lexicon: its concept, wording, kind and tokens."""

    uri: str
    label: str          # the label as written in the thesaurus
    via: str            # prefLabel | altLabel
    specific: bool      # no qualifier
    tokens: tuple[str, ...] = ()  # the label's tokens (to prefer an exact wording)


@dataclass
class Lexicon:
    """Thesaurus labels indexed by their match form (a tuple of token forms)."""

    entries: dict[tuple, list[LabelEntry]] = field(default_factory=dict)
    longest: int = 0

    def lookup(self, forms: tuple, tokens: tuple[str, ...] = ()) -> LabelEntry | None:
        """The preferred entry for a match form: the request's exact wording first
        (``lift`` before ``~ lifts``), then preferred labels before alternative
        ones, unqualified before qualified, then by URI (deterministic)."""
        candidates = self.entries.get(forms)
        if not candidates:
            return None
        return min(candidates, key=lambda e: (e.tokens != tokens, e.via != "prefLabel",
                                              not e.specific, e.uri))


def build_lexicon(thesaurus: Thesaurus, normalise: TokenNormaliser,
                  allowed_qualifiers: frozenset[str] | None = None) -> Lexicon:
    """A lexicon of every concept's labels, normalised as the index normalises."""
    lexicon = Lexicon()
    for concept in thesaurus.concepts.values():
        labels = [(concept.pref_label, "prefLabel")] + [(a, "altLabel") for a in concept.alt_labels]
        for label, via in labels:
            text, qualifier = clean_label(label)
            if qualifier is not None and allowed_qualifiers is not None \
                    and qualifier not in allowed_qualifiers:
                continue
            tokens = tokenise(text)
            forms = tuple(normalise(t) for t in tokens)
            if all(f[0].startswith("=") for f in forms):
                continue  # a label of no token, or only of stopwords, cannot be searched for
            lexicon.entries.setdefault(forms, []).append(
                LabelEntry(concept.uri, label, via, qualifier is None, tuple(tokens)))
            lexicon.longest = max(lexicon.longest, len(forms))
    return lexicon


@dataclass(frozen=True)
class ConceptMatch:
    """One concept found in a request."""

    label: str               # preferred label (cleaned) or the request's own words
    uri: str | None          # None: a word the thesaurus does not know
    via: str                 # prefLabel | altLabel | request
    matched: str             # the request's words that named it
    start: int               # token position in the request (for order)
    end: int = -1            # one past its last token (-1: unknown)


def _boilerplate_mask(tokens: Sequence[str], phrases: Iterable[str]) -> list[bool]:
    mask = [False] * len(tokens)
    for phrase in sorted((tokenise(p) for p in phrases), key=len, reverse=True):
        n = len(phrase)  # an empty phrase marks no token (its slices are empty)
        for i in range(len(tokens) - n + 1):
            if list(tokens[i:i + n]) == phrase and not any(mask[i:i + n]):
                mask[i:i + n] = [True] * n
    return mask


def analyse_request(text: str, thesaurus: Thesaurus, lexicon: Lexicon,
                    normalise: TokenNormaliser, rules: Rules) -> list[ConceptMatch]:
    """The concepts a request names, in request order (rules in the module docstring)."""
    tokens = tokenise(text)
    removed = _boilerplate_mask(tokens, rules.boilerplate_phrases)
    forms = [normalise(t) for t in tokens]
    taken = list(removed)
    found: list[ConceptMatch] = []
    # longest match first over the whole request, then left to right
    for length in range(min(lexicon.longest, len(tokens)), 0, -1):
        for i in range(len(tokens) - length + 1):
            span = range(i, i + length)
            if any(taken[j] for j in span):
                continue
            if forms[i][0].startswith("=") or forms[i + length - 1][0].startswith("="):
                continue  # a label does not begin or end with a stopword here
            entry = lexicon.lookup(tuple(forms[i:i + length]), tuple(tokens[i:i + length]))
            if entry is None:
                continue
            if length == 1 and tokens[i] in rules.boilerplate_words:
                continue
            concept = thesaurus.concepts[entry.uri]
            found.append(ConceptMatch(clean_label(concept.pref_label)[0], entry.uri, entry.via,
                                      " ".join(tokens[i:i + length]), i, i + length))
            for j in span:
                taken[j] = True
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if taken[i] or normalise.is_stopword(token) or token in rules.boilerplate_words:
            i += 1
            continue
        words = [token]
        if token in rules.prefix_words and i + 1 < len(tokens) and not taken[i + 1] \
                and not normalise.is_stopword(tokens[i + 1]):
            words.append(tokens[i + 1])
        found.append(ConceptMatch(" ".join(words), None, "request", " ".join(words), i,
                                  i + len(words)))
        i += len(words)
    found.sort(key=lambda m: m.start)
    return found
