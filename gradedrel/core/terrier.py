"""Terrier through PyTerrier: the pinned JVM (config ``terrier.version``, set before the
JVM starts, so every result records its engine), the index, and the term pipeline."""
from __future__ import annotations

import contextlib
import functools
import io
import logging
import sys
import zipfile
from pathlib import Path
from typing import Iterable, Mapping

from gradedrel.core.io import atomic_folder
from gradedrel.core.steps import FILE_ONLY

_STARTED: dict[str, str] = {}


def start(version: str, helper_version: str) -> str:
    """Start the JVM with the pinned Terrier; returns the version that actually runs.
    Starting twice with the same pins is a no-op; with other pins an error."""
    import pyterrier as pt

    pins = {"version": str(version), "helper_version": str(helper_version)}
    if pt.java.started():
        if _STARTED and _STARTED != pins:
            raise RuntimeError(f"Terrier already started with {_STARTED}, not {pins}")
    else:
        pt.terrier.set_version(pins["version"])
        pt.terrier.set_helper_version(pins["helper_version"])
        pt.java.set_log_level("WARN")
        # Java writes to the process's own stdout/stderr (a job's log, gradedrel.core.steps),
        # not character by character through Python's streams
        pt.java.set_redirect_io(False)
        # pt.java.init() without PyTerrier's "Java started and loaded: ..." line on stderr
        # (logged below); anything else is passed on
        captured = io.StringIO()
        try:
            with contextlib.redirect_stderr(captured):
                pt.java.init()
        finally:
            sys.stderr.write("".join(line for line in captured.getvalue().splitlines(True)
                                     if not line.startswith("Java started")))
        _STARTED.update(pins)
        logging.getLogger(FILE_ONLY).info("Java started: Terrier %s (helper %s)",
                                          pt.terrier.version(), pins["helper_version"])
    running = str(pt.terrier.version())
    if not running.startswith(pins["version"]):
        raise RuntimeError(f"Terrier {running} is running, but config pins {pins['version']}")
    return running


TERRIER_JARS = (("terrier-assemblies", "jar-with-dependencies"), ("terrier-python-helper", "jar"))


def fetch_jars(version: str, helper_version: str) -> list[Path]:
    """The pinned Terrier jars in PyTerrier's cache (or ``~/.m2``), downloaded from Maven
    Central when absent, without starting the JVM: the look-up :func:`start` makes, so a
    later start downloads nothing (the local rule ``terrier_fetch``)."""
    from pyterrier.java import mavenresolver
    from pyterrier.terrier.java import TERRIER_PKG

    versions = {"terrier-assemblies": str(version), "terrier-python-helper": str(helper_version)}
    return [Path(mavenresolver.get_package_jar(TERRIER_PKG, package, versions[package],
                                               artifact=artifact))
            for package, artifact in TERRIER_JARS]


#: Terrier's own default of ``blocks.max`` (``ApplicationSetup``): config
#: ``index.blocks_max`` when it is not set (docs/retrieval.md, "The index").
BLOCKS_MAX = 100000


