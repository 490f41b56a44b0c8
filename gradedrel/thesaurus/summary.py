"""Counts that describe a thesaurus and its quirks (the workflow's summary.tsv).

Links are counted as stored (one per concept and target). A link is *reciprocal*
when the target links back by the inverse relation (BT<->NT, RT<->RT,
USE<->UF); SKOS states these inverses but a file need not contain both sides.
A link is *dangling* when its target is not a concept of the thesaurus.
"""
from __future__ import annotations

from collections import Counter

import pandas as pd

from gradedrel.thesaurus.model import Thesaurus, normalise_label

_INVERSE = {"broader": "narrower", "narrower": "broader", "related": "related",
            "use": "used_for", "used_for": "use"}
_TAGS = {"broader": "BT", "narrower": "NT", "related": "RT", "use": "USE", "used_for": "UF"}
_PREDICATES = {"broader": "skos:broader", "narrower": "skos:narrower",
               "related": "skos:related", "use": "skm:Use", "used_for": "skm:UF"}


def statistics(thesaurus: Thesaurus) -> pd.DataFrame:
    """One row per statistic: ``statistic, value, description``."""
    concepts = thesaurus.concepts
    values = list(concepts.values())
    preferred = [c for c in values if not c.use]
    rows = [
        ("concepts", len(values), "subjects typed skos:Concept or with a skos:prefLabel"),
        ("preferred_concepts", len(preferred), "concepts without USE links"),
        ("entry_terms", len(values) - len(preferred),
         "non-preferred terms stored as concepts (skm:Use to preferred concepts)"),
        ("entry_terms_split", sum(1 for c in values if len(c.use) > 1),
         "entry terms with USE to more than one concept"),
        ("entry_terms_with_relations",
         sum(1 for c in values if c.use and (c.broader or c.narrower or c.related)),
         "entry terms that also have BT/NT/RT links"),
        ("entry_labels_not_alt_of_target",
         sum(1 for c in values if c.use and any(
             u in concepts and c.pref_label not in concepts[u].alt_labels for u in c.use)),
         "entry terms whose label is not an altLabel of a USE target"),
        ("concepts_without_pref_label", sum(1 for c in values if not c.pref_labels),
         "concepts with no skos:prefLabel (kept, with an empty label)"),
        ("concepts_with_several_pref_labels", sum(1 for c in values if len(c.pref_labels) > 1),
         "concepts with more than one skos:prefLabel"),
        ("pref_labels_marked", sum(1 for c in values if c.marked),
         "preferred labels beginning with the '~ ' mark"),
        ("marked_labels_with_unmarked_twin", _marked_twins(values),
         "marked labels whose unmarked form is another concept's preferred label"),
        ("alt_labels", sum(len(c.alt_labels) for c in values), "skos:altLabel values (UF)"),
        ("concepts_with_alt_labels", sum(1 for c in values if c.alt_labels),
         "concepts with at least one altLabel"),
        ("labels_naming_several_concepts",
         sum(1 for uris in thesaurus.label_index().values() if len(uris) > 1),
         "normalised labels that lead to more than one preferred concept"),
        ("definitions", sum(len(c.definitions) for c in values), "skos:definition values"),
        ("top_concepts", sum(1 for c in preferred if not c.broader),
         "preferred concepts without a broader concept"),
    ]
    for relation, tag in _TAGS.items():
        links = [(c, target) for c in values for target in getattr(c, relation)]
        rows.append((f"{tag}_links", len(links), f"{tag} links ({_PREDICATES[relation]})"))
        rows.append((f"{tag}_links_not_reciprocal",
                     sum(1 for c, t in links
                         if t in concepts and c.uri not in getattr(concepts[t], _INVERSE[relation])),
                     f"{tag} links whose target does not link back"))
        rows.append((f"{tag}_links_dangling", sum(1 for _, t in links if t not in concepts),
                     f"{tag} links to URIs that are not concepts"))
    for relation, tag in (("narrower", "NT"), ("related", "RT")):
        widest = max(values, key=lambda c: (len(getattr(c, relation)), c.uri))
        rows.append((f"max_{tag}_per_concept", len(getattr(widest, relation)),
                     f"most {tag} links of one concept ({widest.pref_label})"))
    return pd.DataFrame(rows, columns=["statistic", "value", "description"])


def _marked_twins(values) -> int:
    plain = Counter(normalise_label(c.pref_label) for c in values if not c.marked)
    return sum(1 for c in values if c.marked and plain[normalise_label(c.pref_label)])
