"""Checks before any job runs: the config against its schema, and every input file the
config names — present, and in the format expected — each problem as one line.

The workflow calls these when it parses the Snakefile (workflow/rules/common.smk), so a
missing file or a misspelled key stops the run at once with one line per error, not a
traceback when its job comes. ``GRADEDREL_VERBOSE=1``: the full exception instead. Every
check and its message: docs/inputs.md.
"""
from __future__ import annotations

import contextlib
import difflib
import gzip
import importlib.util
import json
import logging
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Callable, Iterable, Mapping
from urllib.parse import urlparse

import yaml

from gradedrel.collection import readers, spec
from gradedrel.core.errors import InputError
from gradedrel.core.io import file_in_the_way, what_is_in_the_way
from gradedrel.core.yaml_io import StrictLoader, as_input_error


def verbose() -> bool:
    """Whether full tracebacks were asked for (``GRADEDREL_VERBOSE=1``)."""
    return os.environ.get("GRADEDREL_VERBOSE", "").strip().lower() not in ("", "0", "false", "no")


# --- the input files named in config -----------------------------------------------------

def grade_map_level_errors(grade_map: Mapping | None, config: Mapping, where: str) -> list[str]:
    """A level ``evaluation.levels`` stratifies by that no label of the grade map reaches
    (every measure at that level would have no topic)."""
    reached = {level for level in (grade_map or {}).values() if isinstance(level, int)}
    levels = (config.get("evaluation") or {}).get("levels") or []
    missing = [level for level in levels if level not in reached] if grade_map else []
    if not missing:
        return []
    return [f"{where}.grade_map: no relevance label maps to level "
            f"{', '.join(map(str, missing))}, which evaluation.levels stratifies by "
            f"({', '.join(map(str, levels))}); map a label to it, or leave the level out of "
            f"evaluation.levels"]


#: The project's own config folder, which a module from a URL reads from the using directory.
CONFIG_FOLDER = "config/"


def config_folder_files(config) -> list[str]:
    """Every path under ``config/`` the config names (its values, nested), in order, once."""
    if isinstance(config, Mapping):
        values = config.values()
    elif isinstance(config, (list, tuple)):
        values = config
    else:
        return [config] if isinstance(config, str) and config.startswith(CONFIG_FOLDER) else []
    return list(dict.fromkeys(path for value in values for path in config_folder_files(value)))


def missing_config_folder(config: Mapping, exists=os.path.exists) -> str | None:
    """For a module from a URL: the one line saying that the using directory lacks files of
    the project's ``config/`` folder the config names (the curated plans, the study designs,
    the published numbers), or None. Checked before the study is read, so that their
    absence is this line, not one line per file or a traceback. The files looked for are
    the study's: the active collections' (plans, topic lists, designs) and the report's
    (published numbers)."""
    active = set(config.get("active_collections") or [])
    used = [value for name, value in (config.get("collections") or {}).items()
            if name in active] + [config.get("report") or {}]
    missing = [path for path in config_folder_files(used) if not exists(path)]
    if not missing:
        return None
    shown = ", ".join(missing[:3]) + (f" and {len(missing) - 3} more" if len(missing) > 3 else "")
    return (f"{CONFIG_FOLDER}: {len(missing)} file{'s' if len(missing) > 1 else ''} the config "
            f"names {'are' if len(missing) > 1 else 'is'} not in the using directory ({shown}); "
            "a module from a URL reads them from there: copy the project's config/ folder into "
            "the using directory with the workflow (snakedeploy deploy-workflow does; "
            "docs/module.md)")


def folder_errors(config: Mapping) -> list[str]:
    """The folders the workflow writes into (``results_dir``, ``report.figures_dir``): not
    a file or a symbolic link to nothing, and not under one."""
    folders = (("results_dir", config.get("results_dir")),
               ("report.figures_dir", (config.get("report") or {}).get("figures_dir")))
    return [f"{blocking}: expected a folder (config: {key}: {value}); found "
            f"{what_is_in_the_way(blocking)}" for key, value in folders if value and (blocking := file_in_the_way(value))]


