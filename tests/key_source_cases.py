"""Hand-made plans and thesaurus whose key source classes were worked out by hand (the
classifier's, the plan-set transform's and the leak diagnostic's tests)."""
from gradedrel.plans.transform import Derivation
from gradedrel.thesaurus import Concept, Thesaurus
from thesaurus_cases import thesaurus_of


def concept(uri, pref, alt=(), bt=(), nt=(), rt=(), use=()):
    return Concept(uri, pref, tuple(alt), tuple(bt), tuple(nt), tuple(rt), use=tuple(use))


def wing_thesaurus() -> Thesaurus:
    return thesaurus_of([
        concept("#wing", "wings", alt=["wing structures"], nt=["#swept"], rt=["#load"]),
        concept("#swept", "swept wings", bt=["#wing"], nt=["#delta"]),
        concept("#delta", "delta wings", bt=["#swept"], nt=["#ogee"]),
        concept("#ogee", "ogee wings", bt=["#delta"]),              # three steps away
        concept("#load", "wing loading", rt=["#wing"], nt=["#gust"]),
        concept("#gust", "gust loads", bt=["#load"]),
        concept("#flutter", "~ flutter", alt=["aeroelastic flutter"], rt=["#divergence", "#swept"]),
        concept("#divergence", "divergence (aeroelasticity)"),
        concept("#rocket", "rocket engines"),                        # unrelated
        concept("#e2", "vanes", use=["#wing"]),                      # an entry term (NASA)
        concept("#papers", "papers"),
    ])


PLANS = """
plans:
- qid: '1'
  request: aeroelastic flutter of wings
  source: curated
  facets:
  - name: wings
    concepts:
    - label: wings
      uri: '#wing'
      keys:
      - {key: wings, relation: request}
      - {key: wing, relation: variant}
      expansion:
      - {key: wing structures, relation: UF, via: wings}
      - {key: swept wings, relation: NT, depth: 1, via: wings}
      - {key: delta wings, relation: NT, depth: 2, via: swept wings}
      - {key: gust loads, relation: RT, depth: 1, via: wings}
      - {key: rocket engines, relation: NT, depth: 1, via: wings}
      - {key: ogee wings, relation: curated}
      - {key: spanwise stiffness, relation: curated}
      - {key: vanes, relation: curated}
      - {key: flutter wings, relation: curated}
      - of
  - name: flutter
    importance: minor
    concepts:
    - label: flutter
      uri: '#flutter'
      keys:
      - {key: aeroelastic flutter, relation: request}
      expansion:
      - {key: divergence, relation: RT, via: flutter}
      - {key: swept wings, relation: RT, depth: 1, via: 'flutter (#flutter)'}
- qid: '2'
  request: rocket engines
  source: auto
  facets:
  - name: rocket engines
    concepts:
    - label: rocket engines
      uri: '#rocket'
      keys:
      - {key: rocket engines, relation: request}
"""

REQUESTS = {"1": "aeroelastic flutter of wings", "2": "rocket engines"}


#: The derived plan sets of Amendment 1 (A2) as config/config.yaml defines them (``keep``,
#: ``without_rating``), by the suffix added to the parent's name.
DERIVATIONS = {
    "thesaurus": Derivation(frozenset({"request", "thesaurus"}), name="thesaurus"),
    "no-own": Derivation(frozenset({"request", "thesaurus", "other_concept"}), name="no-own"),
    "request": Derivation(frozenset({"request"}), name="request"),
    "inferable": Derivation(without_rating="page", name="inferable"),
}
