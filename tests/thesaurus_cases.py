"""Building a thesaurus in a test (a test helper: the package builds its own by URI)."""
from gradedrel.thesaurus import Thesaurus


def thesaurus_of(concepts) -> Thesaurus:
    """A thesaurus of ``concepts``, keyed by their URIs."""
    return Thesaurus({c.uri: c for c in concepts})
