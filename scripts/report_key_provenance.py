"""The decomposition of the primary effect into structure, request-word and thesaurus
expansion, other-concept and curators' own keys (Amendment 1, A4), and the robustness rows
(A5): results/{c}/report/key_sources.{md,tsv} and their companions."""
from gradedrel.core.io import read_tsv, write_text, write_tsv
from gradedrel.job import run_step
from gradedrel.plans import key_sources
from gradedrel.plans.plan_sets import input_key
from gradedrel.integrity import key_provenance as kp


def main():
    inp, out, params = snakemake.input, snakemake.output, snakemake.params
    primary, derived = params.primary, params.derived   # derived: suffix -> plan set name
    per_topic = {"": read_tsv(inp[input_key("per_topic", primary)])}
    per_topic.update({suffix: read_tsv(inp[input_key("per_topic", name)])
                      for suffix, name in derived.items()})
    per_request = kp.decompose(kp.series(per_topic))
    table = kp.summary(per_request)
    write_tsv(table, out.tsv)
    write_tsv(per_request.rename_axis("qid").reset_index(), out.per_request)
    sources = key_sources.read(inp[input_key("key_sources", primary)])
    curators = dict(zip(sources["qid"], sources["curator"]))
    recall = read_tsv(inp.recall_base)
    level3 = dict(zip(recall["qid"], recall["n_3"].astype(int)))
    differences = {primary: kp.primary_differences(per_topic[""])}
    if "thesaurus" in derived:
        differences[derived["thesaurus"]] = kp.primary_differences(per_topic["thesaurus"])
    robust = kp.robustness(differences, curators, level3)
    write_tsv(robust, out.robustness)
    collection = snakemake.wildcards.collection
    lines = [f"# Where the primary effect comes from: {collection}, {primary}", "",
             kp.own_keys_statement(table) + ".", "",
             kp.decomposition_table(table, "Decomposition of WSYN/e − SUM/u "
                                    "(AvP level 3, InQuery)").to_markdown(),
             kp.robustness_table(robust, "Robustness of the primary comparison").to_markdown()]
    for plan_set in params.plan_sets:
        shares = read_tsv(inp[input_key("shares_curators", plan_set)])
        lines.append(kp.shares_table(shares, "curator",
                                     f"Key sources per curator: {plan_set}").to_markdown())
    write_text("\n".join(lines), out.md)


run_step(snakemake.log[0], main, snakemake.wildcards, snakemake.output, config=snakemake.config)
