"""Score probe v2 (docs/memory-probe.md, "Probe v2"; Amendment 2, B4-B6): per real request
its answers, matches and verdict; the null rates and θ; the rates per source, pool and
framing; the remembered requests."""
import json

from gradedrel.collection.judgements import load_qrels
from gradedrel.collection.spec import CollectionSpec, use_ir_datasets_home
from gradedrel.core import terrier
from gradedrel.core.io import read_tsv, write_text, write_tsv
from gradedrel.job import run_step
from gradedrel.plans.key_sources import Terms
from gradedrel.report import design
from gradedrel.integrity import cited_studies as cs, memory_probe as mp


def judgements(ids, grade_map) -> dict:
    """qid -> docno -> level of the judgements of the ir_datasets ids, read as a collection's
    are (:func:`gradedrel.collection.judgements.load_qrels`: grade map, one judgement per
    pair, errors naming the record)."""
    spec = CollectionSpec.from_config("memory probe", {"ir_datasets": {"qrels": list(ids)},
                                                       "grade_map": grade_map},
                                      needs=("qrels",))
    levels: dict = {}
    for qid, docno, grade in load_qrels(spec)[["qid", "docno", "grade"]].itertuples(index=False):
        levels.setdefault(qid, {})[docno] = int(grade)
    return levels


def main():
    inp, out, params = snakemake.input, snakemake.output, snakemake.params
    terrier.start(**params.terrier)
    use_ir_datasets_home(params.ir_datasets_home)
    requests = cs.read_requests(inp.requests)
    given = cs.read_answers(list(inp.answers), requests, read_tsv(inp.batches))
    requests_v1 = mp.read_requests(inp.requests_v1)
    given += cs.v1_answers(requests_v1, mp.read_answers(list(inp.answers_v1), requests_v1),
                           requests)
    terms = None
    judged = {}
    for source, spec in params.collections.items():
        if terms is None:   # one term pipeline: every index uses the config's
            terms = Terms(terrier.term_pipeline(inp[f"index/{source}"]))
        levels = judgements(spec["qrels"], spec["grade_map"])
        wanted = {d for docs in levels.values() for d in docs}
        titles = mp.document_titles(spec["docs"], wanted, params.ir_datasets_home)
        judged[source] = cs.Judged(levels, {d: frozenset(terms(t)) for d, t in titles.items()})
    seed = design.load(inp.design).constants.seed
    confirmed = (cs.confirmed_matches(read_tsv(inp.check_items), read_tsv(inp.checks),
                                      inp.check_items, inp.checks)
                 if inp.get("checks") else None)
    table, nulls, decisions = cs.score(requests, given, judged, terms, seed, confirmed)
    by_framing = cs.rates(table, given, requests, judged, terms, decisions["theta"], seed)
    write_tsv(table, out.per_request)
    write_tsv(nulls, out.nulls)
    write_tsv(by_framing, out.rates)
    write_tsv(cs.remembered(table), out.remembered)
    shown = {k: (None if isinstance(v, float) and v != v else v) for k, v in decisions.items()}
    write_text(json.dumps(shown, indent=2, sort_keys=True) + "\n", out.decisions)
    write_text(cs.markdown(table, nulls, by_framing, decisions), out.md)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
