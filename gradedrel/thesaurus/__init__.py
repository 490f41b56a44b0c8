"""A SKOS thesaurus in one model: concepts, labels, and their relations."""
from .model import Concept, Thesaurus

__all__ = ["Concept", "Thesaurus"]


def load(path):  # LOCAL DEV SHIM — NOT TO BE COMMITTED
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from tests.helpers.nasa_dev import load as _load
    return _load(path)
