"""The qualified headline of each probed testbed (docs/preregistration.md, Amendments 1 and 2):
the pre-registered primary comparison, H2q (request and thesaurus keys only, on the requests
the memory probe clears), the cleared and remembered subsets; on the fresh requests,
Amendment 2's primary comparison and its secondary rows."""
import json

import pandas as pd

from gradedrel.core.io import read_tsv, write_text, write_tsv
from gradedrel.job import run_step
from gradedrel.report import assessment, design, headline, published
from gradedrel.report import key_provenance as kp, memory_probe as mp


def main():
    inp, out, params = snakemake.input, snakemake.output, snakemake.params
    paper = assessment.published_from(published.load(inp.published))
    remembered = read_tsv(inp.remembered)
    rows, sentences = [], {}
    for c, (primary, thesaurus) in params.conditions.items():
        study = design.load(inp[f"design/{c}"])
        per_topic = {primary: read_tsv(inp[f"per_topic/{c}/{primary}"]),
                     thesaurus: read_tsv(inp[f"per_topic/{c}/{thesaurus}"])}
        source = params.sources[c]
        flagged = remembered.loc[remembered["source"] == source, "qid"].tolist()
        found = headline.headline_rows(c, primary, thesaurus, per_topic, flagged, paper, study)
        rows += found
        statement = kp.own_keys_statement(read_tsv(inp[f"key_sources/{c}"]))
        sentences[c] = headline.sentence(pd.DataFrame(found), statement, c)
    if params.fresh:
        c, primary, thesaurus = params.fresh
        study = design.load(inp[f"design/{c}"])
        per_topic = {p: read_tsv(inp[f"per_topic/{c}/{p}"]) for p in (primary, thesaurus)}
        pool = read_tsv(inp.fresh_pool)
        base = read_tsv(inp.fresh_recall_base)
        flagged = remembered.loc[remembered["source"] == mp.REAL, "qid"].tolist()
        found = headline.headline_rows(c, primary, thesaurus, per_topic, flagged, paper, study,
                                       dict(zip(pool["qid"], pool["split"])),
                                       dict(zip(base["qid"], pd.to_numeric(base["n_3"]))))
        rows += found
        decisions = json.loads(open(inp.fresh_decisions, encoding="utf-8").read())
        curated = next((r for r in rows if r["row"].startswith("H2q")
                        and params.sources.get(r["collection"]) == mp.REAL), None)
        sentences[c] = headline.fresh_sentence(
            pd.DataFrame(found), c, int(per_topic[thesaurus]["qid"].nunique()),
            bool(decisions["extension_used"]), curated)
    table = pd.DataFrame(rows)
    write_tsv(table[headline.COLUMNS], out.tsv)
    write_text(headline.markdown(table, sentences), out.md)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