def stopword_list(version: str) -> frozenset[str] | None:
    """Terrier's stopword list (``stopword-list.txt`` in the pinned jar, as the
    ``Stopwords`` stage reads it), without starting Java; None when the jar is not there."""
    import pyterrier as pt

    jar = Path(pt.io.pyterrier_home()) / \
        f"{TERRIER_JARS[0][0]}-{version}-{TERRIER_JARS[0][1]}.jar"
    if not jar.is_file():
        return None
    with zipfile.ZipFile(jar) as archive:
        lines = archive.read("stopword-list.txt").decode("utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip())


def build_index(documents: Iterable[dict], index_dir: str | Path, *, stemmer: str,
                stopwords: str, blocks: bool, max_docno_length: int, threads: int = 1,
                blocks_max: int | None = None) -> str:
    """Index ``{"docno", "text"}`` records with Terrier (UTF tokeniser, as
    :mod:`gradedrel.core.text`); returns the data.properties path. Written to a temporary
    folder moved into place when complete (:func:`~gradedrel.core.io.atomic_folder`: a
    killed job's is one ``tools/recover.py`` removes). ``threads`` > 1: Terrier's parallel
    indexer, whose document ids follow the threads' finishing order, so ties may change order
    from run to run (the default, 1, keeps runs byte-identical). ``blocks_max``: Terrier's
    ``blocks.max`` (the first ``blocks_max + 1`` tokens get positions; default
    :data:`BLOCKS_MAX`). Progress is the caller's (wrap ``documents``)."""
    import pyterrier as pt

    from gradedrel.core.text import TERRIER_TOKENISER

    with atomic_folder(index_dir) as staging:
        indexer = pt.IterDictIndexer(
            str(staging.resolve()), meta={"docno": max(1, max_docno_length)},
            text_attrs=["text"], blocks=blocks,
            stemmer=None if stemmer == "none" else stemmer,
            stopwords=None if stopwords == "none" else stopwords,
            tokeniser=TERRIER_TOKENISER.removesuffix("Tokeniser").lower(),  # "utf": Unicode text
            overwrite=True, threads=threads)
        # blocks.max is read into ApplicationSetup.MAX_BLOCKS, which the indexer copies when
        # it is made: set it (back to Terrier's default when not given) and re-read it
        setup = pt.java.autoclass("org.terrier.utility.ApplicationSetup")
        setup.setProperty("blocks.max", str(BLOCKS_MAX if blocks_max is None else blocks_max))
        setup.loadCommonProperties()
        failures: list[BaseException] = []

        def guarded():
            # PyTerrier's indexer swallows an exception raised by the document
            # iterator and indexes what came before it; remember it and re-raise.
            try:
                yield from documents
            except BaseException as error:
                failures.append(error)
                raise

        indexer.index(guarded())
        if failures:
            raise failures[0]
    return str(Path(index_dir) / "data.properties")


def java_version() -> str:
    """The running JVM's version (``java.version``; Terrier must have been started)."""
    import pyterrier as pt

    system = pt.java.autoclass("java.lang.System")
    return str(system.getProperty("java.version"))


@contextlib.contextmanager
def java_log_level(level: str):
    """Terrier's log level for a block; back to ``WARN`` after it."""
    import pyterrier as pt

    pt.java.set_log_level(level)
    try:
        yield
    finally:
        pt.java.set_log_level("WARN")


def open_index(index_dir: str | Path):
    """Open a Terrier index once (callers reuse the returned object)."""
    import pyterrier as pt

    return pt.IndexFactory.of(str(Path(index_dir).resolve() / "data.properties"))


def retriever(index, **settings):
    """``pt.terrier.Retriever(index, **settings)`` that reads each ranking as arrays.

    PyTerrier 1.0 iterates a ranking's ``ScoredDocList`` through pyjnius, three Java calls
    per document: most of a Terrier run's CPU at depth 1000 (Cranfield, 2026-12-01). This
    subclass shapes the request as PyTerrier 1.0's ``_retrieve_one`` does and reads the
    result set as three arrays: the same rows, order and values
    (tests/core/test_terrier_retriever.py compares them). Token lists and candidate sets to
    re-rank go to PyTerrier's own code.
    """
    return _array_retriever_class()(index, **settings)


@functools.lru_cache(maxsize=None)
def _array_retriever_class():
    import jnius
    import pyterrier as pt
    from pyterrier.terrier import retriever as pt_retriever

    class ArrayRetriever(pt.terrier.Retriever):
        """``pt.terrier.Retriever`` reading each ranking as arrays (see :func:`retriever`)."""

        def _retrieve_one(self, row, input_results=None, docno_provided=False,
                          docid_provided=False, scores_provided=False):
            if "query_toks" in row._fields or docno_provided or docid_provided:
                return super()._retrieve_one(row, input_results, docno_provided,
                                             docid_provided, scores_provided)
            qid, query = str(row.qid), row.query
            if pt_retriever._query_needs_tokenised(query):
                query = " ".join(self.tokeniser.getTokens(query))
            if len(query) == 0:
                return super()._retrieve_one(row)  # PyTerrier's warning, no ranking
            request = self.manager.newSearchRequest(qid, query)
            for control, value in self.controls.items():
                request.setControl(control, str(value))
            for key, value in self.search_context.items():
                request.setContextObject(key, value)
            if "applypipeline:off" in query:
                request.setControl("applypipeline", "off")
                request.setOriginalQuery(query.replace("applypipeline:off", ""))
            if pt_retriever._matchop(query):
                for control, value in (("terrierql", "off"), ("parsecontrols", "off"),
                                       ("parseql", "off"), ("matchopql", "on")):
                    request.setControl(control, value)
            request.setControl("decorate", ",".join(self.metadata))
            self.manager.runSearchRequest(request)
            results = jnius.cast("org.terrier.querying.Request", request).getResultSet()
            size = results.getResultSize()
            if size == 0:
                return {}
            keys = set(results.getMetaKeys())
            if not set(self.metadata) <= keys:
                raise KeyError(f"Mismatch between requested and available metadata in "
                               f"{self.indexref}. Requested metadata: {self.metadata}, "
                               f"available metadata {sorted(keys)}")
            first = pt_retriever.FIRST_RANK
            return {"_index": row.Index, "docid": list(results.getDocids())[:size],
                    **{m: list(results.getMetaItems(m))[:size] for m in self.metadata},
                    "rank": list(range(first, first + size)),
                    "score": list(results.getScores())[:size]}

    return ArrayRetriever


def index_statistics(index) -> Mapping[str, int]:
    """A Terrier index's number of documents, tokens and unique terms."""
    stats = index.getCollectionStatistics()
    return {"documents": int(stats.getNumberOfDocuments()),
            "tokens": int(stats.getNumberOfTokens()),
            "unique_terms": int(stats.getNumberOfUniqueTerms())}


def read_properties(index_dir: str | Path) -> dict[str, str]:
    """The ``data.properties`` of an index (Java properties: ``key=value`` lines)."""
    properties = {}
    for line in (Path(index_dir) / "data.properties").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith(("#", "!")) and "=" in line:
            key, value = line.split("=", 1)
            properties[key.strip()] = value.strip()
    return properties


def term_pipeline(index_dir: str | Path):
    """The index's own term pipeline (its ``termpipelines`` stages) as a callable
    ``pipeline(token) -> str | None``: a lower-cased token's indexed form, None for a stopword."""
    return named_pipeline(read_properties(index_dir).get("termpipelines", ""))


#: The stages the workflow's indexes record (config ``index``: terrier stopwords, porter).
DEFAULT_PIPELINE = "Stopwords,PorterStemmer"


def named_pipeline(names: str = DEFAULT_PIPELINE):
    """Terrier's term pipeline of the named stages, without an index (the plan checker).
    Needs the JVM started."""
    import pyterrier as pt

    accessor = pt.java.autoclass("org.terrier.terms.BaseTermPipelineAccessor")
    # one accessor per stage: pyjnius cannot pass Java varargs of several strings
    stages = [accessor(name.strip()) for name in names.split(",") if name.strip()]

    def pipeline(token: str) -> str | None:
        for stage in stages:
            token = stage.pipelineTerm(token)
            if token is None:
                return None
        return str(token)

    return pipeline
