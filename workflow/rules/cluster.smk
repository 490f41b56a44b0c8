# Cluster execution (docs/cluster.md): the rules that run in the Snakemake process itself,
# never as a cluster job. `all` only collects targets; the downloads (`thesaurus_fetch`,
# `collection_fetch`: ir_datasets files, `terrier_fetch`: the Terrier jars) run here, so
# the compute nodes need no network. Threads, memory and runtime per rule are in the
# profile (profiles/slurm/config.yaml: set-threads, set-resources).


localrules:
    all,
    thesaurus_fetch,
    collection_fetch,
    terrier_fetch,
