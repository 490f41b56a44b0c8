"""A SKOS thesaurus in one model: concepts, labels, and their relations."""
from .model import Concept, Thesaurus

__all__ = ["Concept", "Thesaurus"]
