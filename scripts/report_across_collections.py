"""The findings across collections: one table (TSV, Markdown) and one figure."""
import pandas as pd

from gradedrel.core import provenance
from gradedrel.core.io import write_text, write_tsv
from gradedrel.job import run_step
from gradedrel.report import across, figures, published


def main():
    summaries = [pd.read_csv(path, sep="\t", keep_default_na=False,
                             na_values={"low": [""], "high": [""]}, dtype={"effect": str})
                 for path in snakemake.input.summaries]
    thesauri = {(c, p): t for c, p, t in snakemake.params.thesauri}
    frame = across.combine(summaries, thesauri)
    write_tsv(frame, snakemake.output.tsv)
    paper = published.load(snakemake.input.published)
    testbeds = {c: pd.read_csv(path, sep="\t")
                for c, path in zip(snakemake.params.collections, snakemake.input.testbeds)}
    topics = {c: len(pd.read_csv(path, sep="\t", dtype=str))
              for c, path in zip(snakemake.params.collections, snakemake.input.topics)}
    rests = ""
    if snakemake.input.headline:   # the qualified headline's sentences, one per testbed
        from gradedrel.integrity.claims import headline_bullets

        text = open(snakemake.input.headline[0], encoding="utf-8").read()
        rests = "\n".join(["**What each testbed's verdict rests on** (the memory probe and "
                           f"the keys' sources; {snakemake.input.headline[0]}):", "",
                           *headline_bullets(text), "", ""])
    body = across.markdown(frame, "The four findings across collections")
    title, rest = body.split("\n", 1)
    write_text(f"{title}\n\n{rests}{rest.lstrip()}\n"
               + across.testbeds_markdown(testbeds, topics, paper.requests, paper.recall_base),
               snakemake.output.md)
    figures.save(across.figure(frame, snakemake.params.figures, paper=True), snakemake.output.png,
                 snakemake.output.pdf, snakemake.params.figures["dpi"])
    # the record of the table and its figure (run_step adds their checksums)
    write_text(provenance.record("report_across_collections",
                                 {"figures": snakemake.params.figures}),
               snakemake.output.provenance)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
