"""A plan set's queries compiled from its plans: every candidate topic's plan into the query
types (query_files), with their statistics (query_statistics), the (topic, query type) pairs
left without a query and the step's provenance record. The first step of the plan set's
retrieve job (workflow/rules/retrieval.smk), which then runs the queries: one JVM for both."""
from __future__ import annotations

import logging
from typing import Any, Mapping, Sequence

import pandas as pd

from gradedrel import plans
from gradedrel.collection.matches import Pipeline
from gradedrel.core import provenance
from gradedrel.core.io import read_tsv, sha256_of, write_text, write_tsv
from gradedrel.queries import matchop, query_files, query_statistics

log = logging.getLogger("gradedrel")

#: The step's name in its provenance record (a rule of its own until issue 44).
STEP = "compile_queries"


def compile_plan_set(plans_path: str, candidates_path: str, pipeline: Pipeline,
                     labels: Sequence[str], output: Mapping[str, str],
                     config: Mapping[str, Any], version: str) -> None:
    """Write the query file of each of ``labels`` (output ``queries/<label>``) for the plan
    set's candidate topics, their statistics per topic and means by subset
    (``query_statistics``, ``query_means``), the pairs left out with their reasons
    (``query_excluded``) and the provenance record (``query_provenance``, Terrier
    ``version``). ``config``: the settings compiled by, ``query_types`` (its
    ``phrase_operator``) and the collection's facet ``weights``."""
    writer = matchop.MatchOpWriter(pipeline, config["query_types"]["phrase_operator"])
    table = read_tsv(candidates_path)
    chosen = set(table.loc[table["candidate"] == 1, "qid"])
    chosen_plans = [p for p in plans.read_plans(plans_path) if p.qid in chosen]
    paths = {label: output[f"queries/{label}"] for label in labels}
    rows, excluded = query_files.write_query_files(chosen_plans, paths, pipeline, writer,
                                                   config["weights"])
    for qid, label, reason in excluded:
        log.warning("topic %s, %s: %s", qid, label, reason)
    per_topic = pd.DataFrame(rows)
    write_tsv(per_topic, output["query_statistics"])
    write_tsv(query_statistics.means_by_subset(per_topic, chosen), output["query_means"],
              float_format="%.3f")
    write_tsv(pd.DataFrame(excluded, columns=["qid", "query_type", "reason"]),
              output["query_excluded"])
    write_text(provenance.record(STEP, config, version, plans_sha256=sha256_of(plans_path),
                                 excluded=len(excluded)), output["query_provenance"])
