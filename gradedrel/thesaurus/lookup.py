"""Looking a term up in the thesaurus, for the people who curate plans.

``gradedrel thesaurus lookup "aeroelastic"`` prints every matching concept with
its UF (alternative labels), BT, NT and RT, and its definition. ``--thesaurus
NAME`` takes any source under ``thesauri:`` (SKOS, MeSH, WordNet); several terms
may be given, each answered under its own heading.

A label matches the term at the first of three levels that applies, compared
on labels normalised by :func:`~.model.normalise_label` (``~`` mark stripped,
case folded) and tokenised like the index (:func:`gradedrel.core.text.tokenise`):

1. ``label``  – the whole label equals the term;
2. ``stem``   – the labels' words equal the term's words after Harman's
   S-stemmer (plural endings only: -ies -> -y, -es -> -e, -s -> '';
   Harman 1991, JASIS 42(1)), so ``wing`` finds ``wings``;
3. ``prefix`` – the term's words begin consecutive words of the label, so
   ``aeroelastic`` finds ``aeroelasticity`` and ``aeroelastic research wing``.

A label that belongs to an entry term (a concept with USE links) leads to the
preferred concept(s), marked ``via`` the entry term. The S-stemmer, not
Porter, keeps the command free of the Java index pipeline; request analysis
uses the index's own stemmer.
"""
from __future__ import annotations

import logging
import sys
from dataclasses import dataclass
from pathlib import Path

from gradedrel.core.errors import InputError
from gradedrel.core.text import s_stem, tokenise
from gradedrel.thesaurus.model import Thesaurus, normalise_label

LEVELS = ("label", "stem", "prefix")
log = logging.getLogger("gradedrel")


def _words(label: str) -> list[str]:
    return tokenise(normalise_label(label))


def _level(term: str, words: list[str], label: str) -> str | None:
    if normalise_label(label) == term:
        return "label"
    label_words = _words(label)
    if not label_words or not words:
        return None
    if [s_stem(w) for w in label_words] == [s_stem(w) for w in words]:
        return "stem"
    n = len(words)
    for start in range(len(label_words) - n + 1):
        if all(label_words[start + i].startswith(words[i]) for i in range(n)):
            return "prefix"
    return None


@dataclass(frozen=True)
class Match:
    """A concept a term matched: how, by which label, through which entry term."""

    uri: str          # the preferred concept shown
    level: str        # label | stem | prefix
    label: str        # the label that matched, as given
    via: str | None   # the entry-term concept the label belongs to, if any


def find(thesaurus: Thesaurus, term: str, levels: tuple[str, ...] = LEVELS) -> list[Match]:
    """Concepts whose labels match ``term``, each once at its best level; best level first,
    then by label."""
    key, words = normalise_label(term), _words(term)
    # A label can match at any level only if it contains this text: the first word's
    # S-stem less its last letter is a prefix of every word with the same S-stem and
    # of every word the first word begins. A cheap test that spares tokenising most
    # labels (WordNet's 207k labels: 2 s -> 0.2 s per term).
    needle = s_stem(words[0])[:-1] if words else ""
    best: dict[str, Match] = {}
    for concept in thesaurus.concepts.values():
        for label in concept.labels():
            if needle not in label.casefold():
                continue
            level = _level(key, words, label)
            if level is None or level not in levels:
                continue
            via = concept.uri if concept.use else None
            for uri in thesaurus.preferred(concept.uri):
                match = Match(uri, level, label, via)
                if uri not in best or _rank(match) < _rank(best[uri]):
                    best[uri] = match
    return sorted(best.values(), key=lambda m: (_rank(m), normalise_label(
        thesaurus.label(m.uri)), m.uri))


def _rank(match: Match) -> tuple[int, int]:
    return LEVELS.index(match.level), match.via is not None


