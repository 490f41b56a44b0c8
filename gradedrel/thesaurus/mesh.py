"""MeSH (NLM Medical Subject Headings) from R data-frame exports (RDS) -> the thesaurus model.

The source is two RDS files of ``jaytimm/mesh-resources`` (pinned in the config), made from
NLM's ``desc2024`` and ``mtrees2024``: ``data_mesh_thesaurus.rds`` (*descriptors*, one row
per term of a descriptor) and ``data_mesh_trees.rds`` (*trees*, one row per tree number).
A descriptor is a concept (``mesh:D014805``); its name is the preferred label, its terms'
names are UF (NLM's permuted forms among them, marked: :attr:`~.model.Concept.permuted`);
BT/NT come from tree numbers (the parent of ``C18.654.521`` holds ``C18.654``; the
one-segment numbers the export lacks are restored from each row's ``tree1``/``mesh1``); no
RT and no definitions, which the export lacks (:func:`provenance`; docs/thesaurus.md, "MeSH").

The files are parsed by ``rdata``: 46.5–51.9 s of CPU for the two (2026-12-02), against
1.9–2.3 s for the hand reader of R's serialisation that commit 667b1c0 still had. Issue 31
kept a hand reader only if it saved more than 10 % of the NFCorpus main job's CPU; it saved
about 47 of that job's ≈ 985 CPU s (4.8 %). The workflow reads MeSH once and caches the model.
"""
from __future__ import annotations

import logging
import time
import warnings
from pathlib import Path

from gradedrel.core.errors import InputError
from .model import Concept, Thesaurus

log = logging.getLogger(__name__)

#: Bump when the reader's output can change: it keys the cache.
READER_VERSION = 2

PREFIX = "mesh:"
DESCRIPTOR_COLUMNS = ("DescriptorUI", "DescriptorName", "TermName", "IsPermutedTermYN")
TREE_COLUMNS = ("DescriptorUI", "tree_location", "tree1", "mesh1")


def frame_columns(path: str | Path, columns: tuple[str, ...]) -> dict[str, list]:
    """The named character columns of the R data frame in the RDS file ``path``.

    Strings are decoded as R marks them (UTF-8 or Latin-1; ASCII and unmarked as
    UTF-8); ``NA`` is ``None``. One :class:`InputError` naming the file if it is
    not an RDS file, not a data frame, or lacks a column or has a non-character one.
    """
    try:
        import rdata
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise InputError(path, None, "the rdata package installed (pip install "
                         "rdata==1.1.0) to read MeSH RDS files", str(error)) from None
    path = Path(path)
    if not path.exists():
        raise InputError(path, None, "an RDS file (R data frame)", "no such file")
    # rdata parses the whole file in one call (about 45 s for the MeSH descriptors), with
    # no progress of its own: a line before and one after, with the rate
    log.info("parsing %s (%.1f MB, R serialised data)", path.name, path.stat().st_size / 1e6)
    started = time.monotonic()
    try:
        parsed = rdata.parser.parse_file(path, extension=".rds")
    except Exception as error:  # rdata raises many types on bad input; one clear line
        text = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise InputError(path, None, "an RDS file (R serialised data, gzip/bzip2/xz "
                         "or plain)", text) from None
    root = parsed.object
    # rdata's own decoding of a string: as R marks it (UTF-8, Latin-1), unmarked as UTF-8
    converter = rdata.conversion.SimpleConverter(default_encoding="utf_8")
    attributes = _decoded(converter, root.attributes, path) if root.attributes else {}
    names = attributes.get("names") if root.info.type is rdata.parser.RObjectType.VEC else None
    if names is None:
        raise InputError(path, None, "an R data frame (a list with names)",
                         root.info.type.name)
    names = names.tolist()
    missing = [c for c in columns if c not in names]
    if missing:
        raise InputError(path, None, f"data-frame columns {list(columns)}",
                         f"columns {names} (missing {missing})")
    out = {}
    for column in columns:
        vector = root.value[names.index(column)]
        if vector.info.type is not rdata.parser.RObjectType.STR:
            raise InputError(path, None, f"column {column!r} of character strings",
                             vector.info.type.name)
        out[column] = _decoded(converter, vector, path).tolist()
    seconds = time.monotonic() - started
    rows = len(out[columns[0]]) if columns else 0
    log.info("parsed %s: %d rows in %.1f s (%.0f rows/s)", path.name, rows, seconds,
             rows / seconds if seconds > 0 else 0.0)
    return out


