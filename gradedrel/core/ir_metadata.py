"""ir_metadata (https://www.ir-metadata.org/, schema version 0.1): a run's or an
evaluation's description in PRIMAD terms, as YAML — ``platform``, ``implementation``,
``data`` and ``method``, with the key names of the schema's checklists (``platform →
hardware → cpu → model``, ``implementation → source → commit``, ``data → test
collection → ir_datasets``, ``method → retrieval`` as a list of ranking components, …).

The workflow writes one record per run file, beside it (:func:`record_path`: ``SUM-u.run``
→ ``SUM-u.run.ir-metadata.yaml``; the run file is six TREC columns and nothing else), and
one per evaluation, ``ir-metadata.yaml`` in ``results/<c>/evaluation/<p>/<m>/``, each with
every section of schema 0.1, as :func:`dump` writes it: a YAML document between the lines
``# ir_metadata.start`` and ``# ir_metadata.end`` (comments to a YAML reader), so that both
of repro_eval's readers read it: ``MetadataHandler.read_metadata`` (the markers) and
``read_metadata_template`` (YAML). :func:`annotated` is the spec's annotated run (the
record as ``# `` lines heading the run lines, :func:`header`), for tools that want record
and run in one file. Records are built from facts passed in; only :func:`platform_of`,
:func:`source` and :func:`file_record` look at the machine and files.

Why not repro_eval's ``complete_metadata`` or tirex-tracker (repro_eval 0.5.0,
tirex-tracker 0.2.24): the former lists Python distributions without versions, asks
GitPython for ``repo.remote().url`` (an error outside a checkout or without a remote) and
walks the working folder (the whole results tree); the latter needs IPython, not in the
lock, and records times and energy, so the same inputs would not give the same bytes.
repro_eval is the tests' reader of these records (``test`` extra).

``platform`` holds only facts of the machine that do not change from run to run, so the
same inputs on the same machine give the same bytes. ``implementation → source → commit``
changes with every commit: no rule reads these files (nor provenance.json), so a new commit
re-runs nothing, and ``tools/compare_trees.py`` leaves the commit out.
"""
from __future__ import annotations

import json
import os
import platform as _platform
import re
import subprocess
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

import yaml

from gradedrel.core.io import sha256_of
from gradedrel.core.params import plain
from gradedrel.core.provenance import package_version

SCHEMA_VERSION = "0.1"
FILE_NAME = "ir-metadata.yaml"
START, END = "# ir_metadata.start", "# ir_metadata.end"
#: The version of a record's content (the spec's ``run-version``): raised when what a record
#: says of a run changes.
RUN_VERSION = "2.1"
#: ``research goal`` → venue and publication: the paper reproduced (CITATION.cff's reference).
PAPER = {"venue": {"name": "SIGIR", "year": 2000},
         "publication": {"title": "IR evaluation methods for retrieving highly relevant "
                                  "documents",
                         "authors": ["Kalervo Järvelin", "Jaana Kekäläinen"],
                         "doi": "https://doi.org/10.1145/345508.345545"}}
#: The paper's measures, as this project names them (docs/measures.md).
PAPER_MEASURES = ("AvP(level=k)", "P-R(level=k)", "CG", "DCG", "nCG", "nDCG")
#: ``actor``: who made the runs, in the spec's roles.
ACTOR = {"team": "gradedrel", "role": "reproducer"}
#: The Python distributions named under platform → software → libraries → python
#: (``pyterrier`` holds PyTerrier's code; ``python-terrier`` 1.0 only requires it).
LIBRARIES = ("gradedrel", "pyterrier", "ir_datasets", "ir_measures", "pytrec_eval-terrier",
             "pandas", "numpy", "scipy", "snakemake", "pyyaml")
#: The root a record names for the files read under the ir_datasets home (:func:`data_files`;
#: `make adopt` finds them there, :mod:`gradedrel.core.adoption`).
IR_DATASETS_ROOT = "ir_datasets home"


# --- facts of the machine, the checkout and the files -------------------------------------

def cpu_model(cpuinfo: str) -> str | None:
    """The CPU's name from ``/proc/cpuinfo`` text (``model name``; ARM: ``Hardware``/``Model``)."""
    for key in ("model name", "Hardware", "Model", "cpu model"):
        match = re.search(rf"^{key}\s*:\s*(.+?)\s*$", cpuinfo, re.MULTILINE)
        if match:
            return " ".join(match.group(1).split())
    return None


def ram(meminfo: str) -> str | None:
    """Installed RAM from ``/proc/meminfo`` text (``MemTotal``), in whole GB (GiB)."""
    match = re.search(r"^MemTotal:\s*(\d+)\s*kB", meminfo, re.MULTILINE)
    return f"{round(int(match.group(1)) / 1024 ** 2)} GB" if match else None