def format_match(thesaurus: Thesaurus, match: Match) -> str:
    """One concept as a block of text: heading, then UF/USE/BT/NT/RT/DEF lines."""
    concept = thesaurus.concepts.get(match.uri)
    how = f"{match.level} match on {match.label!r}"
    if match.via:
        how += f" of entry term [{match.via}], which says USE this"
    lines = [f"{thesaurus.label(match.uri)}  [{match.uri}]  {how}"]
    if concept is None:
        return lines[0] + "\n  (not a concept in this thesaurus)"
    permuted = set(concept.permuted)
    for tag, values in (("UF", [a for a in concept.alt_labels if a not in permuted]
                         + list(concept.pref_labels[1:])),
                        ("UF", [a for a in concept.alt_labels if a in permuted]),
                        ("USE", [thesaurus.label(u) for u in concept.use]),
                        ("BT", [thesaurus.label(u) for u in concept.broader]),
                        ("NT", [thesaurus.label(u) for u in concept.narrower]),
                        ("RT", [thesaurus.label(u) for u in concept.related])):
        if values:
            # the source's permuted forms (MeSH) on a UF line of their own, marked
            mark = "(permuted forms) " if values[0] in permuted else ""
            lines.append(f"  {tag:<3} {mark}" + "; ".join(sorted(values, key=normalise_label)))
    for definition in concept.definitions:
        lines.append(f"  DEF {definition.strip()}")
    return "\n".join(lines)


def lookup_text(thesaurus: Thesaurus, term: str, levels: tuple[str, ...] = LEVELS,
                limit: int | None = None) -> str:
    """What ``gradedrel thesaurus lookup`` prints for ``term`` (:func:`format_match` each)."""
    matches = find(thesaurus, term, levels)
    if not matches:
        return f"no concept matches {term!r}\n"
    shown = matches if limit is None else matches[:limit]
    blocks = [format_match(thesaurus, m) for m in shown]
    if len(shown) < len(matches):
        blocks.append(f"... {len(matches) - len(shown)} more (use --limit 0 for all)")
    return "\n\n".join(blocks) + "\n"


# --- command line ----------------------------------------------------------------

def add_parser(subparsers) -> None:
    """Register ``thesaurus lookup`` on the ``gradedrel`` command's subparsers."""
    thesaurus = subparsers.add_parser("thesaurus", help="look terms up in a thesaurus "
                                      "(SKOS, MeSH, WordNet)")
    commands = thesaurus.add_subparsers(dest="thesaurus_command", required=True)
    lookup = commands.add_parser(
        "lookup", help="concepts matching a term, with UF, BT, NT, RT",
        description=__doc__.split("\n\n")[1])
    lookup.add_argument("term", nargs="+",
                        help="words or phrases, e.g. aeroelastic; each looked up on its own")
    source = lookup.add_mutually_exclusive_group()
    source.add_argument("--path", help="a SKOS file or a *.thesaurus.json.gz cache")
    source.add_argument("--thesaurus", default=None,
                        help="a name under 'thesauri' in the config, any source "
                             "(skos, mesh, wordnet; the project's config names nasa, mesh, "
                             "wordnet; default: the thesaurus of the config's first active "
                             "collection, or the config's only thesaurus)")
    lookup.add_argument("--config",
                        help="config file giving the thesaurus (default: config/config.yaml "
                             "in the working directory if there is one, else the config of "
                             "the project the package belongs to; local copies are found and "
                             "kept under that config's project, whatever the directory, and "
                             "for an installed package's own config in ~/.gradedrel or "
                             "$GRADEDREL_HOME)")
    lookup.add_argument("--match", choices=("label", "stem", "prefix", "all"), default="all",
                        help="most lenient level to use (default: all = prefix)")
    lookup.add_argument("--limit", type=int, default=25,
                        help="show at most this many concepts (0 = all; default %(default)s)")
    lookup.set_defaults(handler=run_lookup)


def project_config(given: str | None) -> Path:
    """The config a lookup reads: ``--config`` if given, else ``config/config.yaml`` in the
    working directory when it is a project, else the config of the project the package
    belongs to — so that the command works from any directory."""
    from gradedrel.thesaurus.sources import PROJECT_CONFIG

    if given:
        if not Path(given).is_file():
            raise FileNotFoundError(f"{given}: no such config file")
        return Path(given)
    here = Path("config/config.yaml")
    return here if here.is_file() else PROJECT_CONFIG


