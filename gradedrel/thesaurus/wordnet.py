"""Princeton WordNet 3.0 (WNDB data files) -> the thesaurus model, read from Debian's .deb.

The source is Debian's ``wordnet-base_3.0-37_all.deb``: an ``ar`` archive (parsed here)
holding ``data.tar.xz`` (``tarfile``), whose ``usr/share/wordnet/data.{noun,verb,adj,adv}``
are read in memory; standard library only, nothing extracted to disk.

A synset is a concept (``wn:<pos>:<offset>``; adjective satellites get ``a``); its lemmas
its labels (first preferred, others UF); BT hypernyms ``@ @i``, NT hyponyms ``~ ~i``, RT
similar-to ``&`` and also-see ``^``; the gloss its definition; other pointers are left out
(:func:`provenance`; docs/thesaurus.md, "WordNet", gives the reasons). Which parts of
speech are read is an option (``pos``, default all four).
"""
from __future__ import annotations

import io
import lzma
import re
import tarfile
from pathlib import Path

from gradedrel.core.errors import InputError
from gradedrel.core.progress import progress
from .model import Concept, Thesaurus

#: Bump when the reader's output can change: it keys the cache.
READER_VERSION = 1

POS = ("n", "v", "a", "r")
_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
#: Where the WNDB data files are inside the package's data.tar.
DATA_DIR = "usr/share/wordnet"
BROADER = frozenset({"@", "@i"})
NARROWER = frozenset({"~", "~i"})
RELATED = frozenset({"&", "^"})
_MARKER = re.compile(r"\((?:a|p|ip)\)$")
_AR_MAGIC = b"!<arch>\n"


def ar_members(data: bytes, path: str | Path = "<deb>") -> dict[str, bytes]:
    """The members of an ``ar`` archive (a .deb): name -> bytes.

    Format: the global header ``!<arch>\\n``; then per member a 60-byte header
    (name 16, mtime 12, uid 6, gid 6, mode 8, size 10, ``\\x60\\n``), the data,
    and one padding byte if the size is odd. GNU ar ends names with ``/``.
    """
    if not data.startswith(_AR_MAGIC):
        raise InputError(path, None, "a Debian package (an ar archive beginning "
                         "'!<arch>\\n')", data[:8])
    members: dict[str, bytes] = {}
    offset = len(_AR_MAGIC)
    while offset < len(data):
        header = data[offset:offset + 60]
        if len(header) < 60 or header[58:60] != b"`\n":
            raise InputError(path, None, f"an ar member header at byte {offset}",
                             header[:16])
        name = header[:16].decode("ascii", "replace").strip().rstrip("/")
        try:
            size = int(header[48:58])
        except ValueError:
            raise InputError(path, None, f"a decimal member size at byte {offset + 48}",
                             header[48:58]) from None
        start = offset + 60
        if start + size > len(data):
            raise InputError(path, None, f"{size} bytes of member {name!r}",
                             f"{len(data) - start} bytes (truncated)")
        members[name] = data[start:start + size]
        offset = start + size + (size & 1)
    return members


def wndb_files(path: str | Path, pos: tuple[str, ...] = POS) -> dict[str, bytes]:
    """``data.<pos>`` file contents (by POS letter) from the .deb at ``path``."""
    path = Path(path)
    if not path.exists():
        raise InputError(path, None, "the WordNet package (wordnet-base_3.0-37_all.deb)",
                         "no such file")
    members = ar_members(path.read_bytes(), path)
    tar_name = next((n for n in members if n.startswith("data.tar")), None)
    if tar_name is None:
        raise InputError(path, None, "a data.tar.* member in the .deb", sorted(members))
    wanted = {f"{DATA_DIR}/data.{_FILES[p]}": p for p in pos}
    out: dict[str, bytes] = {}
    try:
        with tarfile.open(fileobj=io.BytesIO(members[tar_name]), mode="r:*") as tar:
            for member in tar:
                name = member.name[2:] if member.name.startswith("./") else member.name
                if name in wanted and member.isfile():
                    out[wanted[name]] = tar.extractfile(member).read()
    except (tarfile.TarError, lzma.LZMAError, EOFError) as error:
        raise InputError(path, None, f"a readable {tar_name}", str(error)) from None
    missing = [f"{DATA_DIR}/data.{_FILES[p]}" for p in pos if p not in out]
    if missing:
        raise InputError(path, None, f"WNDB data files in {tar_name}", f"missing {missing}")
    return out


def _lemma(word: str) -> str:
    return _MARKER.sub("", word).replace("_", " ")


