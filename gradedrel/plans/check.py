"""Checking a plan file as the workflow will read it, for the people who curate plans.

``gradedrel plans check PLANS.yaml REQUESTS.tsv`` parses the file as the workflow does (an
error names the file and line), then prints for every request its facets (how many major),
concepts, unexpanded and expansion keys and the expansion ratio, and where its keys come
from: the share of each source class (:mod:`gradedrel.plans.key_sources`, Amendment 1, A1:
``request``, ``thesaurus`` within two BT/NT/RT steps of a concept the request names,
``other_concept``, ``own``) and every declared thesaurus relation that does not hold. The
requests file is a TSV with ``qid`` and the request text as ``query`` (a workflow
``topics.tsv``), ``text``, or ``title`` and ``description`` (the curators' folders).

Key provenance (the curation protocol, docs/plans.md; for curations after the frozen plans):
for every key of a curated plan it verifies the key's ``source`` — a thesaurus concept id must
exist and the key must be one of its labels (compared as key sources compares them) —, takes
``source: literature`` with its ``reason`` as declared, and a key without ``source`` whose
words are all the request's (class ``request``) as sourced by the request text. Any other
curated key is a warning, counted per request; so are a missing or malformed
``# curation started:``/``# curation ended:`` line (UTC) in the file's header. Keys marked
``recalled: true`` are listed per request. ``--strict`` exits 1 on any warning.

Terms are the index's: Terrier's stopwords and Porter stemmer (the stages the workflow's
indexes record), or those of ``--index DIR``; the JVM is started with the config's pinned
Terrier.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Iterable, Mapping

import pandas as pd

from gradedrel.core.errors import InputError
from gradedrel.plans.key_sources import LISTS, SOURCE_CLASSES
from gradedrel.plans.model import LITERATURE, WRITTEN, Plan

#: The header lines recording a curation's start and end (UTC, ISO 8601).
TIME_LINES = ("curation started", "curation ended")


def request_texts(path: str | Path) -> dict[str, str]:
    """qid → request text from a TSV (``query``, ``text``, or ``title`` + ``description``)."""
    frame = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
    if "qid" not in frame.columns:
        raise InputError(path, 1, "a header with a column qid", list(frame.columns))
    for column in ("query", "text"):
        if column in frame.columns:
            return dict(zip(frame["qid"], frame[column]))
    if {"title", "description"} <= set(frame.columns):
        return {q: f"{t} {d}".strip() for q, t, d in
                zip(frame["qid"], frame["title"], frame["description"])}
    raise InputError(path, 1, "a column query, text, or title and description",
                     list(frame.columns))


def _shares(rows: pd.DataFrame) -> str:
    counts = rows["source_class"].value_counts()
    n = len(rows)
    return ", ".join(f"{c} {int(counts.get(c, 0))} ({100 * counts.get(c, 0) / n:.0f} %)"
                     for c in SOURCE_CLASSES) if n else "none"


# ---------------------------------------------------------------- key provenance

@dataclass
class Provenance:
    """One plan's key provenance: how many keys are sourced each way, the warnings (one
    line each), and the recalled keys."""

    verified: int = 0      # a thesaurus id of which the key is a label
    literature: int = 0    # source: literature, with a reason
    request: int = 0       # no source, every word the request's
    warnings: list[str] = field(default_factory=list)
    recalled: list[str] = field(default_factory=list)


def _labels(sources, uri: str, limit: int = 3) -> str:
    labels = list(sources.thesaurus.concepts[uri].labels())
    return "; ".join(labels[:limit]) + (" …" if len(labels) > limit else "") or "no label"


def key_provenance(plan: Plan, table: pd.DataFrame, sources) -> Provenance:
    """Check every key's ``source`` against the thesaurus (module docstring); the class of a
    key without one is the computed source class of its ``table`` row."""
    out = Provenance()
    curated = plan.source in WRITTEN
    classes = {(r.facet_no, r.concept_no, r.list, r.key_no): r.source_class
               for r in table[table["qid"] == plan.qid].itertuples(index=False)}
    for f, facet in enumerate(plan.facets):
        for c, concept in enumerate(facet.concepts):
            for kind in LISTS:
                for k, key in enumerate(getattr(concept, kind)):
                    if key.recalled:
                        out.recalled.append(key.key)
                    if not curated:
                        continue
                    terms = sources.terms(key.key)
                    if key.source == LITERATURE:
                        out.literature += 1
                    elif key.source is not None:
                        if key.source not in sources.thesaurus:
                            out.warnings.append(f"source id not in the thesaurus: {key.key!r} "
                                                f"source {key.source!r}")
                        elif not terms or not any(terms in sources.labels_of.get(u, ())
                                                  for u in sources.preferred(key.source)):
                            found = sources.labelled.get(terms, []) if terms else []
                            elsewhere = (f"; it is a label of {', '.join(found[:3])}" if found
                                         else "; it is a label of no concept")
                            out.warnings.append(
                                f"key is not a label of its source: {key.key!r} source "
                                f"{key.source!r} ({_labels(sources, key.source)}){elsewhere}")
                        else:
                            out.verified += 1
                    elif classes.get((f, c, kind, k)) == "request":
                        out.request += 1
                    else:
                        found = classes.get((f, c, kind, k), "?")
                        out.warnings.append(f"no checkable source: {key.key!r} ({kind}, "
                                            f"relation {key.relation}, class {found})")
    return out


def header_times(text: str) -> tuple[dict[str, str], list[str]]:
    """The curation's recorded times from a plan file's leading comment lines
    (``# curation started: 2027-01-05T09:12Z``, ``# curation ended: …``, UTC), and a
    warning for each one missing, not UTC, unreadable, or an end before the start."""
    found: dict[str, str] = {}
    warnings: list[str] = []
    when: dict[str, datetime] = {}
    for line in text.lstrip("\ufeff").splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            break  # the header ends at the first line that is not a comment
        body = stripped.lstrip("#").strip()
        for name in TIME_LINES:
            if body.lower().startswith(name + ":"):
                value = body[len(name) + 1:].strip()
                found[name] = value
                try:
                    stamp = datetime.fromisoformat(value.replace("Z", "+00:00"))
                except ValueError:
                    warnings.append(f"header '{name}' is not an ISO 8601 time: {value!r}")
                    continue
                if stamp.utcoffset() != timedelta(0):
                    warnings.append(f"header '{name}' is not in UTC (end it with Z): {value!r}")
                    continue
                when[name] = stamp
    for name in TIME_LINES:
        if name not in found:
            warnings.append(f"header has no '# {name}: YYYY-MM-DDTHH:MMZ' line (UTC)")
    if len(when) == 2 and when[TIME_LINES[1]] < when[TIME_LINES[0]]:
        warnings.append("header: the curation ended before it started")
    return found, warnings


def report(plans: Iterable[Plan], table: pd.DataFrame, missing: Iterable[str] = (),
           provenance: Mapping[str, Provenance] | None = None,
           header: tuple[dict[str, str], list[str]] | None = None) -> str:
    """The checker's text: one block per plan, then the totals."""
    lines, plans, provenance = [], list(plans), provenance or {}
    for plan in plans:
        concepts = plan.concepts()
        unexpanded = sum(len(c.keys) for c in concepts)
        expansion = sum(len(c.expansion) for c in concepts)
        ratio = (unexpanded + expansion) / unexpanded if unexpanded else float("nan")
        rows = table[table["qid"] == plan.qid]
        lines.append(f"{plan.qid}: {len(plan.facets)} facets "
                     f"({sum(f.importance == 'major' for f in plan.facets)} major), "
                     f"{len(concepts)} concepts, {unexpanded} unexpanded + {expansion} expansion "
                     f"keys (ratio {ratio:.1f})")
        lines.append(f"  sources, all keys: {_shares(rows)}")
        lines.append(f"  sources, expansion keys: {_shares(rows[rows['list'] == 'expansion'])}")
        wrong = rows[rows["declared_holds"] == "no"]
        for row in wrong.itertuples(index=False):
            found = row.verified_relation or row.source_class
            lines.append(f"  declared relation does not hold: {row.key!r} "
                         f"{row.declared_relation} depth {row.declared_depth} via "
                         f"{row.declared_via or '-'} (found: {found})")
        mine = provenance.get(plan.qid)
        if mine is not None and plan.source in WRITTEN:
            lines.append(f"  key sources: {mine.verified} thesaurus id verified, "
                         f"{mine.literature} literature, {mine.request} request words; "
                         f"warnings: {len(mine.warnings)}")
            lines.extend(f"  {warning}" for warning in mine.warnings)
        if mine is not None and mine.recalled:
            lines.append(f"  recalled keys ({len(mine.recalled)}): "
                         + ", ".join(repr(k) for k in mine.recalled))
    lines.append("")
    lines.append(f"{len(plans)} plans; all keys: {_shares(table)}")
    lines.append(f"expansion keys: {_shares(table[table['list'] == 'expansion'])}")
    lines.append(f"declared relations checked: {int(table['declared_holds'].isin(['yes', 'no']).sum())}"
                 f", not holding: {int((table['declared_holds'] == 'no').sum())}")
    if provenance:
        warned = [q for q, p in provenance.items() if p.warnings]
        recalled = [q for q, p in provenance.items() if p.recalled]
        lines.append(f"curated keys without a checkable source or not verified: "
                     f"{sum(len(p.warnings) for p in provenance.values())} in {len(warned)} "
                     f"requests; recalled keys: "
                     f"{sum(len(p.recalled) for p in provenance.values())} in "
                     f"{len(recalled)} requests")
        if warned:
            lines.append("(a curated key needs 'source': a thesaurus concept id of which it is a "
                         "label, or 'literature' with a 'reason'; a key of the request's own "
                         "words needs none)")
    if header is not None:
        found, warnings = header
        times = ", ".join(f"{name} {found[name]}" for name in TIME_LINES if name in found)
        lines.append(f"curation times: {times or 'none recorded'}")
        lines.extend(warnings)
    if missing := list(missing):
        lines.append(f"requests without a plan: {', '.join(missing)}")
    return "\n".join(lines) + "\n"


def _known(plans: list[Plan], requests: Mapping[str, str]) -> None:
    unknown = [p.qid for p in plans if p.qid not in requests]
    if unknown:
        raise ValueError(f"plans of requests not in the requests file: {unknown}")


def check(plans: list[Plan], requests: Mapping[str, str], sources, strict: bool = False,
          text: str | None = None) -> tuple[str, int]:
    """(text, exit status): 1 when a plan's request is not in the requests file or a
    request has no plan, or with ``strict`` when there is any provenance warning (a
    curated key without a checkable source, a ``source`` that does not verify, and — given
    the plan file's ``text`` — a curation time missing from its header), else 0."""
    from gradedrel.plans import key_sources

    _known(plans, requests)
    planned = {p.qid: requests[p.qid] for p in plans}
    table = key_sources.classify(plans, planned, sources, {p.qid: "-" for p in plans})
    missing = [q for q in requests if q not in planned]
    provenance = {p.qid: key_provenance(p, table, sources) for p in plans}
    header = header_times(text) if text is not None else None
    # the warnings --strict fails on: keys and header lines
    warned = sum(len(p.warnings) for p in provenance.values()) + len(header[1] if header else ())
    out = report(plans, table, missing, provenance, header)
    if strict:
        out += f"--strict: {warned} warnings\n" if warned else "--strict: no warnings\n"
    return out, int(bool(missing) or (strict and warned > 0))


def run_check(args) -> int:
    """Run ``gradedrel plans check`` (module docstring); the exit status."""
    from gradedrel.core import terrier
    from gradedrel.core.config import layered
    from gradedrel.core.project import CONFIG, project_file
    from gradedrel.plans import analysis, key_sources, read_plans
    from gradedrel.thesaurus.lookup import named_thesaurus, project_config

    plans = read_plans(args.plans)
    text = Path(args.plans).read_text(encoding="utf-8-sig")
    requests = request_texts(args.requests)
    _known(plans, requests)  # before the thesaurus and Java are loaded
    config_path = project_config(args.config)
    # laid over the package's own config, as the workflow lays --configfile over it: the
    # defaults (Terrier's pins, the analysis rules) come with it
    base = project_file(CONFIG)
    config = layered([base] if config_path.resolve() == base.resolve() else [base, config_path])
    collection = (config.get("collections") or {}).get(args.collection)
    if collection is None:
        raise ValueError(f"{config_path}: no collection {args.collection!r}")
    settings = analysis.collection_settings(config.get("analysis") or {}, collection)
    name = args.thesaurus or collection.get("thesaurus") or "nasa"
    pins = config["terrier"]
    terrier.start(pins["version"], pins["helper_version"])
    pipeline = terrier.term_pipeline(args.index) if args.index else terrier.named_pipeline()
    sources = key_sources.KeySources(named_thesaurus(name, config_path), pipeline,
                                     analysis.Rules.from_config(settings))
    out, status = check(plans, requests, sources, strict=args.strict, text=text)
    sys.stdout.write(out)
    return status


def add_parser(subparsers) -> None:
    """Register ``plans check`` on the ``gradedrel`` command's subparsers."""
    group = subparsers.add_parser("plans", help="check query plans as the workflow reads them")
    commands = group.add_subparsers(dest="plans_command", required=True)
    checker = commands.add_parser("check", help="parse a plan file; per request its keys and "
                                  "where they come from",
                                  description="\n\n".join(__doc__.split("\n\n")[1:3]))
    checker.add_argument("plans", help="the plan file (YAML)")
    checker.add_argument("requests", help="TSV: qid and query, text, or title and description")
    checker.add_argument("--collection", default="cranfield",
                         help="the collection whose analysis settings and thesaurus apply "
                              "(default: cranfield)")
    checker.add_argument("--thesaurus", help="a name under 'thesauri' (default: the "
                         "collection's thesaurus)")
    checker.add_argument("--config", help="config file (as for 'thesaurus lookup')")
    checker.add_argument("--index", help="a Terrier index whose term pipeline to use")
    checker.add_argument("--strict", action="store_true",
                         help="exit 1 on any provenance warning: a curated key without a "
                              "checkable source or whose source does not verify, or curation "
                              "times missing from the file's header")
    checker.set_defaults(handler=run_check)
