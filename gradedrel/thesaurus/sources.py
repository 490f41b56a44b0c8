"""Where thesauri come from: the ``thesauri:`` config section (the only place their URLs and
sha256 pins are written) and the registry of the formats they are read from.

Each entry names its ``source``, a format registered here (:data:`SOURCES`: ``skos``, the
default, ``mesh``, ``wordnet``), and its file(s): ``url``/``sha256``/``path`` (MeSH, made of
two files, has them per role under ``files``). :func:`ensure_files` makes the local copies
exist and verifies them; :func:`load` reads an entry with its source's reader through the
cache (:mod:`.cache`). A source is one :class:`Source` subclass, registered with
:func:`register`; adding a format is a reader module and one class here (docs/thesaurus.md,
"Adding a source", lists the interface).
"""
from __future__ import annotations

import hashlib
import importlib
import json
from pathlib import Path
from typing import ClassVar, Mapping

from gradedrel.core import yaml_io
from gradedrel.core.downloads import fetch
from gradedrel.core.project import CONFIG, data_file, project_file
from gradedrel.core.registry import registrar

#: The project's own config (a checkout's, or the installed package's copy; used when no
#: other config is given).
PROJECT_CONFIG = project_file(CONFIG)


def project_thesauri(config_path: str | Path | None = None) -> dict:
    """The ``thesauri`` section of ``config_path`` if it exists, else of the project's config."""
    for path in (config_path, PROJECT_CONFIG):
        if path is not None and Path(path).exists():
            return dict((yaml_io.load_file(path) or {}).get("thesauri") or {})
    return {}


def entry(name: str, config: Mapping | None = None) -> dict:
    """The config entry for thesaurus ``name`` (``config["thesauri"][name]``)."""
    configured = dict((config or {}).get("thesauri", {}) or {})
    if name in configured:
        return dict(configured[name])
    raise ValueError(f"config: no thesaurus named {name!r} under 'thesauri' "
                     f"(known: {sorted(configured)})")


# --- the registry: one class per source format ------------------------------------------

#: The registered sources by name (what a config entry's ``source`` can name).
SOURCES: dict[str, type["Source"]] = {}
#: The source of an entry that names none.
DEFAULT_SOURCE = "skos"
#: Class decorator: make a class the source named its ``name``.
register = registrar(SOURCES, "thesaurus source")


class Source:
    """One thesaurus format, bound to a config entry (``spec``).

    Subclasses set :attr:`name`, :attr:`roles` (the files, by role; ``("file",)`` is
    the entry's own ``url``/``sha256``/``path``), :attr:`parsers` and :attr:`reader` (or
    implement :attr:`reader_version`), and implement :meth:`read`; :meth:`options` and
    :meth:`mapping` are optional.
    """

    #: The name a config entry's ``source`` gives.
    name: ClassVar[str] = ""
    #: The files the source is made of, by role.
    roles: ClassVar[tuple[str, ...]] = ("file",)
    #: The packages its reader parses with (their versions go into provenance.json).
    parsers: ClassVar[tuple[str, ...]] = ()
    #: Its reader module in this package, imported on use (heavy imports stay out of start-up).
    reader: ClassVar[str] = ""

    def __init__(self, spec: Mapping):
        self.spec = spec

    @property
    def reader_version(self) -> int:
        """The reader's version: bumped when its output can change (it keys the cache); by
        default its :attr:`reader` module's ``READER_VERSION``."""
        return importlib.import_module(f".{self.reader}", __package__).READER_VERSION

    def options(self) -> dict:
        """The entry's reader options (they key the cache with the files' digests)."""
        return {}

    def read(self, paths: Mapping[str, Path]):
        """The :class:`~.model.Thesaurus` read from the verified local copies, by role."""
        raise NotImplementedError

    def mapping(self) -> dict | None:
        """How the source maps onto the concept model, in words, recorded with the cache: its
        :attr:`reader` module's ``provenance()`` (None, as for SKOS: the cache header says
        it all)."""
        module = importlib.import_module(f".{self.reader}", __package__) if self.reader else None
        return module.provenance() if hasattr(module, "provenance") else None

    def file_specs(self) -> dict[str, Mapping]:
        """The entry's files by role: the entry itself for one ``file``, else its ``files``."""
        if self.roles == ("file",):
            return {"file": self.spec}
        files = self.spec.get("files") or {}
        missing = [role for role in self.roles if role not in files]
        if missing:
            raise ValueError(f"config: a {self.name} thesaurus needs files {list(self.roles)} "
                             f"(url, sha256, path each); missing {missing}")
        return {role: files[role] for role in self.roles}

    def cache_key(self) -> str:
        """The sha256 of the source name, every file's sha256 and the options."""
        document = {"source": self.name, "options": self.options(),
                    "files": {role: f["sha256"].lower() for role, f in self.file_specs().items()}}
        return hashlib.sha256(json.dumps(document, sort_keys=True).encode()).hexdigest()

    def provenance(self) -> dict | None:
        """Recorded in the cache header and provenance.json: files, options and mapping."""
        mapping = self.mapping()
        if mapping is None:
            return None
        return {"source": self.name, "options": self.options(),
                "files": {role: {"url": f["url"], "sha256": f["sha256"].lower()}
                          for role, f in self.file_specs().items()},
                "mapping": mapping}

    def cache_header(self) -> dict:
        """The header :func:`.cache.write` needs for a thesaurus read from this entry."""
        urls = [f["url"] for f in self.file_specs().values()]
        return {"source_sha256": self.cache_key(), "reader_version": self.reader_version,
                "source": " ".join(urls), "base": self.options().get("base", ""),
                "provenance": self.provenance()}

    def summary(self, thesaurus):
        """The rows of its ``summary.tsv`` (:func:`.summary.statistics`)."""
        from .summary import statistics
        return statistics(thesaurus)


