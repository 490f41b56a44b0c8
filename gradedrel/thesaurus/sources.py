"""Where thesauri come from: the ``thesauri:`` config section (the only place their
URLs and sha256 pins are written, in config/config.yaml).

Each entry names its ``source`` (the reader: ``skos``, the default; ``mesh``;
``wordnet``) and its file(s): a download URL, its sha256, and the local path
the project keeps it at (``url``/``sha256``/``path``; MeSH, made of two files,
has them per role under ``files``). :func:`ensure` / :func:`ensure_files` make
the local copies exist and verify them (:func:`gradedrel.core.downloads.fetch`);
:func:`read` reads an entry with its source's reader and :func:`load` does the
same through the cache (:mod:`.cache`), so each source reloads in about a second.
"""
from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Mapping

import yaml

from gradedrel.core.downloads import fetch

log = logging.getLogger("gradedrel")

#: The project's own config, beside the package (used when no other config is given).
PROJECT_CONFIG = Path(__file__).resolve().parents[2] / "config" / "config.yaml"
#: The readers a ``source`` can name.
SOURCES = ("skos", "mesh", "wordnet")


def project_thesauri(config_path: str | Path | None = None) -> dict:
    """The ``thesauri`` section of ``config_path`` if it exists, else of the project's config."""
    for path in (config_path, PROJECT_CONFIG):
        if path is not None and Path(path).exists():
            with open(path, encoding="utf-8") as handle:
                return dict((yaml.safe_load(handle) or {}).get("thesauri") or {})
    return {}


def entry(name: str, config: Mapping | None = None) -> dict:
    """The config entry for thesaurus ``name`` (``config["thesauri"][name]``)."""
    configured = dict((config or {}).get("thesauri", {}) or {})
    if name in configured:
        return dict(configured[name])
    raise ValueError(f"config: no thesaurus named {name!r} under 'thesauri' "
                     f"(known: {sorted(configured)})")


def ensure(name: str, config: Mapping | None = None, root: str | Path = ".") -> Path:
    """The verified local copy of thesaurus ``name``, downloaded if absent.

    A relative ``path`` is taken from ``root`` (the working directory of the run).
    For a source of several files (MeSH) use :func:`ensure_files`.
    """
    spec = entry(name, config)
    if "files" in spec and "url" not in spec:
        raise ValueError(f"config: thesaurus {name!r} ({kind(spec)}) has several files "
                         f"({sorted(spec['files'])}); use ensure_files()")
    return _fetch(spec, root)


# --- source dispatch (issue 13): one interface for SKOS, MeSH and WordNet ----------

def _fetch(file: Mapping, root: str | Path) -> Path:
    path = Path(file["path"])
    if not path.is_absolute():
        path = Path(root) / path
    return fetch(file["url"], path, file["sha256"])


def kind(spec: Mapping) -> str:
    """The reader an entry names (``source``, default ``skos``)."""
    source = spec.get("source", "skos")
    if source not in SOURCES:
        raise ValueError(f"config: thesaurus source {source!r} is not one of {list(SOURCES)}")
    return source


def file_specs(spec: Mapping) -> dict[str, Mapping]:
    """The entry's files by role: MeSH's ``files`` (descriptors, trees), else ``file``."""
    if kind(spec) == "mesh":
        from .mesh import ROLES
        files = spec.get("files") or {}
        missing = [role for role in ROLES if role not in files]
        if missing:
            raise ValueError(f"config: a mesh thesaurus needs files {list(ROLES)} "
                             f"(url, sha256, path each); missing {missing}")
        return {role: files[role] for role in ROLES}
    return {"file": spec}


def ensure_files(name: str, config: Mapping | None = None,
                 root: str | Path = ".") -> dict[str, Path]:
    """The verified local copies of every file of thesaurus ``name``, by role."""
    return {role: _fetch(file, root)
            for role, file in file_specs(entry(name, config)).items()}


def options(spec: Mapping) -> dict:
    """The entry's reader options (they key the cache with the files' digests)."""
    source = kind(spec)
    if source == "wordnet":
        from .wordnet import POS
        return {"pos": list(spec.get("pos") or POS)}
    if source == "skos":
        return {"base": spec.get("base", "")}
    return {}


