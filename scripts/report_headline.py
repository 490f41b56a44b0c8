"""The qualified headline of each probed testbed (docs/preregistration.md, Amendment 1,
A3, A7): the pre-registered primary comparison, H2q (request and thesaurus keys only, on
the requests the memory probe clears), and the cleared and remembered subsets."""
import pandas as pd

from gradedrel.core.io import read_tsv, write_text, write_tsv
from gradedrel.core.steps import run_step
from gradedrel.report import assessment, design, headline, published
from gradedrel.report import key_provenance as kp


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
    table = pd.DataFrame(rows, columns=headline.COLUMNS)
    write_tsv(table, out.tsv)
    write_text(headline.markdown(table, sentences), out.md)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output)
