"""Checking a plan file as the workflow will read it, for the people who curate plans.

``gradedrel plans check PLANS.yaml REQUESTS.tsv`` parses the file as the workflow does (an
error names the file and line), then prints for every request its facets (how many major),
concepts, unexpanded and expansion keys and the expansion ratio, and where its keys come
from: the share of each source class (:mod:`gradedrel.plans.key_sources`, Amendment 1, A1:
``request``, ``thesaurus`` within two BT/NT/RT steps of a concept the request names,
``other_concept``, ``own``) and every declared thesaurus relation that does not hold. The
requests file is a TSV with ``qid`` and the request text as ``query`` (a workflow
``topics.tsv``), ``text``, or ``title`` and ``description`` (the curators' folders).

Terms are the index's: Terrier's stopwords and Porter stemmer (the stages the workflow's
indexes record), or those of ``--index DIR``; the JVM is started with the config's pinned
Terrier.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Iterable, Mapping

import pandas as pd

from gradedrel.core.errors import InputError
from gradedrel.plans.key_sources import SOURCE_CLASSES
from gradedrel.plans.model import Plan


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


def report(plans: Iterable[Plan], table: pd.DataFrame, missing: Iterable[str] = ()) -> str:
    """The checker's text: one block per plan, then the totals."""
    lines = []
    ratios = []
    for plan in plans:
        concepts = plan.concepts()
        unexpanded = sum(len(c.keys) for c in concepts)
        expansion = sum(len(c.expansion) for c in concepts)
        ratio = (unexpanded + expansion) / unexpanded if unexpanded else float("nan")
        ratios.append(ratio)
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
    lines.append("")
    lines.append(f"{len(ratios)} plans; all keys: {_shares(table)}")
    lines.append(f"expansion keys: {_shares(table[table['list'] == 'expansion'])}")
    lines.append(f"declared relations checked: {int(table['declared_holds'].isin(['yes', 'no']).sum())}"
                 f", not holding: {int((table['declared_holds'] == 'no').sum())}")
    missing = list(missing)
    if missing:
        lines.append(f"requests without a plan: {', '.join(missing)}")
    return "\n".join(lines) + "\n"


def _known(plans: list[Plan], requests: Mapping[str, str]) -> None:
    unknown = [p.qid for p in plans if p.qid not in requests]
    if unknown:
        raise ValueError(f"plans of requests not in the requests file: {unknown}")


def check(plans: list[Plan], requests: Mapping[str, str], sources) -> tuple[str, int]:
    """(text, exit status): 1 when a plan's request is not in the requests file or a
    request has no plan, else 0."""
    from gradedrel.plans import key_sources

    _known(plans, requests)
    planned = {p.qid: requests[p.qid] for p in plans}
    table = key_sources.classify(plans, planned, sources, {p.qid: "-" for p in plans})
    missing = [q for q in requests if q not in planned]
    return report(plans, table, missing), int(bool(missing))


def run_check(args) -> int:
    """Run ``gradedrel plans check``: parse a plan file as the workflow does, print each request's
    facets, concepts, keys and expansion ratio.
    """
    import yaml

    from gradedrel.core import terrier
    from gradedrel.plans import analysis, key_sources, read_plans
    from gradedrel.thesaurus.lookup import named_thesaurus, project_config

    plans = read_plans(args.plans)
    requests = request_texts(args.requests)
    _known(plans, requests)  # before the thesaurus and Java are loaded
    config_path = project_config(args.config)
    config = yaml.safe_load(config_path.read_text(encoding="utf-8"))
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
    text, status = check(plans, requests, sources)
    sys.stdout.write(text)
    return status


def add_parser(subparsers) -> None:
    """Register ``plans check`` on the ``gradedrel`` command's subparsers."""
    group = subparsers.add_parser("plans", help="check query plans as the workflow reads them")
    commands = group.add_subparsers(dest="plans_command", required=True)
    checker = commands.add_parser("check", help="parse a plan file; per request its keys and "
                                  "where they come from", description=__doc__.split("\n\n")[1],
                                  formatter_class=argparse.RawTextHelpFormatter)
    checker.add_argument("plans", help="the plan file (YAML)")
    checker.add_argument("requests", help="TSV: qid and query, text, or title and description")
    checker.add_argument("--collection", default="cranfield",
                         help="the collection whose analysis settings and thesaurus apply "
                              "(default: cranfield)")
    checker.add_argument("--thesaurus", help="a name under 'thesauri' (default: the "
                         "collection's thesaurus)")
    checker.add_argument("--config", help="config file (as for 'thesaurus lookup')")
    checker.add_argument("--index", help="a Terrier index whose term pipeline to use")
    checker.set_defaults(handler=run_check)