def cached_thesaurus(name: str, spec: dict, root: Path):
    """Thesaurus ``name`` from a fresh cache, or None: the user cache
    (:func:`.cache.default_cache_dir`), then the workflow's own cached form
    (``<root>/results/thesauri/<name>/<name>.thesaurus.json.gz``). Freshness is checked
    against the config's pins (sha256, reader version, base): no source file is touched."""
    from gradedrel.thesaurus import cache as _cache
    from gradedrel.thesaurus.sources import source_of

    header = source_of(spec).cache_header()
    candidates = [_cache.path_for(header),
                  root / "results" / "thesauri" / name / f"{name}{_cache.SUFFIX}"]
    for path in candidates:
        if not path.is_file():
            continue
        try:
            thesaurus = _cache.fresh(path, header)
        except ValueError as error:
            # a corrupt cache, passed over: the workflow's said in one line (the user
            # cache is reported and rebuilt by the source's reader, which comes next)
            if path != candidates[0]:
                log.warning("%s", error)
            continue
        if thesaurus is not None:
            return thesaurus
    return None


def default_thesaurus(config_path: Path) -> str:
    """The thesaurus a lookup without ``--thesaurus`` reads: that of the config's first
    active collection (``collections.<c>.thesaurus``), else the config's only thesaurus."""
    from gradedrel.core import yaml_io

    config = yaml_io.load_file(config_path) or {}
    thesauri = sorted(config.get("thesauri") or {})
    collections = config.get("collections") or {}
    for name in config.get("active_collections") or []:
        named = (collections.get(name) or {}).get("thesaurus")
        if named:
            return named
    if len(thesauri) == 1:
        return thesauri[0]
    raise ValueError(f"{config_path}: no active collection names its thesaurus; "
                     f"choose one with --thesaurus (known: {', '.join(thesauri) or 'none'})")


def named_thesaurus(name: str, config_path: Path):
    """Thesaurus ``name`` as the config at ``config_path`` pins it: from a fresh cache if
    there is one, else read (downloaded if need be) from the local copies of *that
    project* — paths are relative to the project root (the config's ``../``), never to
    the working directory."""
    from gradedrel.thesaurus import sources

    root = config_path.resolve().parent.parent
    config = {"thesauri": sources.project_thesauri(config_path)}
    spec = sources.entry(name, config)
    thesaurus = cached_thesaurus(name, spec, root)
    if thesaurus is None:
        thesaurus = sources.load(name, config, root=root)
    return thesaurus


#: Files of the other sources, which ``--path`` (SKOS) does not read: suffix -> (what it is,
#: the source that reads it).
OTHER_SOURCES = {".rds": ("an R data file, as MeSH's two exports (descriptors, trees)", "mesh"),
                 ".deb": ("a Debian package, as WordNet's wordnet-base", "wordnet")}


def check_path(path: str) -> None:
    """A ``--path`` that is another source's file: one line naming the source that reads it
    (a config entry's ``source``, ``--thesaurus``), not the SKOS reader's parser."""
    suffix = Path(path).suffix.lower()
    if suffix in OTHER_SOURCES:
        what, source = OTHER_SOURCES[suffix]
        raise InputError(path, None, "a SKOS file or a *.thesaurus.json.gz cache for --path",
                         f"{what}: read with --thesaurus {source} (the project config's entry) "
                         f"or a config entry with source: {source} (docs/thesaurus.md)")


def run_lookup(args) -> int:
    """Run ``gradedrel thesaurus lookup``: print the matches of each term; the exit code."""
    if args.path:
        from gradedrel.thesaurus import load

        check_path(args.path)

        thesaurus = load(Path(args.path))  # a damaged or cut download: one InputError
    else:
        # Any source (SKOS, MeSH, WordNet), through the cache; pins from the config.
        config_path = project_config(args.config)
        thesaurus = named_thesaurus(args.thesaurus or default_thesaurus(config_path),
                                    config_path)
    upto = LEVELS.index("prefix" if args.match == "all" else args.match)
    texts = [lookup_text(thesaurus, term, LEVELS[:upto + 1], args.limit or None)
             for term in args.term]  # a list: nargs="+"
    if len(args.term) > 1:  # several terms: a heading before each term's answer
        texts = [f"== {term} ==\n{text}" for term, text in zip(args.term, texts)]
    sys.stdout.write("\n".join(texts))
    return 0