def input_errors(config: Mapping, collections: Iterable[str], plan_sets: Mapping,
                 resolve: Callable[[str], str] = lambda p: p, *,
                 thesauri: Iterable[str]) -> list[str]:
    """One line per problem with an input file the config names, for the active
    ``collections``: local documents, topics and qrels (present and readable, read in full:
    documents unless the index was built from them, :func:`documents_errors`), curated plan
    files and topic lists, thesaurus copies that cannot be downloaded, corrupt cached
    thesauri (``thesauri``: those the study reads, :meth:`gradedrel.study.Study.thesauri_used`;
    the config is the :class:`~gradedrel.study.Study`'s, its names and grade maps checked)."""
    errors: list[str] = ir_datasets_id_errors(config, collections)
    errors += folder_errors(config)
    with _quiet():  # the readers' notes (a stripped byte-order mark) are the jobs' to log
        for name in collections:
            raw = config["collections"][name]
            # as the Study read it, its local files named as config names them
            given = replace(spec.CollectionSpec.from_config(name, raw),
                            **spec.local_files(raw, spec.PARTS))
            where = f"config: collections.{name}"
            # the parts given as local files (a collection may take others from ir_datasets)
            if raw.get("docs"):
                errors += _docs_errors(raw, where) or documents_errors(name, raw, config)
            errors += _topics_errors(given, where)
            errors += grade_map_level_errors(raw.get("grade_map"), config, where)
            errors += _qrels_errors(given, where)
            for plan_set in (plan_sets.get(name) or {}).values():
                errors += _plan_set_errors(plan_set, f"{where}.plan_sets.{plan_set.name}")
    read = sorted(set(thesauri))
    for name in read:
        errors += _thesaurus_errors(name, config.get("thesauri") or {}, resolve)
    errors += thesaurus_cache_errors(config.get("results_dir", "results"), read)
    return errors


def ir_datasets_id_errors(config: Mapping, collections: Iterable[str],
                          known: Callable[[], Iterable[str]] | None = None) -> list[str]:
    """One line per ir_datasets id of an active collection that ir_datasets does not know,
    naming the config key and the closest valid ids. ``known`` lists the valid ids
    (default: ir_datasets' registry, offline); where ir_datasets is not installed (None:
    an environment holding only Snakemake) no id is checked: the fetch job reads them."""
    named = []
    for name in collections:
        value = (config["collections"][name] or {}).get("ir_datasets")
        key = f"collections.{name}.ir_datasets"
        if isinstance(value, str) and value:
            named.append((key, value))
        elif isinstance(value, Mapping):
            for part in spec.PARTS:
                given = value.get(part)
                if isinstance(given, list):
                    named += [(f"{key}.{part}[{i}]", str(one)) for i, one in enumerate(given)]
                elif given:
                    named.append((f"{key}.{part}", str(given)))
    if not named:
        return []
    registry = known() if known is not None else registered_ir_datasets(config)
    if registry is None:
        return []
    ids = set(registry)
    errors = []
    for key, value in named:
        if value in ids:
            continue
        close = difflib.get_close_matches(value, sorted(ids), n=3, cutoff=0.6)
        hint = ("did you mean " + " or ".join(repr(c) for c in close) + "?") if close else \
            "see https://ir-datasets.com/ for the ids"
        errors.append(f"config: {key}: {value!r} is not an ir_datasets id; {hint}")
    return errors


def registered_ir_datasets(config: Mapping) -> list[str] | None:
    """Every id ir_datasets registers (its registry: no network); None where ir_datasets
    is not installed."""
    if sys.modules.get("ir_datasets") is None and importlib.util.find_spec("ir_datasets") is None:
        return None

    home = (config.get("data") or {}).get("ir_datasets_home")
    if home and "ir_datasets" not in sys.modules:
        spec.use_ir_datasets_home(home)  # ir_datasets fixes its cache paths on import
    import ir_datasets

    return list(ir_datasets.registry)


@contextlib.contextmanager
def _quiet():
    """The package's log records off for the block."""
    logger = logging.getLogger("gradedrel")
    disabled, logger.disabled = logger.disabled, True
    try:
        yield
    finally:
        logger.disabled = disabled


def _file_errors(path: str | None, key: str, what: str,
                 check: Callable[[str], "str | None"]) -> list[str]:
    """The file at ``path`` (none: nothing to check) that config ``key`` names: present, and
    ``check(path)``'s message, the reader's :class:`InputError` or an unreadable file, one
    line."""
    if not path:
        return []
    if not Path(path).exists():
        return [f"{path}: expected a file here (named by {key}); found none"]
    if not Path(path).is_file():
        return [f"{path}: not a file (named by {key})"]
    try:
        message = check(path)
    except InputError as error:
        return [str(error)]
    except (OSError, UnicodeDecodeError) as error:
        return [f"{path}: expected readable UTF-8 {what}; {error}"]
    return [message] if message else []


def _docs_errors(raw: Mapping, where: str) -> list[str]:
    def check(path):
        fmt = raw.get("docs_format") or ("jsonl" if path.endswith((".jsonl", ".jsonl.gz"))
                                         else "trec")
        if fmt == "jsonl":
            records = readers.iter_docs_jsonl(path, raw.get("doc_id_field", "docno"),
                                              tuple(raw.get("doc_text_fields", ["text"])))
            if next(records, None) is None:
                return (f"{path}: expected JSONL documents (one JSON object per line); "
                        "found an empty file")
            return None
        with (gzip.open if path.endswith(".gz") else open)(path, "rb") as handle:
            head = handle.read(1 << 16).decode("utf-8", errors="replace")
        if "<doc>" not in head.lower():
            return (f"{path}: expected TREC SGML documents (<DOC> <DOCNO>…</DOCNO> … "
                    "</DOC>) in the first 64 KiB; found none (docs_format: jsonl for JSONL)")
        return None

    return _file_errors(raw.get("docs"), f"{where}.docs", "documents", check)


