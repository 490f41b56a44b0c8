"""MeSH (NLM Medical Subject Headings) from R data-frame exports (RDS) -> the thesaurus model.

The source is two RDS files of the public repository ``jaytimm/mesh-resources``
(pinned in :mod:`.sources`), made from NLM's ``desc2024`` and ``mtrees2024``:

- ``data_mesh_thesaurus.rds`` (*descriptors*): one row per term of a descriptor —
  ``DescriptorUI, DescriptorName, ConceptUI, TermUI, TermName,
  ConceptPreferredTermYN, IsPermutedTermYN, LexicalTag, RecordPreferredTermYN``;
- ``data_mesh_trees.rds`` (*trees*): one row per tree number of a descriptor —
  ``DescriptorUI, DescriptorName, tree_location, ...``.

Mapping (docs/thesaurus.md, "MeSH"):

- a **descriptor** is a concept, id ``mesh:<DescriptorUI>`` (``mesh:D014805``);
- ``DescriptorName`` is the preferred label; the ``TermName`` of every term of
  every concept of the descriptor but the name itself is an entry label (UF). NLM's
  *permuted* terms (``IsPermutedTermYN = Y``) are among them: in this export they are the
  natural-order and singular forms of the inverted entry terms ("Atopic Dermatitis" of
  "Dermatitis, Atopic", "Heart Disease" of "Heart Diseases"), as well as a few reorderings
  ("B 12, Vitamin"); the mark is kept as data (:attr:`~.model.Concept.permuted`);
- **BT/NT** from tree numbers: the parent of tree number ``C18.654.521.500.133``
  is the descriptor holding ``C18.654.521.500``; a descriptor with several tree
  numbers can have several parents; a top-level number (``C18``) has none. The
  export has no one-segment tree numbers (``C14`` = Cardiovascular Diseases): they
  are restored from each row's own heading columns (``tree1``, ``mesh1``) when the
  heading name is exactly one descriptor's name, so ``C14.280`` gets its BT;
- **RT is empty**: this export has no "See Also" (related) relation;
- no definitions (the export has no scope notes).

The RDS files are read by :func:`read_frame_strings`, a reader of R's XDR
serialisation for what a data frame of vectors is made of (version 2 or 3; pairlists,
symbols, references, logical/integer/real/character/list vectors, external pointers
(data.table's self-reference), compact ALTREP row names). It decodes the needed columns'
strings straight from the bytes: the MeSH descriptors in 1.4 CPU s, where the ``rdata``
package's generic parser takes 49.8 s.
Anything else in a file (an environment, a closure, a long vector …) hands the file
to ``rdata``'s parser, which reads every R object; tests compare both with
``rdata.read_rds``.
"""
from __future__ import annotations

import bz2
import gzip
import logging
import lzma
import struct
import time
from pathlib import Path

from gradedrel.core.errors import InputError
from .model import Concept, Thesaurus

log = logging.getLogger(__name__)

#: Bump when the reader's output can change: it keys the cache.
READER_VERSION = 2

PREFIX = "mesh:"
DESCRIPTOR_COLUMNS = ("DescriptorUI", "DescriptorName", "TermName", "IsPermutedTermYN")
TREE_COLUMNS = ("DescriptorUI", "tree_location", "tree1", "mesh1")
#: The files the source is made of (roles in the config's ``files``).
ROLES = ("descriptors", "trees")

_UTF8, _LATIN1 = 1 << 3, 1 << 2  # R's CHARSXP encoding flags (gp bits)


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
    # rdata parses the whole file in one call (half a minute for the MeSH descriptors),
    # with no progress of its own: a line before and one after, with the rate
    log.info("parsing %s (%.1f MB, R serialised data)", path.name, path.stat().st_size / 1e6)
    started = time.monotonic()
    out = read_frame_strings(path, columns)
    if out is not None:
        _parsed(path, out, columns, started)
        return out
    try:
        parsed = rdata.parser.parse_file(path, extension=".rds")
    except Exception as error:  # rdata raises many types on bad input; one clear line
        text = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise InputError(path, None, "an RDS file (R serialised data, gzip/bzip2/xz "
                         "or plain)", text) from None
    root = parsed.object
    vec = rdata.parser.RObjectType.VEC
    names = _attribute(root, "names") if root.info.type is vec else None
    if names is None:
        raise InputError(path, None, "an R data frame (a list with names)",
                         root.info.type.name)
    names = [_string(c) for c in names.value]
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
        out[column] = [_string(c) for c in vector.value]
    _parsed(path, out, columns, started)
    return out