def _decoded(converter, obj, path: Path):
    """rdata's conversion of ``obj``; a string it cannot decode as R marks it is one
    :class:`InputError` naming the file (rdata warns and keeps the bytes)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message="Exception while decoding")
        try:
            return converter.convert(obj)
        except UserWarning as warning:
            raise InputError(path, None, "strings encoded as R marks them (UTF-8, Latin-1)",
                             str(warning)) from None


def read_mesh(descriptors: str | Path, trees: str | Path) -> Thesaurus:
    """Read the two MeSH RDS files into the model (see the module docstring)."""
    rows = frame_columns(descriptors, DESCRIPTOR_COLUMNS)
    labels: dict[str, dict[str, None]] = {}
    permuted_labels: dict[str, dict[str, None]] = {}
    natural: set[tuple[str, str]] = set()   # (descriptor, term) given once without the mark
    names: dict[str, str] = {}
    for number, (ui, name, term, permuted) in enumerate(zip(
            rows["DescriptorUI"], rows["DescriptorName"], rows["TermName"],
            rows["IsPermutedTermYN"]), 1):
        if not ui or not name:
            raise InputError(descriptors, None, "a DescriptorUI and DescriptorName in "
                             f"every row", f"row {number}: {ui!r}, {name!r}")
        if names.setdefault(ui, name) != name:
            raise InputError(descriptors, None, f"one DescriptorName per DescriptorUI ({ui})",
                             [names[ui], name])
        bucket = labels.setdefault(ui, {})
        if term and term != name:
            bucket[term] = None
            if permuted == "Y":
                permuted_labels.setdefault(ui, {})[term] = None
            else:
                natural.add((ui, term))
    if not names:
        raise InputError(descriptors, None, "MeSH descriptor rows", "none")
    tree_rows = frame_columns(trees, TREE_COLUMNS)
    holder: dict[str, str] = {}
    numbers: list[tuple[str, str]] = []
    for number, (ui, tree) in enumerate(zip(tree_rows["DescriptorUI"],
                                            tree_rows["tree_location"]), 1):
        if not ui or not tree:
            raise InputError(trees, None, "a DescriptorUI and tree_location in every row",
                             f"row {number}: {ui!r}, {tree!r}")
        if holder.setdefault(tree, ui) != ui:
            raise InputError(trees, None, f"one descriptor per tree number ({tree})",
                             [holder[tree], ui])
        numbers.append((ui, tree))
    # The export leaves out the one-segment tree numbers (C14, A01, ...: 115 headings
    # such as "Cardiovascular Diseases"); each row names its heading (tree1, mesh1).
    # Restore a heading's number where its name is exactly one descriptor's name.
    by_name: dict[str, list[str]] = {}
    for ui, name in names.items():
        by_name.setdefault(name, []).append(ui)
    for tree, heading in zip(tree_rows["tree1"], tree_rows["mesh1"]):
        if tree and heading and "." not in tree and tree not in holder \
                and len(by_name.get(heading, ())) == 1:
            holder[tree] = by_name[heading][0]
            numbers.append((by_name[heading][0], tree))
    broader: dict[str, dict[str, None]] = {ui: {} for ui in names}
    narrower: dict[str, dict[str, None]] = {ui: {} for ui in names}
    for ui, tree in numbers:
        if ui not in names or "." not in tree:
            continue  # a tree row of an unknown descriptor; a top-level number
        parent = holder.get(tree.rsplit(".", 1)[0])
        if parent is None or parent == ui or parent not in names:
            continue
        broader[ui][PREFIX + parent] = None
        narrower[parent][PREFIX + ui] = None
    concepts = {}
    for ui, name in names.items():
        uri = PREFIX + ui
        concepts[uri] = Concept(uri, name, tuple(labels[ui]), tuple(broader[ui]),
                                tuple(narrower[ui]),
                                permuted=tuple(t for t in permuted_labels.get(ui, ())
                                               if (ui, t) not in natural))
    return Thesaurus(concepts)


def provenance() -> dict:
    """How the MeSH export maps to the model (recorded with the cache)."""
    return {"reader": "gradedrel.thesaurus.mesh", "reader_version": READER_VERSION,
            "concept": "descriptor (mesh:<DescriptorUI>)",
            "labels": "DescriptorName preferred; TermName of every term of the descriptor "
                      "as UF, permuted forms (IsPermutedTermYN = Y) included and marked",
            "BT": "descriptor of the tree number minus its last segment (one-segment "
                  "numbers, absent from the export, restored from tree1/mesh1)",
            "NT": "inverse of BT",
            "RT": "none: this export (jaytimm/mesh-resources) has no See Also relation",
            "definition": "none: the export has no scope notes"}
