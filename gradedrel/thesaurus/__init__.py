"""A SKOS thesaurus in one model: concepts, labels, and their relations.

``load(path)`` is the one entry point: any SKOS file (RDF/XML streamed,
Turtle/N-Triples/JSON-LD via rdflib; ``.bz2``/``.gz``/``.xz`` or plain), or a
cache file written by :mod:`.cache` (``*.thesaurus.json.gz``). ``sources.load(name,
config)`` loads a thesaurus named under ``thesauri:`` in the config, whatever its
source (SKOS, MeSH, WordNet; :mod:`.sources`). A parsed source is
cached (keyed by its sha256 and the reader version) and reloaded from the cache
while fresh.
"""
from __future__ import annotations

from pathlib import Path

from gradedrel.thesaurus import cache as _cache
from gradedrel.thesaurus.model import Concept, Thesaurus, normalise_label
from gradedrel.thesaurus.skos import READER_VERSION, read_skos

__all__ = ["Concept", "Thesaurus", "load", "normalise_label"]


def load(path: str | Path, *, cache_dir: str | Path | None = None, base: str = "") -> Thesaurus:
    """Read the thesaurus at ``path`` into the model: a ``*.thesaurus.json.gz`` cache file
    directly, else through the cache in ``cache_dir`` keyed by the source's sha256
    (:func:`.cache.load_or_build`). ``base`` resolves relative URIs; the default ``""``
    keeps them as written (NASA concepts are ``#43163``), wherever the file lies.
    """
    path = Path(path)
    if path.name.endswith(_cache.SUFFIX):
        return _cache.read(path)
    if not path.exists():  # a missing file: read_skos's one clear error
        return read_skos(path, base=base)
    header = {"source_sha256": _cache.sha256_of(path), "reader_version": READER_VERSION,
              "source": path.name, "base": base}
    return _cache.load_or_build(header, lambda: read_skos(path, base=base), cache_dir)