def documents_errors(name: str, raw: Mapping, config: Mapping) -> list[str]:
    """Every document of a local file, read as the indexer reads it: a bad, long or
    repeated id and a document over the positional limit (``index.blocks_max``), each at
    its line. Skipped when the index was built from this file with these ``index`` options
    (its ``documents.json`` is newer and records them). About 3 s per 200,000 JSONL
    documents (183 MB), 6 s per 200,000 TREC SGML ones (73 MB; docs/inputs.md)."""
    from gradedrel.collection import documents
    from gradedrel.core import terrier

    path = raw.get("docs")
    index = dict(config.get("index") or {})
    census = Path(config.get("results_dir", "results"), name, "documents.json")
    try:
        if census.stat().st_mtime_ns >= Path(path).stat().st_mtime_ns and \
                json.loads(census.read_text(encoding="utf-8")).get("options") == index:
            return []
    except (OSError, ValueError, AttributeError):
        pass  # no index yet, or none to trust: read the documents
    version = str((config.get("terrier") or {}).get("version", ""))
    limit = documents.position_limit(index, lambda: terrier.stopword_list(version))

    def check(path):
        collection = spec.CollectionSpec.from_config(name, raw, needs=("docs",))
        for _ in documents.checked_documents(collection, documents.DocumentCensus(),
                                             limit=limit):
            pass

    return _file_errors(path, f"config: collections.{name}.docs", "documents", check)


def thesaurus_cache_errors(results_dir: str, names: Iterable[str]) -> list[str]:
    """A cached thesaurus (``results/thesauri/<name>/``) that is corrupt: its gzip stream
    read whole (CRC and length; 0.03 s for NASA's, 0.13 s for WordNet's), so that a damaged
    cache stops the run at once rather than failing in the next job."""
    from gradedrel.thesaurus import cache

    errors = []
    for name in names:
        path = Path(results_dir, "thesauri", name, f"{name}{cache.SUFFIX}")
        if path.is_file():
            try:
                cache.check_integrity(path)
            except ValueError as error:
                errors.append(str(error))
    return errors


def _topics_errors(collection: spec.CollectionSpec, where: str) -> list[str]:
    """Local topics, read as the workflow reads them
    (:func:`gradedrel.collection.judgements.load_topics`: its format, header and fields)."""
    from gradedrel.collection.judgements import load_topics

    def check(path):
        if load_topics(collection).empty:
            return f"{path}: expected topic lines 'qid<TAB>text'; found none"
        return None

    return _file_errors(collection.topics, f"{where}.topics", "topics", check)


def _qrels_errors(collection: spec.CollectionSpec, where: str) -> list[str]:
    def check(path):
        if readers.read_qrels(path, collection.grade_map).empty:
            return f"{path}: expected TREC qrels lines 'qid iteration docno label'; found none"
        return None

    return _file_errors(collection.qrels, f"{where}.qrels", "qrels", check)


def _plan_set_errors(plan_set, where: str) -> list[str]:
    """Curated plan files present and valid YAML (libyaml's event parser; the plans are
    checked when the merge step reads them), topic lists present and not empty."""
    def parsed(path):
        try:
            with open(path, encoding="utf-8") as handle:
                for _ in yaml.parse(handle, Loader=StrictLoader):
                    pass
        except yaml.YAMLError as error:
            raise as_input_error(error, path, "curated plans in valid YAML (docs/plans.md)") \
                from None

    def listed(path):
        with open(path, encoding="utf-8-sig") as handle:
            if not any(line.strip() for line in handle):
                return (f"{path}: expected topic ids, one per line (named by {where}.topics); "
                        "found an empty file")
        return None

    errors = []
    for path in plan_set.curated:
        errors += _file_errors(path, f"{where}.curated", "YAML", parsed)
    return errors + _file_errors(plan_set.topic_list, f"{where}.topics", "topic ids", listed)


def _thesaurus_errors(name: str, thesauri: Mapping, resolve) -> list[str]:
    """A thesaurus copy that is neither present nor downloadable (``name``: one under
    ``thesauri``, as :class:`~gradedrel.study.Study` checked)."""
    from gradedrel.thesaurus.sources import file_specs

    try:
        files = file_specs(thesauri[name])
    except ValueError as error:
        return [str(error)]
    errors = []
    for role, given in files.items():
        path = given.get("path")
        if not path or Path(resolve(path)).exists():
            continue
        url = str(given.get("url") or "")
        scheme = urlparse(url).scheme
        if scheme == "file":
            source = urlparse(url).path
            if not Path(source).exists():
                errors.append(f"{source}: no such file (thesauri.{name}, {role}: the url of "
                              f"the local copy {path}, which is absent too)")
        elif scheme not in ("http", "https", "ftp"):
            errors.append(f"{path}: no such file (thesauri.{name}) and no URL to download "
                          f"it from ({url or 'none given'})")
    return errors