def _parsed(path: Path, out: dict, columns: tuple[str, ...], started: float) -> None:
    seconds = time.monotonic() - started
    rows = len(out[columns[0]]) if columns else 0
    log.info("parsed %s: %d rows in %.1f s (%.0f rows/s)", path.name, rows, seconds,
             rows / seconds if seconds > 0 else 0.0)


class _Unsupported(Exception):
    """Something :func:`read_frame_strings` does not read: ``rdata``'s parser does."""


#: R's SEXP types met in a data frame (R Internals, "Serialization formats").
_SYM, _LIST, _CHAR, _LGL, _INT, _REAL, _CPLX, _STR, _VEC = 1, 2, 9, 10, 13, 14, 15, 16, 19
_EXTPTR, _ALTREP, _NILVALUE, _REF = 22, 238, 254, 255
_WIDTH = {_LGL: 4, _INT: 4, _REAL: 8, _CPLX: 16}
_INT32 = struct.Struct(">i")
_TWO_INT32 = struct.Struct(">ii")


def _decompressed(path: Path) -> bytes:
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        return gzip.decompress(raw)
    if raw[:3] == b"BZh":
        return bz2.decompress(raw)
    if raw[:6] == b"\xfd7zXZ\x00":
        return lzma.decompress(raw)
    return raw


def read_frame_strings(path: str | Path, columns: tuple[str, ...]) -> dict[str, list] | None:
    """The named character columns of the R data frame in the RDS file ``path``, read
    from the bytes (see the module docstring); None when the file holds anything this
    reader does not read, or is no data frame with those character columns (the caller
    then asks ``rdata``, which reads it or says what is wrong)."""
    try:
        data = _decompressed(Path(path))
        frame = _Reader(data).frame()
    except (_Unsupported, struct.error, IndexError, EOFError, OSError, lzma.LZMAError,
            UnicodeDecodeError, RecursionError):
        return None
    names = frame.get("names")
    if not isinstance(names, list) or len(names) != len(frame["value"]):
        return None
    out = {}
    for column in columns:
        if column not in names:
            return None
        vector = frame["value"][names.index(column)]
        if not isinstance(vector, list):  # not a character vector
            return None
        out[column] = vector
    return out


