"""The headline (docs/preregistration.md, Amendments 1-3): the answer first — a paragraph and
the deciding rows (each testbed's pre-registered primary; on the fresh requests Amendment 2's
primary; the 30 drawn requests as the contaminated record) — then, where the memory probe ran,
the rows that qualify them: H2q, the cleared and remembered subsets, Amendment 2's secondary
rows and Amendment 3's exploratory rows, each with the leak diagnostic's flag."""
import json

import pandas as pd

from gradedrel.core.io import read_tsv, write_text, write_tsv
from gradedrel.job import run_step
from gradedrel.report import assessment, design, published
from gradedrel.integrity import headline, key_provenance as kp, memory_probe as mp

REMEMBERED_ROW = "primary, requests the probe calls remembered (sensitivity)"


def main():
    inp, out, params = snakemake.input, snakemake.output, snakemake.params
    paper = assessment.published_from(published.load(inp.published))
    remembered = read_tsv(inp.remembered) if inp.get("remembered") else None
    leak = lambda c: read_tsv(inp[f"leak/{c}"]) if inp.get(f"leak/{c}") else None
    rows, sentences = [], {}
    # the evaluation's primary comparison on every request (comparisons.tsv, read exactly)
    numbers = lambda c, p: headline.primary_numbers(read_tsv(
        inp[f"comparisons/{c}/{p}"], ("part", "comparison", "measure"), exact_floats=True))
    for c, primary in params.plain.items():   # no memory probe: the deciding row alone
        study = design.load(inp[f"design/{c}"])
        row = headline.primary_row(c, primary, read_tsv(inp[f"per_topic/{c}/{primary}"]),
                                   paper, study, numbers(c, primary))
        rows.append(row | {"leak": headline.leak_note(leak(c), primary, row["holds"])})
    for c, (primary, thesaurus) in params.conditions.items():
        study = design.load(inp[f"design/{c}"])
        per_topic = {primary: read_tsv(inp[f"per_topic/{c}/{primary}"]),
                     thesaurus: read_tsv(inp[f"per_topic/{c}/{thesaurus}"])}
        source = params.sources[c]
        flagged = remembered.loc[remembered["source"] == source, "qid"].tolist()
        found = headline.headline_rows(c, primary, thesaurus, per_topic, flagged, paper, study,
                                       numbers={primary: numbers(c, primary)})
        by = {r["row"]: r for r in found}
        every = by[headline.HEADLINE_ROWS[0][0]]
        every["role"] = "record" if params.fresh and source == mp.REAL else "deciding"
        every["remembered"] = by[REMEMBERED_ROW]["requests"]
        for r in found:
            r["leak"] = headline.leak_note(leak(c), primary, r["holds"])
        rows += found
        statement = kp.own_keys_statement(read_tsv(inp[f"key_sources/{c}"]))
        sentences[c] = headline.sentence(pd.DataFrame(found), statement, c)
    if params.fresh:
        c, primary, thesaurus = params.fresh
        study = design.load(inp[f"design/{c}"])
        extra = dict(params.fresh_extra)
        per_topic = {p: read_tsv(inp[f"per_topic/{c}/{p}"])
                     for p in (primary, thesaurus, *extra.values())}
        pool = read_tsv(inp.fresh_pool)
        base = read_tsv(inp.fresh_recall_base)
        flagged = remembered.loc[remembered["source"] == mp.REAL, "qid"].tolist()
        found = headline.headline_rows(c, primary, thesaurus, per_topic, flagged, paper, study,
                                       dict(zip(pool["qid"], pool["split"])),
                                       dict(zip(base["qid"], pd.to_numeric(base["n_3"]))),
                                       extra)
        for r in found:
            r["leak"] = headline.leak_note(leak(c), primary, r["holds"])
            if r["row"] == headline.FRESH_PRIMARY:
                r["role"] = "deciding"
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
