"""The cached form of a thesaurus: gzip-compressed JSON, deterministic and safe.

One JSON object: a header (``format``, ``format_version``, ``reader_version``,
``source_sha256``, ``source``, ``base``, for MeSH and WordNet ``provenance``: the files'
digests and the mapping; ``fields``) and ``concepts``, one list per concept in model order
(:data:`FIELDS`). JSON, not pickle, so that loading a cache cannot run code; gzip with
``mtime=0`` and fixed separators, so the same thesaurus gives byte-identical files. A cache
is *fresh* when its source digest, reader version, format version and base all match; a
stale or unreadable cache is rebuilt, never trusted.
"""
from __future__ import annotations

import gc
import gzip
import hashlib
import json
import logging
import os
import zlib
from pathlib import Path

from gradedrel.core.io import sha256_of  # noqa: F401  (re-exported for load())
from gradedrel.core.errors import CorruptCache
from gradedrel.core.io import atomic_open
from gradedrel.thesaurus.model import Concept, Thesaurus

FORMAT = "gradedrel-thesaurus"
FORMAT_VERSION = 2
#: Suffix of cache files; ``load()`` reads such a file directly.
SUFFIX = ".thesaurus.json.gz"
FIELDS = ("uri", "pref_labels", "alt_labels", "broader", "narrower", "related",
          "definitions", "use", "used_for", "permuted")
WHAT = "thesaurus cache"
log = logging.getLogger("gradedrel")


def default_cache_dir() -> Path:
    """``$GRADEDREL_CACHE_DIR``; else, outside a checkout, ``cache/thesauri`` in the user
    data home (:func:`gradedrel.core.project.data_home`); else
    ``$XDG_CACHE_HOME/gradedrel/thesauri`` (``~/.cache/gradedrel/thesauri``)."""
    from gradedrel.core.project import data_home, in_checkout

    if os.environ.get("GRADEDREL_CACHE_DIR"):
        return Path(os.environ["GRADEDREL_CACHE_DIR"])
    if not in_checkout():
        return data_home() / "cache" / "thesauri"
    xdg = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(xdg) / "gradedrel" / "thesauri"


def encode(thesaurus: Thesaurus, *, source_sha256: str, reader_version: int,
           source: str = "", base: str = "", provenance: dict | None = None) -> bytes:
    """A thesaurus as the compressed cache file's bytes, with the header a reader checks."""
    rows = [[getattr(c, f) for f in FIELDS] for c in thesaurus.concepts.values()]
    document = {"format": FORMAT, "format_version": FORMAT_VERSION,
                "reader_version": reader_version, "source_sha256": source_sha256,
                "source": source, "base": base, "fields": list(FIELDS), "concepts": rows}
    if provenance is not None:  # sources other than one SKOS file: files and mapping
        document["provenance"] = provenance
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    return gzip.compress(text.encode("utf-8"), compresslevel=6, mtime=0)


def write(path: str | Path, thesaurus: Thesaurus, **header) -> None:
    """Write the cached form atomically (see :func:`encode` for ``header``)."""
    with atomic_open(path, "wb") as handle:
        handle.write(encode(thesaurus, **header))


def check_integrity(path: str | Path) -> None:
    """Read the cache's gzip stream whole, without keeping it: a truncated or damaged
    file (gzip's CRC and length) is a :class:`CorruptCache`. The file exists (its one
    caller, :func:`gradedrel.preflight.thesaurus_cache_errors`, checks it first)."""
    try:
        with gzip.open(path, "rb") as handle:
            while handle.read(1 << 20):
                pass
    except (OSError, EOFError, zlib.error) as error:
        raise CorruptCache(path, f"not gzip-compressed JSON: {error}", WHAT) from None