def parse_data(text: str, pos: str, keep: frozenset[str], where: str = "<data>"):
    """Synsets of one WNDB ``data.<pos>`` file: yield ``(id, lemmas, pointers, gloss)``.

    A line (wndb(5WN)): ``offset lex_filenum ss_type w_cnt [word lex_id]...
    p_cnt [ptr_symbol offset pos source/target]... [frames] | gloss``; ``w_cnt`` is
    two hex digits, ``p_cnt`` three decimal digits. Lines beginning with two spaces
    are the licence header. ``pointers`` keeps only symbols in ``keep``, as
    ``(symbol, target id)``; ``keep`` restricted to POS read elsewhere is the caller's.
    """
    for number, line in enumerate(text.splitlines(), 1):
        if not line or line.startswith("  "):
            continue
        body, bar, gloss = line.partition(" | ")
        fields = body.split()
        try:
            if not bar and not body.rstrip().endswith("|"):
                raise ValueError("no ' | ' before the gloss")
            offset, ss_type = fields[0], fields[2]
            if len(offset) != 8 or not offset.isdigit():
                raise ValueError(f"offset {offset!r} is not 8 digits")
            if ss_type not in ("n", "v", "a", "s", "r"):
                raise ValueError(f"synset type {ss_type!r}")
            w_cnt = int(fields[3], 16)
            lemmas = [_lemma(fields[4 + 2 * i]) for i in range(w_cnt)]
            at = 4 + 2 * w_cnt
            p_cnt = int(fields[at])
            at += 1
            pointers = []
            for _ in range(p_cnt):
                symbol, target, target_pos, _st = fields[at:at + 4]
                if len(target) != 8 or target_pos not in ("n", "v", "a", "s", "r"):
                    raise ValueError(f"pointer {' '.join(fields[at:at + 4])!r}")
                at += 4
                if symbol in keep:
                    pointers.append((symbol, f"wn:{'a' if target_pos == 's' else target_pos}"
                                              f":{target}"))
        except (ValueError, IndexError) as error:
            raise InputError(where, number, "a WNDB synset line (offset lex_filenum ss_type "
                             "w_cnt words p_cnt pointers | gloss)",
                             f"{line[:60]}... ({error})") from None
        if not lemmas:
            raise InputError(where, number, "a synset with at least one word", line[:60])
        yield f"wn:{pos}:{offset}", lemmas, pointers, gloss.strip()


def read_wordnet(path: str | Path, pos: tuple[str, ...] | list[str] = POS) -> Thesaurus:
    """Read the WordNet .deb at ``path`` into the model (see the module docstring).

    ``pos`` selects the parts of speech (``n v a r``); pointers to synsets of a POS
    not read are dropped, so every link resolves.
    """
    pos = tuple(pos)
    bad = [p for p in pos if p not in POS]
    if bad or not pos:
        raise InputError(path, None, f"parts of speech among {list(POS)}", list(pos))
    files = wndb_files(path, pos)
    keep = BROADER | NARROWER | RELATED
    concepts: dict[str, Concept] = {}
    wanted = {f"wn:{p}:" for p in pos}
    for p in (p for p in POS if p in files):
        where = f"{path}!{DATA_DIR}/data.{_FILES[p]}"
        try:
            text = files[p].decode("utf-8")
        except UnicodeDecodeError as error:
            raise InputError(where, None, "UTF-8 text", str(error)) from None
        for uri, lemmas, pointers, gloss in progress(
                parse_data(text, p, keep, where), unit="synsets",
                desc=f"reading {Path(path).name}!data.{_FILES[p]}"):
            rel: dict[str, dict[str, None]] = {"b": {}, "n": {}, "r": {}}
            for symbol, target in pointers:
                if target[:5] not in wanted or target == uri:
                    continue
                slot = "b" if symbol in BROADER else "n" if symbol in NARROWER else "r"
                rel[slot][target] = None
            labels = list(dict.fromkeys(lemmas))
            concepts[uri] = Concept(uri, labels[0], tuple(labels[1:]), tuple(rel["b"]),
                                    tuple(rel["n"]), tuple(rel["r"]), gloss or None)
    dangling = {t for c in concepts.values() for t in c.broader + c.narrower + c.related
                if t not in concepts}
    if dangling:
        raise InputError(path, None, "pointers to synsets in the data files",
                         f"{len(dangling)} unknown targets, e.g. {sorted(dangling)[:3]}")
    return Thesaurus(concepts)


def provenance() -> dict:
    """How the WordNet relations map to the model (recorded with the cache)."""
    return {"reader": "gradedrel.thesaurus.wordnet", "reader_version": READER_VERSION,
            "concept": "synset (wn:<pos>:<offset>)",
            "labels": "lemmas, '_' as space; first preferred, others UF",
            "BT": "hypernym @, instance hypernym @i",
            "NT": "hyponym ~, instance hyponym ~i",
            "RT": "similar-to &, also-see ^ (adjectives and verbs only)",
            "definition": "gloss"}
