"""Automatic plans: request analysis → facets → expansion (one plan per topic).

Puts :mod:`gradedrel.plans.analysis`, :mod:`gradedrel.plans.facets` and
:mod:`gradedrel.plans.expansion` together. A concept's unexpanded keys are the
request's own words that named it (relation ``request``); expansion adds
thesaurus keys with their provenance. The same concept named twice (by URI, or
for unknown words by indexed terms) is one concept with both wordings as keys.
"""
from __future__ import annotations

from dataclasses import dataclass

from gradedrel.plans import analysis, expansion, facets
from gradedrel.plans.key_stats import KeyStatistics
from gradedrel.plans.model import Facet, Plan, PlanConcept, PlanKey
from gradedrel.thesaurus import Thesaurus


@dataclass
class Planner:
    """Builds automatic plans with a thesaurus, its lexicon and the index's statistics."""

    thesaurus: Thesaurus
    lexicon: analysis.Lexicon
    normalise: analysis.TokenNormaliser
    analysis_rules: analysis.Rules
    expansion_rules: expansion.Rules
    stats: KeyStatistics
    major_share: float = 0.5
    facet_grouping: tuple[str, ...] = ("thesaurus",)

    @classmethod
    def build(cls, thesaurus: Thesaurus, pipeline, stats: KeyStatistics,
              analysis_config: dict, expansion_config: dict) -> "Planner":
        """A planner from a thesaurus, the index's pipeline and statistics, and the config."""
        rules = analysis.Rules.from_config(analysis_config)
        normalise = analysis.TokenNormaliser(pipeline, rules.strict_stems)
        lexicon = analysis.build_lexicon(thesaurus, normalise, rules.allowed_qualifiers)
        return cls(thesaurus, lexicon, normalise, rules,
                   expansion.Rules.from_config(expansion_config), stats,
                   float(analysis_config.get("major_share", 0.5)),
                   tuple(analysis_config.get("facet_grouping", ("thesaurus",))))

    def concepts(self, text: str) -> tuple[list[PlanConcept], list[list[tuple[int, int]]]]:
        """The request's concepts, and each concept's token spans in the request."""
        found: dict[object, PlanConcept] = {}
        spans: dict[object, list[tuple[int, int]]] = {}
        for match in analysis.analyse_request(text, self.thesaurus, self.lexicon,
                                              self.normalise, self.analysis_rules):
            identity = match.uri if match.uri is not None else self.stats.terms(match.matched) \
                or match.matched
            concept = found.get(identity)
            spans.setdefault(identity, []).append((match.start, match.end))
            if concept is None:
                concept = found[identity] = PlanConcept(match.label, match.uri, match.matched)
            elif self.stats.terms(match.matched) in {self.stats.terms(k.key) for k in concept.keys}:
                continue
            else:
                concept.matched = f"{concept.matched}; {match.matched}"
            concept.keys.append(PlanKey(match.matched, "request"))
        return list(found.values()), [spans[i] for i in found]

    def plan(self, qid: str, text: str) -> Plan:
        """The automatic plan of request ``qid``: its concepts, expanded, grouped into facets."""
        concepts, spans = self.concepts(text)
        for concept in concepts:
            concept.expansion = expansion.expand(concept.uri, [k.key for k in concept.keys],
                                                 self.thesaurus, self.expansion_rules, self.stats)
        groups = facets.group([c.uri for c in concepts], self.thesaurus, spans,
                              self.facet_grouping)
        specificity = [max(self.stats.idf(k.key) for i in g for k in concepts[i].keys)
                       for g in groups]
        marks = facets.importance(specificity, self.major_share)
        plan_facets = [Facet(" / ".join(concepts[i].label for i in g), mark,
                             [concepts[i] for i in g], spec)
                       for g, mark, spec in zip(groups, marks, specificity)]
        return Plan(qid, text, plan_facets, "auto")
