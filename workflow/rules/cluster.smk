# Cluster execution (docs/cluster.md): the rules that run in the Snakemake process itself,
# never as a cluster job. `all` only collects targets; `thesaurus_fetch` downloads, so the
# compute nodes need no network for it. Threads, memory and runtime per rule are in the
# profile (profiles/slurm/config.yaml: set-threads, set-resources).


localrules:
    all,
    thesaurus_fetch,