@register
class Skos(Source):
    """Any SKOS file — RDF/XML streamed, Turtle/N-Triples/JSON-LD via rdflib, plain or
    ``.bz2``/``.gz``/``.xz`` (:mod:`.skos`); option ``base`` resolves relative URIs."""

    name = "skos"
    parsers = ("lxml",)

    reader = "skos"

    def options(self) -> dict:
        """The reader options that key the cache: the base URI."""
        return {"base": self.spec.get("base", "")}

    def read(self, paths):
        """The thesaurus read from the SKOS file."""
        from .skos import read_skos
        return read_skos(paths["file"], base=self.options()["base"])

    def cache_key(self) -> str:
        """The file's own sha256, so that the cache is the one ``thesaurus.load(path)`` writes."""
        return self.spec["sha256"].lower()


@register
class Mesh(Source):
    """MeSH from the R data-frame exports of jaytimm/mesh-resources: descriptors and tree
    numbers, two RDS files (:mod:`.mesh`)."""

    name = "mesh"
    roles = ("descriptors", "trees")
    parsers = ("rdata",)

    reader = "mesh"

    def read(self, paths):
        """The thesaurus read from the MeSH descriptor and tree exports."""
        from .mesh import read_mesh
        return read_mesh(paths["descriptors"], paths["trees"])


@register
class WordNet(Source):
    """Princeton WordNet 3.0, the WNDB files in Debian's wordnet-base .deb (:mod:`.wordnet`);
    option ``pos`` chooses the parts of speech."""

    name = "wordnet"

    reader = "wordnet"

    def options(self) -> dict:
        """The reader options that key the cache: the parts of speech read."""
        from .wordnet import POS
        return {"pos": list(self.spec.get("pos") or POS)}

    def read(self, paths):
        """The thesaurus read from the WordNet archive, for the chosen parts of speech."""
        from .wordnet import read_wordnet
        return read_wordnet(paths["file"], self.options()["pos"])


def source_of(spec: Mapping) -> Source:
    """The registered source an entry names (``source``, default ``skos``), bound to it."""
    source = spec.get("source", DEFAULT_SOURCE)
    if source not in SOURCES:
        raise ValueError(f"config: thesaurus source {source!r} is not one of {list(SOURCES)}")
    return SOURCES[source](spec)


# --- the entry's files, verified ---------------------------------------------------------

def file_specs(spec: Mapping) -> dict[str, Mapping]:
    """The entry's files by role (:meth:`Source.file_specs`): MeSH's ``files``
    (descriptors, trees), else ``file``."""
    return source_of(spec).file_specs()


def ensure_files(name: str, config: Mapping | None = None,
                 root: str | Path = ".") -> dict[str, Path]:
    """The verified local copies of every file of thesaurus ``name``, by role: under the
    project ``root`` (the installed package's own project: the user data home,
    :func:`gradedrel.core.project.data_file`)."""
    return {role: fetch(file["url"], data_file(root, file["path"]), file["sha256"])
            for role, file in file_specs(entry(name, config)).items()}


def reader_versions(spec: Mapping) -> dict[str, int]:
    """The versions a cached form depends on besides its files: the source's reader and the
    cache format (the workflow re-reads the thesaurus when either changes)."""
    from .cache import FORMAT_VERSION
    return {"reader": source_of(spec).reader_version, "cache_format": FORMAT_VERSION}


def load(name: str, config: Mapping | None = None, root: str | Path = ".", *,
         cache_dir: str | Path | None = None):
    """Thesaurus ``name`` in the model: its files verified (sha256; downloaded when absent),
    then read through the cache keyed by the source's ``cache_key()`` and reader version
    (:func:`.cache.load_or_build`)."""
    from . import cache as _cache

    source = source_of(entry(name, config))
    paths = ensure_files(name, config, root)
    return _cache.load_or_build(source.cache_header(), lambda: source.read(paths), cache_dir)
