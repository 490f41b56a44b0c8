"""The ir_metadata records' validator: the tests' oracle of what a record must hold
(``tests/core/test_ir_metadata.py``, ``tests/workflow/test_workflow_metadata.py``; the
package writes records, :mod:`gradedrel.core.ir_metadata`, and checks none). Required keys
and types after the schema's checklists (irgroup/ir_metadata docs/metadata/*.md)."""
from __future__ import annotations

import re
from typing import Any, Mapping

_OPTIONAL = type(None)
#: Required keys (paths) and their types, after the schema's checklists (irgroup/ir_metadata
#: docs/metadata/*.md); None where a fact may be unknown (no CPU model, a copy outside git).
REQUIRED: dict[tuple[str, ...], tuple[type, ...]] = {
    ("schema-version",): (str,),
    ("run-version",): (str,),
    ("platform",): (dict,),
    ("platform", "hardware", "cpu", "model"): (str, _OPTIONAL),
    ("platform", "hardware", "cpu", "architecture"): (str, _OPTIONAL),
    ("platform", "hardware", "cpu", "operation mode"): (str, _OPTIONAL),
    ("platform", "hardware", "cpu", "number of cores"): (int, _OPTIONAL),
    ("platform", "hardware", "ram"): (str, _OPTIONAL),
    ("platform", "operating system", "kernel"): (str, _OPTIONAL),
    ("platform", "operating system", "distribution"): (str, _OPTIONAL),
    ("platform", "software", "libraries"): (dict,),
    ("platform", "software", "retrieval toolkit"): (list,),
    ("implementation",): (dict,),
    ("implementation", "executable", "cmd"): (str,),
    ("implementation", "source", "lang"): (list,),
    ("implementation", "source", "commit"): (str, _OPTIONAL),
    ("data",): (dict,),
    ("data", "test collection", "name"): (str,),
    ("data", "test collection", "files"): (list,),
    ("method",): (dict,),
    ("research goal", "venue", "name"): (str,),
    ("research goal", "evaluation", "reported measures"): (list,),
    ("research goal", "evaluation", "baseline"): (list,),
    ("actor", "role"): (str,),
    ("data", "other"): (list,),
}
#: Keys of the schema that, where present, take these types.
OPTIONAL: dict[tuple[str, ...], tuple[type, ...]] = {
    ("tag",): (str,),
    ("implementation", "source", "repository"): (str, _OPTIONAL),
    ("method", "automatic"): (bool,),
    ("method", "score ties"): (str,),
    ("method", "indexing"): (dict,),
    ("method", "retrieval"): (list,),
    ("data", "test collection", "ir_datasets"): (str, dict),
    ("data", "training data"): (list,),
}
#: The top-level sections the schema names (PRIMAD).
SECTIONS = ("platform", "research goal", "implementation", "method", "actor", "data")


_ABSENT = object()


def _at(doc: Any, path: tuple[str, ...]):
    for key in path:
        if not isinstance(doc, dict) or key not in doc:
            return _ABSENT
        doc = doc[key]
    return doc


def validate(doc: Any, extra_required: Mapping[tuple[str, ...], tuple[type, ...]] = {}) -> list[str]:
    """One line per problem: a required key missing, a value of the wrong type, a section
    not a mapping, a file record without path and sha256, a retrieval component unnamed."""
    if not isinstance(doc, dict):
        return ["ir_metadata: expected a mapping at the top level"]
    problems = []
    required_paths = REQUIRED | dict(extra_required)
    optional = {k: v for k, v in OPTIONAL.items() if k not in required_paths}
    for table, required in ((required_paths, True), (optional, False)):
        for path, kinds in table.items():
            where = " → ".join(path)
            value = _at(doc, path)
            if value is _ABSENT:
                if required:
                    problems.append(f"ir_metadata: {where}: missing")
                continue
            if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
                names = " or ".join("null" if k is _OPTIONAL else k.__name__ for k in kinds)
                problems.append(f"ir_metadata: {where}: expected {names}; "
                                f"found {type(value).__name__}")
    for section in SECTIONS:
        if section in doc and not isinstance(doc[section], dict):
            problems.append(f"ir_metadata: {section}: expected a mapping")
    libraries = (doc.get("platform") or {}).get("software", {}).get("libraries")
    if isinstance(libraries, dict):
        for lang, listed in libraries.items():
            if not isinstance(listed, list) or not all(isinstance(x, str) for x in listed):
                problems.append(f"ir_metadata: platform → software → libraries → {lang}: "
                                "expected a list of 'name==version'")
    files = _at(doc, ("data", "test collection", "files"))
    for i, record in enumerate(files if isinstance(files, list) else []):
        if not (isinstance(record, dict) and isinstance(record.get("path"), str)
                and re.fullmatch(r"[0-9a-f]{64}", str(record.get("sha256", "")))):
            problems.append(f"ir_metadata: data → test collection → files[{i}]: expected "
                            "a path and a sha256 (64 hex digits)")
    for i, component in enumerate((doc.get("method") or {}).get("retrieval") or []):
        if not (isinstance(component, dict) and isinstance(component.get("name"), str)):
            problems.append(f"ir_metadata: method → retrieval[{i}]: expected a mapping "
                            "with a name")
    return problems


#: What a run file's record holds beyond the schema's required keys.
RUN_REQUIRED = {("tag",): (str,), ("method", "retrieval"): (list,),
                ("method", "indexing"): (dict,), ("method", "automatic"): (bool,),
                ("method", "plan set"): (dict,), ("method", "query type"): (str,),
                ("method", "queries", "sha256"): (str,)}
#: What an evaluation's record holds beyond them.
EVALUATION_REQUIRED = {("method", "automatic"): (bool,),
                       ("method", "evaluation", "measures"): (list,),
                       ("method", "evaluation", "cutoffs"): (list,),
                       ("method", "evaluation", "gains"): (dict,),
                       ("method", "evaluation", "relevance levels"): (list,),
                       ("runs",): (list,)}