def distribution(os_release: str) -> str | None:
    """The distribution's name from ``/etc/os-release`` text (``PRETTY_NAME``)."""
    match = re.search(r'^PRETTY_NAME="?([^"\n]*)"?\s*$', os_release, re.MULTILINE)
    return match.group(1) if match else None


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def git(root: Path, *args: str) -> str | None:
    """``git -C root args…``'s output; None when git fails or is absent."""
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True,
                              timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def source(root: str | Path | None = None) -> dict:
    """The project's git commit and whether its tracked files differ (``dirty``); both None
    when ``root`` (default: the package's folder) is not a git checkout tracking the package."""
    root = Path(root) if root is not None else Path(__file__).resolve().parents[2]
    commit = git(root, "rev-parse", "HEAD")
    tracked = git(root, "ls-files", "--error-unmatch", "gradedrel/__init__.py")
    if not commit or tracked is None:
        return {"commit": None, "dirty": None}
    status = git(root, "status", "--porcelain", "--untracked-files=no")
    return {"commit": commit.strip(), "dirty": None if status is None else bool(status.strip())}


def file_record(path: str | Path) -> dict:
    """``{path, sha256, bytes}`` of a file."""
    return {"path": str(path), "sha256": sha256_of(path), "bytes": Path(path).stat().st_size}


# --- the sections -------------------------------------------------------------------------

def platform_of(software: Mapping, read: Callable[[str], str] = _read) -> dict:
    """``platform``: the facts of this machine that do not change from run to run (``read``:
    a file's text, as ``/proc/cpuinfo``), and ``software`` (:func:`software`)."""
    return {"hardware": {"cpu": {"model": cpu_model(read("/proc/cpuinfo"))
                                 or _platform.processor() or None,
                                 "architecture": _platform.machine() or None,
                                 "operation mode": _platform.architecture()[0] or None,
                                 "number of cores": os.cpu_count()},
                         "ram": ram(read("/proc/meminfo"))},
            "operating system": {
                "kernel": f"{_platform.system()} {_platform.release()}".strip() or None,
                "distribution": distribution(read("/etc/os-release"))},
            "software": dict(software)}


def implementation_section(cmd: str, commit: Mapping, version: str,
                           lang: Iterable[str] = ("python",)) -> dict:
    """``implementation``: the command, and the source (languages, repository: none
    recorded, commit; ``dirty`` and ``version``, the gradedrel package's, beside the
    schema's keys)."""
    return {"executable": {"cmd": cmd},
            "source": {"lang": list(lang), "repository": None,
                       "commit": commit.get("commit"), "dirty": commit.get("dirty"),
                       "version": version}}


def test_collection(name: str, ir_datasets: Mapping[str, str], local: Mapping[str, str],
                    files: Iterable[Mapping]) -> dict:
    """``data → test collection``: its name, where each part comes from (an ir_datasets id
    or a local file), the ir_datasets id(s) and ``files``, every file read with its sha256."""
    parts = {"docs": "documents", "topics": "topics", "qrels": "qrels"}
    out: dict[str, Any] = {"name": name}
    ids = {part: ir_datasets[part] for part in parts if ir_datasets.get(part)}
    named = {part: [v] if isinstance(v, str) else list(v) for part, v in ids.items()}
    out["source"] = ("ir_datasets" if ids and not local else
                     "local files" if local and not ids else "ir_datasets and local files")
    for part, key in parts.items():
        where = " + ".join(f"ir_datasets:{i}" for i in named.get(part, [])) or local.get(part)
        if where:
            out[key] = where
    if ids:
        values = sorted({" + ".join(v) for v in named.values()})
        out["ir_datasets"] = values[0] if len(values) == 1 else dict(ids)
    out["files"] = [dict(f) for f in files]
    return out


def document(tag: str | None, platform: Mapping, implementation: Mapping, data: Mapping,
             method: Mapping, goal: Mapping, **extra: Any) -> dict:
    """The whole record in the spec's order: versions, tag, the PRIMAD sections (the
    actor: :data:`ACTOR`), ``extra``."""
    out: dict[str, Any] = {"schema-version": SCHEMA_VERSION, "run-version": RUN_VERSION}
    if tag is not None:
        out["tag"] = tag
    return out | {"platform": dict(platform), "research goal": dict(goal),
                  "implementation": dict(implementation), "method": dict(method),
                  "actor": dict(ACTOR), "data": dict(data)} | extra


# --- text -----------------------------------------------------------------------------------

def _yaml(doc: Mapping) -> str:
    """The record as YAML: keys in document order, no line folding (the same document gives
    the same bytes)."""
    return yaml.safe_dump(plain(doc), sort_keys=False, allow_unicode=True,
                          width=float("inf"), default_flow_style=False)