def reader_version(spec: Mapping) -> int:
    source = kind(spec)
    if source == "mesh":
        from .mesh import READER_VERSION
    elif source == "wordnet":
        from .wordnet import READER_VERSION
    else:
        from .skos import READER_VERSION
    return READER_VERSION


def cache_key(spec: Mapping) -> str:
    """What the cache is keyed by, with the reader version: a SKOS file's own sha256
    (so its cache is the one ``gradedrel.thesaurus.load(path)`` writes); for other
    sources the sha256 of the source name, every file's sha256 and the options."""
    if kind(spec) == "skos":
        return spec["sha256"].lower()
    document = {"source": kind(spec), "options": options(spec),
                "files": {role: f["sha256"].lower() for role, f in file_specs(spec).items()}}
    return hashlib.sha256(json.dumps(document, sort_keys=True).encode()).hexdigest()


def provenance(spec: Mapping) -> dict | None:
    """Recorded in the cache header (``None`` for SKOS: the header says it all)."""
    source = kind(spec)
    if source == "skos":
        return None
    if source == "mesh":
        from .mesh import provenance as mapping
    else:
        from .wordnet import provenance as mapping
    return {"source": source, "options": options(spec),
            "files": {role: {"url": f["url"], "sha256": f["sha256"].lower()}
                      for role, f in file_specs(spec).items()},
            "mapping": mapping()}


def read(name: str, config: Mapping | None = None, root: str | Path = "."):
    """Read thesaurus ``name`` from its verified file(s) with its source's reader
    (no cache). Returns the :class:`~.model.Thesaurus`."""
    spec = entry(name, config)
    paths = ensure_files(name, config, root)
    return read_spec(spec, paths)


def read_spec(spec: Mapping, paths: Mapping[str, Path]):
    source = kind(spec)
    if source == "mesh":
        from .mesh import read_mesh
        return read_mesh(paths["descriptors"], paths["trees"])
    if source == "wordnet":
        from .wordnet import read_wordnet
        return read_wordnet(paths["file"], options(spec)["pos"])
    from .skos import read_skos
    return read_skos(paths["file"], base=spec.get("base", ""))


def cache_header(spec: Mapping) -> dict:
    """The header :func:`.cache.write` needs for a thesaurus read from ``spec``."""
    urls = [f["url"] for f in file_specs(spec).values()]
    return {"source_sha256": cache_key(spec), "reader_version": reader_version(spec),
            "source": " ".join(urls), "base": spec.get("base", "") if kind(spec) == "skos"
            else "", "provenance": provenance(spec)}


def load(name: str, config: Mapping | None = None, root: str | Path = ".", *,
         use_cache: bool = True, cache_dir: str | Path | None = None):
    """Thesaurus ``name`` in the model, from the cache when fresh.

    The files are verified (sha256) and downloaded when absent; then the cache in
    ``cache_dir`` (default :func:`.cache.default_cache_dir`) keyed by
    :func:`cache_key` and the reader version is read if fresh, else the source is
    parsed and the cache written (an unwritable cache dir is only logged).
    """
    from . import cache as _cache

    spec = entry(name, config)
    paths = ensure_files(name, config, root)
    if not use_cache:
        return read_spec(spec, paths)
    header = cache_header(spec)
    target = Path(cache_dir) if cache_dir is not None else _cache.default_cache_dir()
    cached = target / _cache.cache_name(header["source_sha256"], header["reader_version"],
                                        header["base"])
    if cached.exists():
        try:
            found, thesaurus = _cache.read_header_and_concepts(cached)
            if _cache.is_fresh(found, header["source_sha256"], header["reader_version"],
                               header["base"]):
                return thesaurus
        except ValueError as error:
            log.warning("thesaurus cache %s unreadable (%s); rebuilding", cached, error)
    thesaurus = read_spec(spec, paths)
    try:
        _cache.write(cached, thesaurus, **header)
    except OSError as error:
        log.warning("could not write thesaurus cache %s: %s", cached, error)
    return thesaurus
