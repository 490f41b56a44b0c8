"""Query files: one structured query per topic, for one query type.

``results/{c}/queries/{planset}/{slug}.jsonl`` holds one JSON object per line: ``{"qid",
"query_type", "tree", "matchop"}``: the :func:`~gradedrel.queries.query_tree.to_dict` tree
(scored by InQuery) and the same query in Terrier's MatchOp, or ``null`` when the tree
holds an operator MatchOp cannot write (InQuery only).
"""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from gradedrel.core.errors import InputError
from gradedrel.core.io import atomic_open
from gradedrel.queries import query_statistics, query_tree
from gradedrel.queries.query_tree import NotExpressible, from_dict
from gradedrel.queries.query_types import LABELS as QUERY_TYPES, SLUGS, label, slug  # noqa: F401 (the vocabulary)
from gradedrel.queries.query_types import compile_plan, to_key
from gradedrel.collection.readers import iter_json_lines

FIELDS = ("qid", "query_type", "tree", "matchop")


def read_query_file(path: str | Path) -> pd.DataFrame:
    """``qid, query_type, tree (dict), matchop`` per line; a bad line is an InputError."""
    rows, seen = [], set()
    for number, record, _ in iter_json_lines(path):
        if not isinstance(record, dict) or any(f not in record for f in FIELDS):
            raise InputError(path, number, f"a JSON object with {', '.join(FIELDS)}",
                             sorted(record) if isinstance(record, dict) else record)
        try:
            from_dict(record["tree"])
        except (ValueError, KeyError, TypeError) as error:
            raise InputError(path, number, "a query tree (gradedrel.queries.query_tree)",
                             str(error)) from None
        qid = str(record["qid"])
        if qid in seen:
            raise InputError(path, number, "one query per topic", f"qid {qid} again")
        seen.add(qid)
        matchop = record["matchop"]
        rows.append((qid, record["query_type"], record["tree"],
                     None if matchop is None else str(matchop)))
    return pd.DataFrame(rows, columns=list(FIELDS))


NO_KEY = "no search key left after stopwords"


def void_keys(plan, pipeline) -> list[tuple[str, str]]:
    """``(facet, key)`` of every key of ``plan`` that the index's term pipeline reduces to
    nothing (left out of every query). An :class:`InputError` naming the plan's file and the
    facet's line when a facet loses all its keys, or all its unexpanded keys (it would leave
    the unexpanded query types unnoticed), while another facet keeps keys of that kind,
    unless the plan marks it ``may_be_empty``."""
    void = [(f.name, k.key) for f in plan.facets for c in f.concepts for k in c.all_keys(True)
            if to_key(k.key, pipeline) is None]
    lost = set(void)
    for expanded, kind in ((True, "a search key"), (False, "an unexpanded search key")):
        emptied, kept = [], False
        for facet in plan.facets:
            keys = [k.key for c in facet.concepts for k in c.all_keys(expanded)]
            if not keys and expanded:
                continue  # a facet without any key: no query of it to lose (not read so)
            if all((facet.name, k) in lost for k in keys):
                if not facet.may_be_empty:
                    emptied.append(facet)  # no unexpanded key at all counts as lost
            else:
                kept = True
        if emptied and kept:
            first = emptied[0]
            keys = [k.key for f in emptied for c in f.concepts for k in c.all_keys(expanded)]
            raise InputError(plan.path or f"plan {plan.qid}", first.line,
                             f"every facet of plan {plan.qid} with {kind} left after the "
                             "index's term pipeline (or marked 'may_be_empty: true')",
                             f"facet(s) {[f.name for f in emptied]}: keys {keys} reduce to "
                             "nothing")
    return void


def write_query_files(plans, paths: dict, pipeline, writer, weights) -> tuple[list, list]:
    """Compile every plan into each query type and write one query file per type
    (``paths``: label → file). Returns (statistics rows, excluded ``(qid, label, reason)``)."""
    rows, excluded = [], []
    for plan in plans:
        excluded += [(plan.qid, "every", f"key {key!r} of facet {facet!r} reduced to nothing by "
                      "the index's term pipeline, left out") for facet, key in void_keys(plan,
                                                                                      pipeline)]
    for label, path in paths.items():
        with atomic_open(path) as out:
            for plan in plans:
                tree = compile_plan(plan, label, pipeline, weights)
                try:
                    text = None if tree is None else writer.query(tree)
                except NotExpressible:  # the tree only: a key must survive the stopwords
                    text = "" if any(writer.key(k) for k in query_tree.keys(tree)) else None
                if text is None:
                    excluded.append((plan.qid, label, NO_KEY))
                    continue
                rows.append(query_statistics.row(plan.qid, label, tree, len(plan.facets),
                                                 len(plan.concepts())))
                out.write(json.dumps({"qid": plan.qid, "query_type": label,
                                      "tree": query_tree.to_dict(tree),
                                      "matchop": text or None}) + "\n")
    return rows, excluded
