"""Expansion: search keys from a concept's thesaurus relations, with provenance.

The paper expanded its queries with the keys of related concepts from the
thesaurus — synonyms, narrower and associative concepts (Järvelin & Kekäläinen
2000, sec. 3). A broad NASA concept links to hundreds of others (``~ aircraft``
has 486 related concepts), so taking everything offers ~110 keys per Cranfield
request; expansion therefore selects (config section ``expansion``):

- relations and depth: ``UF`` (the concept's other labels), ``NT`` and ``BT``
  followed to a depth, ``RT`` (depth 1);
- only keys in the index (every term of the key occurs in the collection);
- not too general: a key whose df exceeds ``max_key_df_fraction`` × N is left out;
- de-duplicated: a key whose indexed terms equal an earlier key's is left out;
- capped: at most ``max_keys_per_relation[rel]`` per relation and
  ``max_keys_per_concept`` in all, in the order UF, NT (depth 1, 2, …), BT, RT;
  within one relation and depth the keys that occur in most documents first
  (ties by key text), because a key that occurs nowhere cannot help.

Each key records its relation, depth and the concept it came ``via``.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields

from gradedrel.plans.analysis import clean_label
from gradedrel.plans.key_stats import KeyStatistics
from gradedrel.plans.model import PlanKey
from gradedrel.thesaurus import Thesaurus

ORDER = ("UF", "NT", "BT", "RT")


@dataclass(frozen=True)
class Rules:
    """Which thesaurus relations expand a concept, to what depth, and the limits on keys."""

    relations: dict = field(default_factory=lambda: {"UF": 1, "NT": 1, "RT": 1})
    max_keys_per_concept: int | None = 10
    max_keys_per_relation: dict = field(default_factory=dict)
    max_key_df_fraction: float | None = None

    @classmethod
    def from_config(cls, section: dict) -> "Rules":
        """Expansion rules from the config's expansion section (absent keys: the defaults)."""
        return cls(**{f.name: section[f.name] for f in fields(cls) if f.name in section})


def candidates(uri: str, thesaurus: Thesaurus, rules: Rules) -> list[PlanKey]:
    """Every key the chosen relations offer for a concept, in ORDER, with provenance."""
    concept = thesaurus.concepts[uri]
    name = clean_label(concept.pref_label)[0]
    labels = (concept.pref_label, *concept.alt_labels) if rules.relations.get("UF") else ()
    out = [PlanKey(clean_label(label)[0], "UF", 0, name) for label in labels]
    for relation, attribute in (("NT", "narrower"), ("BT", "broader"), ("RT", "related")):
        depth_limit = int(rules.relations.get(relation) or 0)
        frontier, seen = [uri], {uri}
        for depth in range(1, depth_limit + 1):
            step = []
            for source in frontier:
                via = clean_label(thesaurus.concepts[source].pref_label)[0]
                for target in getattr(thesaurus.concepts[source], attribute):
                    if target in seen or target not in thesaurus.concepts:
                        continue
                    seen.add(target)
                    step.append(target)
                    out.append(PlanKey(clean_label(thesaurus.concepts[target].pref_label)[0],
                                       relation, depth, via))
            frontier = step
    return out


def expand(uri: str | None, unexpanded: list[str], thesaurus: Thesaurus, rules: Rules,
           stats: KeyStatistics) -> list[PlanKey]:
    """Expansion keys for one concept (none for a word the thesaurus does not know)."""
    if uri is None or uri not in thesaurus.concepts:
        return []
    seen = {stats.terms(k) for k in unexpanded}
    ceiling = float("inf") if rules.max_key_df_fraction is None \
        else rules.max_key_df_fraction * stats.documents
    offered = candidates(uri, thesaurus, rules)
    offered.sort(key=lambda k: (ORDER.index(k.relation), k.depth, -stats.df(k.key), k.key))
    chosen: list[PlanKey] = []
    per_relation: dict[str, int] = {}
    for key in offered:
        terms = stats.terms(key.key)
        if not terms or terms in seen or not 0 < stats.df(key.key) <= ceiling:
            continue  # no document holds it, or too many
        cap = rules.max_keys_per_relation.get(key.relation)
        if cap is not None and per_relation.get(key.relation, 0) >= cap:
            continue
        if rules.max_keys_per_concept is not None and len(chosen) >= rules.max_keys_per_concept:
            break
        seen.add(terms)
        per_relation[key.relation] = per_relation.get(key.relation, 0) + 1
        chosen.append(key)
    return chosen