def read_header_and_concepts(path: str | Path) -> tuple[dict, Thesaurus]:
    """Read a cache file; one :class:`CorruptCache` if it is not one.

    The cyclic garbage collector is paused while reading: the millions of lists,
    tuples and strings made here hold no cycles, and the collector's passes over
    them cost more than the reading itself (WordNet's 117,659 concepts: 2.0 s ->
    0.85 s CPU).
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _read(path)
    finally:
        if collecting:
            gc.enable()


def _read(path: str | Path) -> tuple[dict, Thesaurus]:
    try:
        with open(path, "rb") as handle:
            document = json.loads(gzip.decompress(handle.read()))
    except FileNotFoundError:
        raise
    except (OSError, EOFError, ValueError, zlib.error) as error:
        raise CorruptCache(path, f"not gzip-compressed JSON: {error}", WHAT) from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        found = document.get("format") if isinstance(document, dict) else type(document).__name__
        raise CorruptCache(path, f'not a JSON object with "format": "{FORMAT}"; found '
                                 f"{found!r}", WHAT)
    if document.get("format_version") != FORMAT_VERSION or \
            document.get("fields") != list(FIELDS):
        raise CorruptCache(path, f"format version {document.get('format_version')!r}, "
                                 f"not {FORMAT_VERSION}", WHAT)
    rows = document.pop("concepts", None)
    if not isinstance(rows, list):
        raise CorruptCache(path, "no list of concepts", WHAT)
    concepts = {}
    # Built without Concept.__init__ (same fields; __post_init__ has nothing to fill
    # here): a third less time for WordNet's 117,659 concepts. Each row's shape is
    # checked (a uri and nine lists, as :func:`encode` writes them); gzip's CRC has
    # already shown the bytes to be those written.
    new = object.__new__
    for number, row in enumerate(rows, start=1):
        if type(row) is not list or len(row) != len(FIELDS) or type(row[0]) is not str \
                or any(type(v) is not list for v in row[1:]):
            raise CorruptCache(path, f"concept {number} is not [uri, {len(FIELDS) - 1} lists]",
                               WHAT)
        uri, pref, alt, broader, narrower, related, defs, use, used_for, permuted = row
        concept = new(Concept)
        concept.__dict__.update(
            uri=uri, pref_label=pref[0] if pref else "", alt_labels=tuple(alt),
            broader=tuple(broader), narrower=tuple(narrower), related=tuple(related),
            definition=defs[0] if defs else None, use=tuple(use), used_for=tuple(used_for),
            pref_labels=tuple(pref), definitions=tuple(defs), permuted=tuple(permuted))
        concepts[uri] = concept
    return document, Thesaurus(concepts)


def read(path: str | Path) -> Thesaurus:
    """The thesaurus of a cache file (CorruptCache if it is damaged)."""
    return read_header_and_concepts(path)[1]


def path_for(header: dict, cache_dir: str | Path | None = None) -> Path:
    """The cache file for a :func:`encode` ``header`` in ``cache_dir`` (default
    :func:`default_cache_dir`)."""
    target = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    # named by the source's sha256, the reader version, the cache format and the base
    key = (f"{header['source_sha256']}\0{header['reader_version']}\0{FORMAT_VERSION}\0"
           f"{header.get('base', '')}")
    return target / (hashlib.sha256(key.encode()).hexdigest()[:24] + SUFFIX)


def fresh(path: str | Path, header: dict) -> Thesaurus | None:
    """The thesaurus of cache file ``path`` if it was written from ``header``'s source digest,
    reader version and base, else None (CorruptCache if it is damaged)."""
    found, thesaurus = read_header_and_concepts(path)
    same = (found.get("source_sha256") == header["source_sha256"]
            and found.get("reader_version") == header["reader_version"]
            and found.get("base", "") == header.get("base", ""))
    return thesaurus if same else None


def load_or_build(header: dict, build, cache_dir: str | Path | None = None) -> Thesaurus:
    """The thesaurus from its fresh cache in ``cache_dir``, else ``build()`` with the cache
    written (an unreadable cache is rebuilt; an unwritable cache directory only logged)."""
    cached = path_for(header, cache_dir)
    if cached.exists():
        try:
            thesaurus = fresh(cached, header)
            if thesaurus is not None:
                return thesaurus
        except ValueError as error:
            log.warning("thesaurus cache %s unreadable (%s); rebuilding", cached, error)
    thesaurus = build()
    try:
        write(cached, thesaurus, **header)
    except OSError as error:
        log.warning("could not write thesaurus cache %s: %s", cached, error)
    return thesaurus