class _Reader:
    """R's XDR serialisation (``X\\n``), for data frames: a character vector reads as a
    list of str/None; other vectors are skipped (their length kept); a pairlist of
    attributes reads as a dict by tag."""

    def __init__(self, data: bytes):
        self.data, self.pos, self.refs = data, 0, []

    def int32(self) -> int:
        value, = _INT32.unpack_from(self.data, self.pos)
        self.pos += 4
        return value

    def length(self) -> int:
        n = self.int32()
        if n == -1:  # a long vector: two words
            upper, lower = _TWO_INT32.unpack_from(self.data, self.pos)
            self.pos += 8
            n = (upper << 32) + (lower & 0xFFFFFFFF)
        return n

    def frame(self) -> dict:
        if self.data[:2] != b"X\n":
            raise _Unsupported("not XDR")
        self.pos = 2
        version = self.int32()
        self.pos += 8  # writer's and minimal reader's R versions
        if version == 3:
            size = self.int32()  # the native encoding's name
            self.pos += size
        elif version != 2:
            raise _Unsupported(f"version {version}")
        top = self.item()
        if not isinstance(top, dict) or top.get("type") != _VEC:
            raise _Unsupported("not a list")
        return top

    def item(self):
        flags = self.int32()
        kind = flags & 0xFF
        has_attributes, has_tag = flags & (1 << 9), flags & (1 << 10)
        if kind == _NILVALUE:
            return None
        if kind == _REF:
            index = flags >> 8 or self.int32()
            return self.refs[index - 1]
        if kind == _SYM:
            symbol = ("symbol", self.item())
            self.refs.append(symbol)
            return symbol
        if kind == _LIST:
            if has_attributes:
                self.item()
            tag = self.item() if has_tag else None
            value = self.item()
            rest = self.item()
            pairs = {tag[1] if isinstance(tag, tuple) else None: value}
            if isinstance(rest, dict) and rest.get("type") == _LIST:
                for name, later in rest["pairs"].items():
                    pairs.setdefault(name, later)  # the first of a tag, as R's getAttrib
            elif rest is not None:
                raise _Unsupported("a dotted pairlist")
            return {"type": _LIST, "pairs": pairs}
        if kind == _CHAR:
            return self.char(flags)
        if kind == _ALTREP:
            self.item()  # class, package and type
            self.item()  # state (compact row names: length, start, step)
            self.item()  # attributes
            return {"type": _ALTREP}
        if kind in _WIDTH:
            n = self.length()
            self.pos += n * _WIDTH[kind]
            if self.pos > len(self.data):
                raise EOFError
            value = {"type": kind, "length": n}
        elif kind == _STR:
            value = {"type": kind, "value": self.strings(self.length())}
        elif kind == _EXTPTR:  # data.table's .internal.selfref: a reference, then two items
            value = {"type": kind}
            self.refs.append(value)
            self.item()  # protected value
            self.item()  # tag
        elif kind == _VEC:
            n = self.length()
            value = {"type": kind,
                     "value": [self._plain(self.item()) for _ in range(n)]}
        else:
            raise _Unsupported(f"SEXP type {kind}")
        if has_attributes:
            attributes = self.item()
            if isinstance(attributes, dict) and attributes.get("type") == _LIST:
                for name, attribute in attributes["pairs"].items():
                    if name == "names":
                        value["names"] = self._plain(attribute)
        return value

    @staticmethod
    def _plain(obj):
        """A character vector as its list of strings, anything else as read."""
        return obj["value"] if isinstance(obj, dict) and obj.get("type") == _STR else obj

    def char(self, flags: int) -> str | None:
        n = self.int32()
        if n == -1:
            return None
        raw = self.data[self.pos:self.pos + n]
        if len(raw) != n:
            raise EOFError
        self.pos += n
        gp = (flags >> 12) & 0xFFFF
        return raw.decode("latin-1" if gp & _LATIN1 and not gp & _UTF8 else "utf-8")

    def strings(self, n: int) -> list:
        data, pos, out = self.data, self.pos, []
        unpack, append = _TWO_INT32.unpack_from, out.append
        for _ in range(n):
            flags, size = unpack(data, pos)
            pos += 8
            if flags & 0xFF != _CHAR:
                raise _Unsupported("a character vector of other than CHARSXP")
            if size == -1:
                append(None)
                continue
            gp = (flags >> 12) & 0xFFFF
            end = pos + size
            if end > len(data):
                raise EOFError
            append(data[pos:end].decode("latin-1" if gp & _LATIN1 and not gp & _UTF8
                                        else "utf-8"))
            pos = end
        self.pos = pos
        return out


def _attribute(obj, name: str):
    """The value of attribute ``name`` of a parsed R object (a pairlist walk)."""
    node = obj.attributes
    while node is not None and node.value is not None and isinstance(node.value, tuple):
        value, rest = node.value
        tag = node.tag
        if tag is not None and tag.value is not None and tag.value.value == name.encode():
            return value
        node = rest
    return None


def _string(char) -> str | None:
    value = char.value
    if value is None:
        return None
    if char.info.gp & _LATIN1 and not char.info.gp & _UTF8:
        return value.decode("latin-1")
    return value.decode("utf-8")


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
