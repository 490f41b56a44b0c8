"""Compare the plan sets of a collection: plan profiles, curator agreement, AvP by condition."""
import pandas as pd

from gradedrel import plans
from gradedrel.core import terrier
from gradedrel.integrity import curation
from gradedrel.plans.plan_sets import input_key
from gradedrel.core.io import read_tsv, write_text, write_tsv
from gradedrel.job import run_step
from gradedrel.evaluation.measures.avp import AvP

AVP = [str(AvP(level=level)) for level in (1, 2, 3)]


def main():
    inp, params = snakemake.input, snakemake.params
    selected = {p: read_tsv(inp[input_key("topics", p)])["qid"].tolist()
                for p in params.plan_sets}
    # each plan set's plans of its own topics only (its file also holds automatic plans
    # of the other topics, which it neither runs nor evaluates)
    loaded = {p: [plan for plan in plans.read_plans(inp[input_key("plans", p)])
                  if plan.qid in set(selected[p])] for p in params.plan_sets}
    profiles = pd.DataFrame([{"plan_set": p, **curation.profile(loaded[p])}
                             for p in params.plan_sets])
    write_tsv(profiles, snakemake.output.profiles, float_format="%.3f")

    means = pd.concat([pd.read_csv(inp[input_key("means", p, m)], sep="\t")
                       .assign(plan_set=p, model=m)
                       for p in params.plan_sets for m in params.models], ignore_index=True)
    means = means[means["measure"].isin(AVP)][["plan_set", "model", "run", "measure", "mean",
                                               "topics"]]
    write_tsv(means, snakemake.output.conditions)

    agreement = pd.DataFrame()
    between = pd.DataFrame()
    if params.agreement:
        first, second = params.agreement["first"], params.agreement["second"]
        terrier.start(**params.terrier)
        pipeline = terrier.term_pipeline(inp.index)
        agreement = curation.agreement(loaded[first], loaded[second], pipeline)
        common = agreement["qid"].tolist()
        between = pd.concat([
            curation.avp_between(read_tsv(inp[input_key("per_topic", first, m)]),
                                 read_tsv(inp[input_key("per_topic", second, m)]),
                                 common, AVP).assign(model=m)
            for m in params.models], ignore_index=True)
    write_tsv(agreement, snakemake.output.agreement, float_format="%.3f")
    write_tsv(between, snakemake.output.between)
    pair = params.agreement or {}
    write_text(curation.summary_markdown(profiles, agreement if pair else None, between,
                                         pair.get("first", ""), pair.get("second", "")),
               snakemake.output.summary)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
