"""Score the memory probe's answers (docs/memory-probe.md; Amendment 1, A7): per probed
request the claimed memory, matched studies, key lifts and verdict; per source the rates;
the remembered requests."""
import json

from gradedrel.collection import postings
from gradedrel.core import terrier
from gradedrel.core.io import read_tsv, write_text, write_tsv
from gradedrel.job import run_step
from gradedrel.plans.key_sources import Terms
from gradedrel.report import design
from gradedrel.integrity import leak, memory_probe as mp


def main():
    inp, out, params = snakemake.input, snakemake.output, snakemake.params
    terrier.start(**params.terrier)
    requests = mp.read_requests(inp.requests)
    answers = mp.read_answers(list(inp.answers), requests)
    collections = {}
    for source, name in (("nfcorpus", "nfcorpus"), ("cranfield", "cranfield")):
        index = inp[f"index/{name}"]
        qrels = read_tsv(inp[f"qrels/{name}"])
        level3 = leak.judged(qrels, 3)
        wanted = {d for docs in level3.values() for d in docs}
        collections[source] = mp.Collection(
            Terms(terrier.term_pipeline(index)),
            leak.Documents(postings.checked(index, inp[f"postings/{name}"])), level3,
            mp.document_titles(params.docs[name], wanted, params.ir_datasets_home))
    seed = design.load(inp.design).constants.seed
    table, decisions = mp.score(requests, answers, collections, seed)
    sources = mp.per_source(table)
    write_tsv(table, out.per_request)
    write_tsv(sources, out.per_source)
    write_tsv(mp.remembered(table), out.remembered)
    shown = {k: (None if isinstance(v, float) and v != v else v) for k, v in decisions.items()}
    write_text(json.dumps(shown, indent=2, sort_keys=True) + "\n", out.decisions)
    write_text(mp.markdown(table, sources, decisions), out.md)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