def dump(doc: Mapping) -> str:
    """A record file's text (a run's, beside it; an evaluation's ``ir-metadata.yaml``): the
    YAML between the lines ``# ir_metadata.start`` and ``# ir_metadata.end``. A YAML reader
    reads exactly ``doc`` (the markers are comments), and so does repro_eval's
    ``MetadataHandler.read_metadata``, which reads the lines between the markers."""
    return f"{START}\n{_yaml(doc)}{END}\n"


def header(doc: Mapping) -> str:
    """The record as an annotated run's header (the ir_metadata spec's layout): ``# ir_metadata.start``,
    each YAML line behind ``# ``, ``# ir_metadata.end``."""
    body = _yaml(doc)
    return f"{START}\n" + "".join(f"# {line}\n" for line in body.splitlines()) + f"{END}\n"


def split(text: str) -> tuple[str, str]:
    """``(header, rest)`` of a record file's or an annotated run's text (header empty
    without a start marker on the first line); a start without an end is a ValueError."""
    if not text.startswith(START + "\n") and text.rstrip("\r\n") != START:
        return "", text
    at = text.find(f"\n{END}\n")
    if at < 0:
        if text.endswith(f"\n{END}"):
            return text, ""
        raise ValueError(f"ir_metadata: '{START}' without a line '{END}'")
    cut = at + len(END) + 2
    return text[:cut], text[cut:]


def load(text: str) -> dict:
    """The record of a record file's ``text`` (:func:`dump`): the YAML between the markers
    (an annotated run's header, all comments, is not one: repro_eval reads those)."""
    head, _ = split(text)
    if not head:
        raise ValueError(f"ir_metadata: expected '{START}' on the first line")
    value = yaml.safe_load(head)
    if not isinstance(value, dict):
        raise ValueError("ir_metadata: expected a mapping at the top level")
    return value


def record_path(run: str | os.PathLike) -> Path:
    """The file of a run's record, beside it: ``SUM-u.run`` → ``SUM-u.run.ir-metadata.yaml``."""
    return Path(f"{os.fspath(run)}.{FILE_NAME}")


def annotated(run: str | os.PathLike) -> str:
    """The run with its record (the file beside it, :func:`record_path`) as its header
    (:func:`header`), the ir_metadata spec's annotated run that repro_eval's
    ``MetadataHandler`` and ``MetadataAnalyzer`` read; an annotated run (results written
    before run files became plain TREC) is returned as it is; FileNotFoundError naming the
    file beside it when there is neither."""
    text = Path(run).read_text(encoding="utf-8")
    if split(text)[0]:
        return text
    beside = record_path(run)
    if not beside.is_file():
        raise FileNotFoundError(f"{beside}: no such file (the run's ir_metadata record), "
                                f"and {os.fspath(run)} has no '{START}' header")
    return header(load(beside.read_text(encoding="utf-8"))) + text


# --- the two documents the workflow writes -----------------------------------------------------

def software(python: str, terrier: str | None = None, java: str | None = None,
             versions: Callable[[str], str] = package_version) -> dict:
    """``platform → software`` as ``name==version`` lists: Python's libraries (Python's
    own version first), retrieval toolkits (Terrier; PyTerrier, as the ``pyterrier``
    distribution), Java's libraries."""
    def listed(parts: Mapping[str, str]) -> list[str]:
        return [f"{n}=={v}" for n, v in parts.items()]

    libraries = {name: versions(name) for name in LIBRARIES}
    pyterrier = {"pyterrier": libraries.pop("pyterrier")}
    toolkits = ({"terrier": terrier} if terrier else {}) | pyterrier
    out: dict[str, Any] = {"libraries": {"python": listed({"python": python} | libraries)},
                           "retrieval toolkit": listed(toolkits)}
    if java:
        out["libraries"]["java"] = listed({"java": java}
                                          | ({"terrier-core": terrier} if terrier else {}))
    return out


def research_goal(baseline_tags: Iterable[str], standard_measures: Iterable[str],
                  correction: str | None) -> dict:
    """``research goal``: the paper, the measures reported (the paper's, then the standard
    ones), the baseline run's tag(s) and the significance tests (``correction`` over them;
    None: no tests, ``evaluation.significance: null``)."""
    tests = [{"name": name, "correction method": correction}
             for name in ("paired t-test", "randomisation test")] if correction else []
    return PAPER | {"evaluation": {"reported measures": [*PAPER_MEASURES, *standard_measures],
                                   "baseline": list(baseline_tags),
                                   "significance test": tests}}


def other_data(thesaurus: str | None, files: Mapping[str, Mapping] | None) -> list[dict]:
    """``data → other``: the thesaurus of a plan set's plans, one entry per file (``files``:
    role → ``url`` and ``sha256`` as config pins them)."""
    if not thesaurus or not files:
        return []
    return [{"name": f"{thesaurus} thesaurus" + ("" if role == "file" else f" ({role})"),
             "source": f["url"], "sha256": str(f["sha256"]).lower()}
            for role, f in files.items()]


def method_of_run(model: str, backend: str, parameters: Mapping, depth: int,
                  census: Mapping, plan_set: Mapping, query_type: str,
                  queries: Mapping) -> dict:
    """``method`` of one run: automatic (plans not curated), score ties, the index's
    settings, the ranking component, the plan set, the query type and its query file."""
    options = census.get("options") or {}
    params = {k: v for k, v in parameters.items() if k != "wmodel"}
    wmodel = parameters.get("wmodel")
    return {"automatic": bool(plan_set.get("automatic")),
            "score ties": "docno descending (trec_eval's order; scores rounded to the 10 "
                          "significant digits written)",
            "indexing": {"tokenizer": census.get("tokeniser"), "stemmer": options.get("stemmer"),
                         "stopwords": options.get("stopwords"),
                         "blocks": options.get("blocks"), "terrier": census.get("terrier")},
            "retrieval": [{"name": model,
                           "method": f"{backend}:{wmodel}" if wmodel else backend,
                           "params": plain(params, sort=True), "depth": depth}],
            "plan set": dict(plan_set),
            "query type": query_type,
            "queries": dict(queries)}


def method_of_evaluation(measures: Iterable[str], settings: Mapping, grade_map: Mapping | None,
                         baseline: str | None, automatic: bool) -> dict:
    """``method`` of an evaluation: automatic or not, the measures and their settings."""
    evaluation = {"measures": list(measures),
                  "cutoffs": list(settings.get("cutoffs") or []),
                  "gains": {str(k): v for k, v in (settings.get("gains") or {}).items()},
                  "relevance levels": list(settings.get("levels") or []),
                  "dcg bases": list(settings.get("dcg_bases") or []),
                  "depth": settings.get("depth"),
                  "missing topics": settings.get("missing_topics"),
                  "baseline run": baseline}
    if grade_map:
        evaluation["grade map"] = {str(k): v for k, v in grade_map.items()}
    return {"automatic": bool(automatic), "evaluation": evaluation}


def data_files(local: Mapping[str, str], manifest: Mapping | None = None) -> list[dict]:
    """Every data file read, with its sha256: the local files by part, then those
    ir_datasets read under its home (from the download manifest, ``downloads.json``)."""
    return [{"part": part} | file_record(path) for part, path in local.items()] + [
        {"path": entry["path"], "root": IR_DATASETS_ROOT, "sha256": entry["sha256"],
         "bytes": entry["bytes"]} for entry in (manifest or {}).get("files", [])]


def gathered(rule: str, script: str, terrier: str | None = None,
             java: str | None = None) -> tuple[dict, dict]:
    """``(platform, implementation)`` of this process: the machine, the versions, the
    project's commit (one function, so every file says the same)."""
    implementation = implementation_section(
        f"snakemake (rule {rule}: {script})", source(), package_version("gradedrel"),
        lang=("python", "java") if java else ("python",))
    platform = platform_of(software(_platform.python_version(), terrier, java))
    return platform, implementation


def run_record(tag: str, collection: str, ids: Mapping[str, Any], local: Mapping[str, str],
               manifest: Mapping | None, other: list[dict], method: Mapping,
               goal: Mapping, platform: Mapping, implementation: Mapping) -> dict:
    """One run's record: the documents and topics it was made from (not the judgements,
    which a run does not read), the thesaurus (``other``), the method. ``ids``: the
    ir_datasets ids of its documents and topics."""
    data = {"test collection": test_collection(
        collection, ids, local, data_files(local, manifest)), "other": list(other)}
    return document(tag, platform, implementation, data, method, goal)


def evaluation_document(collection: str, ids: Mapping[str, Any], local: Mapping[str, str],
                        manifest: Mapping | None, qrels: Mapping[str, str], method: Mapping,
                        runs: list[dict], platform: Mapping, implementation: Mapping,
                        goal: Mapping, other: list[dict] = ()) -> dict:
    """An evaluation's record: the collection (``qrels``: name → path of the mapped
    judgements read), the thesaurus of its runs (``other``), the measures and their
    settings, each run file (``runs``: label, file, sha256)."""
    files = data_files(local, manifest) + [{"part": f"qrels ({name})"} | file_record(path)
                                           for name, path in qrels.items()]
    data = {"test collection": test_collection(collection, ids, local, files),
            "other": list(other)}
    return document(None, platform, implementation, data, method, goal, runs=runs)


def read_manifest(path) -> dict | None:
    """The download manifest (``downloads.json``) at ``path``; None for local files (no path)."""
    if not path:  # None, or a named input without a file (local files: an empty list)
        return None
    return json.loads(Path(path).read_text(encoding="utf-8"))
