"""Benchmark: the pipeline's collection and retrieval stages on synthetic Zipf collections.

    PYTHONPATH=. python benchmarks/scale.py --docs 200000 1000000 [--phases index arrays retrieval]

The collections are those of ``benchmarks/retrieval.py`` (``synthetic_documents``: 50,000
pseudo-words, Zipf exponent 1.0, length 1 + Poisson(40), seed 20001), under
``results/benchmarks/synthetic-<docs>/``. Every task runs in a fresh Python process (so
that its peak memory is its own) and the tasks of one size run one after the other in
one invocation, so that the ratios compare like with like on the shared machine. Figures
go to ``results/benchmarks/scale.json`` (one record per task, with the load average
before and after it) and are summarised on stdout.

Phases, per size:

- ``index``: Terrier indexes the documents with 1 thread and with ``--threads`` threads
  (Terrier's parallel indexer through PyTerrier), as the workflow indexes (porter,
  Terrier's stopwords, blocks); wall and CPU time, documents per second.
- ``arrays``: the InQuery posting arrays built from the 1-thread index
  (:func:`gradedrel.collection.postings.build`): postings per second, and peak memory
  (``ru_maxrss``) above the process's size just before the build (JVM started, index
  open) against the arrays' size on disk. With ``--old-reader`` also the per-posting
  reader of before (three pyjnius calls per posting), for the ratio.
- ``retrieval``: a retrieval job's memory — resident size after opening the
  memory-mapped arrays and after scoring the 100 topics in all six query types
  (InQuery, depth 1000), against the arrays' size — and InQuery's throughput against
  Terrier's BM25 on the same queries, index and depth (``benchmarks/retrieval.py``'s
  comparison, best of ``--repeats`` passes).
- ``counts``: the phrase and ``#syn`` document counts of planning and ``syn_statistics``,
  counted as before (Terrier retrieves every matching document: Tf model, N + 1 results)
  and from the posting arrays (:class:`gradedrel.collection.matches.MatchCounter`), the
  same queries one after the other in one process, counts checked equal: the multi-word
  keys of the query trees (``#combine(phrase)``, as ``plan_requests`` asks) and every
  ``#syn`` group's members and union (as ``syn_statistics`` asks). Queries: the stand-in
  query files of the first ``--count-topics`` topics, written to a temporary directory;
  with ``--cranfield`` instead the workflow's Cranfield index, arrays and ``auto`` query
  files under ``--cranfield`` (a results directory, read only).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

WORK = ROOT / "results" / "benchmarks"
RESULTS = WORK / "scale.json"
PINS = {"version": "5.11", "helper_version": "0.0.8"}


def load_average() -> float:
    return os.getloadavg()[0]


def rss_mb() -> float:
    """Resident set size now (MB), from /proc (includes mapped file pages touched)."""
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def mapped_mb(directory: Path) -> float:
    """Resident size (MB) of this process's memory mappings of files in ``directory``: the
    pages of the memory-mapped arrays that were actually read (/proc/self/smaps)."""
    total, inside = 0, False
    prefix = str(Path(directory).resolve()) + "/"
    with open("/proc/self/smaps") as handle:
        for line in handle:
            fields = line.split()
            if fields and "-" in fields[0] and len(fields) >= 5 and ":" in fields[3]:
                inside = len(fields) >= 6 and fields[5].startswith(prefix)
            elif inside and fields and fields[0] == "Rss:":
                total += int(fields[1])
    return total / 1024


def disk_mb(directory: Path) -> float:
    return sum(p.stat().st_size for p in Path(directory).iterdir() if p.is_file()) / 2**20


# -- tasks, each run in its own process: python benchmarks/scale.py --task NAME --docs N ...

def task_index(docs: int, threads: int) -> dict:
    import logging

    import shutil

    from retrieval import synthetic_documents

    from gradedrel.core import terrier
    from gradedrel.core.progress import progress

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stdout)
    terrier.start(**PINS)
    index = WORK / f"synthetic-{docs}" / ("index" if threads == 1 else f"index-{threads}threads")
    shutil.rmtree(index, ignore_errors=True)
    documents, _, _ = synthetic_documents(docs)  # the draws, before the clock starts
    wall, cpu = time.perf_counter(), time.process_time()
    documents = progress(documents, desc="indexing", unit="documents", total=docs)
    terrier.build_index(documents, index, stemmer="porter", stopwords="terrier", blocks=True,
                        max_docno_length=8, threads=threads)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    stats = terrier.index_statistics(terrier.open_index(index))
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"threads": threads, "wall_s": wall, "cpu_s": cpu,
            "children_cpu_s": children.ru_utime + children.ru_stime,
            "docs_per_s": docs / wall, "peak_mb": peak_mb(), **stats,
            "index_mb": disk_mb(index)}


def task_arrays(docs: int, old_reader: bool) -> dict:
    from gradedrel.collection import postings
    from gradedrel.core import terrier

    terrier.start(**PINS)
    index_dir = WORK / f"synthetic-{docs}" / "index"
    out = WORK / f"synthetic-{docs}" / "index_arrays" / postings.CACHE_NAME
    before = rss_mb()
    wall, cpu = time.perf_counter(), time.process_time()
    if old_reader:
        arrays = _old_read_index(terrier.open_index(index_dir))
        n = len(arrays.docids)
    else:
        n = postings.build(index_dir, out, postings.index_signature(index_dir))["postings"]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    child = resource.getrusage(resource.RUSAGE_CHILDREN)
    record = {"reader": "per-posting (before)" if old_reader else "Java writer (postings.build)",
              "postings": n, "wall_s": wall, "cpu_s": cpu + child.ru_utime + child.ru_stime,
              "postings_per_s": n / wall,
              "postings_per_cpu_s": n / (cpu + child.ru_utime + child.ru_stime),
              "rss_before_mb": before, "python_peak_above_before_mb": peak_mb() - before,
              "java_peak_mb": child.ru_maxrss / 1024}
    if not old_reader:
        record["arrays_on_disk_mb"] = disk_mb(out)
        # the build's memory: the Java process's peak plus what the Python process added
        record["peak_mb"] = record["java_peak_mb"] + max(0.0, record["python_peak_above_before_mb"])
        record["peak_over_disk"] = record["peak_mb"] / record["arrays_on_disk_mb"]
    return record


def _old_read_index(index):
    """The reader this benchmark replaces: three pyjnius calls per posting, Python lists."""
    import numpy as np
    import pyterrier as pt

    from gradedrel.collection import postings

    lexicon = index.getIndexStructureInputStream("lexicon")
    inverted = index.getIndexStructureInputStream("inverted")
    terms, dfs, docids, npos, positions = [], [], [], [], []
    while lexicon.hasNext():
        entry = lexicon.next()
        posting = inverted.next()
        block = pt.java.cast("org.terrier.structures.postings.BlockPosting", posting)
        advance, docid, get_positions, eol = posting.next, posting.getId, block.getPositions, posting.EOL
        read = 0
        while advance() != eol:
            docids.append(docid())
            pos = get_positions()
            npos.append(len(pos))
            positions.extend(pos)
            read += 1
        terms.append(str(entry.getKey()))
        dfs.append(read)
    n = index.getCollectionStatistics().getNumberOfDocuments()
    return postings.PostingArrays(np.array(terms, dtype=str), np.cumsum([0] + dfs),
                                  np.array(docids, np.int32), np.array(npos, np.int32),
                                  np.cumsum([0] + npos), np.array(positions, np.int32),
                                  np.zeros(n, np.int64), np.zeros(n, dtype=str))


def task_retrieval(docs: int, repeats: int) -> dict:
    import pandas as pd
    from retrieval import compare, synthetic_documents

    from gradedrel.collection import postings
    from gradedrel.core import terrier
    from gradedrel.queries import query_files, query_types
    from gradedrel.retrieval.inquery import Scorer
    from tests.stand_in import write_query_files

    terrier.start(**PINS)
    out = WORK / f"synthetic-{docs}"
    index_dir = out / "index"
    array_dir = out / "index_arrays" / postings.CACHE_NAME
    _, topics, _ = synthetic_documents(docs)
    pipeline = terrier.term_pipeline(index_dir)
    write_query_files(topics, out / "queries", lambda t: pipeline(t) is None)
    trees = [tree for slug in query_types.SLUGS
             for tree in query_files.read_query_file(out / "queries" / f"{slug}.jsonl")["tree"]]
    # memory: open the memory-mapped arrays, then rank the first query type's 100 queries,
    # then every query of the six types
    before = rss_mb()
    arrays, _ = postings.load(array_dir)
    scorer = Scorer(arrays, pipeline)
    opened = rss_mb()
    first = len(trees) // 6
    for tree in trees[:first]:
        scorer.rank(_tree(tree), 1000)
    after_first = rss_mb()
    for tree in trees[first:]:
        scorer.rank(_tree(tree), 1000)
    after = rss_mb()
    memory = {"arrays_on_disk_mb": disk_mb(array_dir), "queries": len(trees),
              "touched_first_type_mb": _touched_mb(array_dir, trees[:first], pipeline),
              "touched_all_mb": _touched_mb(array_dir, trees, pipeline),
              "rss_before_open_mb": before, "rss_after_open_mb": opened,
              "rss_after_first_type_mb": after_first, "rss_after_queries_mb": after,
              "growth_open_mb": opened - before, "growth_first_type_mb": after_first - opened,
              "growth_queries_mb": after - opened,
              "growth_over_disk": (after - before) / disk_mb(array_dir)}
    print(json.dumps(memory), flush=True)
    rows = compare(f"Zipf {docs // 1000}k", index_dir, topics, out / "queries", repeats)
    table = pd.DataFrame(rows)
    total_iq = float((table["queries"] / table["InQuery q/s"]).sum())
    total_bm = float((table["queries"] / table["BM25 q/s"]).sum())
    return {"memory": memory, "throughput": rows,
            "all_types": {"InQuery_s": total_iq, "BM25_s": total_bm, "ratio": total_iq / total_bm}}


def _touched_mb(arrays, trees, pipeline) -> float:
    """Size (MB) of the posting lists (docids, tfs, position offsets, positions) of every index
    term the queries name: what their scoring can read from the arrays."""
    import numpy as np

    from gradedrel.retrieval.inquery import TermKey, prepare

    terms = set()

    def walk(node):
        if isinstance(node, TermKey):
            terms.update(node.terms)
        elif node is not None:
            for child in getattr(node, "children", getattr(node, "keys", ())):
                walk(child)

    for tree in trees:
        walk(prepare(_tree(tree), pipeline))
    if arrays is None:
        return 0.0
    # read in memory, not through the mapping being measured (each read through it would
    # map a whole fault-around window)
    names = ("terms", "term_offsets", "position_offsets")
    terms_all, offsets, position_offsets = (np.load(Path(arrays) / f"{n}.npy") for n in names)
    total = 0
    for term in terms:
        i = int(np.searchsorted(terms_all, term))
        if i < len(terms_all) and terms_all[i] == term:
            lo, hi = int(offsets[i]), int(offsets[i + 1])
            total += (hi - lo) * (4 + 4 + 8)
            total += 4 * int(position_offsets[hi] - position_offsets[lo])
    return total / 2**20


def _tree(value):
    """A query file's tree (JSON text or a dict) as query-tree nodes, as the InQuery
    transformer reads it."""
    import json

    from gradedrel.queries.query_tree import from_dict

    value = json.loads(value) if isinstance(value, str) else value
    return from_dict(value) if isinstance(value, dict) else value


def task_memory(docs: int) -> dict:
    """A retrieval job's memory: the resident pages of the memory-mapped arrays after
    opening them, after the first query type's 100 queries and after all 600, against the
    posting lists those queries name and the arrays' size; and the process's resident size."""
    from retrieval import synthetic_documents

    from gradedrel.collection import postings
    from gradedrel.core import terrier
    from gradedrel.queries import query_files, query_types
    from gradedrel.retrieval.inquery import Scorer
    from tests.stand_in import write_query_files

    terrier.start(**PINS)
    out = WORK / f"synthetic-{docs}"
    index_dir = out / "index"
    array_dir = out / "index_arrays" / postings.CACHE_NAME
    _, topics, _ = synthetic_documents(docs)
    import functools

    # each token's term remembered, as the InQuery transformer does
    pipeline = functools.lru_cache(maxsize=None)(terrier.term_pipeline(index_dir))
    write_query_files(topics, out / "queries", lambda t: pipeline(t) is None)
    trees = [_tree(tree) for slug in query_types.SLUGS for tree in
             query_files.read_query_file(out / "queries" / f"{slug}.jsonl")["tree"]]
    for tree in trees:  # the term pipeline (Java) once per word, before measuring
        _touched_mb(None, [tree], pipeline)
    first = len(trees) // 6
    rss0 = rss_mb()
    arrays, _ = postings.load(array_dir)
    scorer = Scorer(arrays, pipeline)
    record = {"arrays_on_disk_mb": disk_mb(array_dir), "queries": len(trees),
              "touched_first_type_mb": _touched_mb(array_dir, trees[:first], pipeline),
              "touched_all_mb": _touched_mb(array_dir, trees, pipeline),
              "mapped_after_open_mb": mapped_mb(array_dir), "rss_growth_open_mb": rss_mb() - rss0}
    for tree in trees[:first]:
        scorer.rank(tree, 1000)
    record.update(mapped_after_first_type_mb=mapped_mb(array_dir),
                  rss_growth_first_type_mb=rss_mb() - rss0)
    for tree in trees[first:]:
        scorer.rank(tree, 1000)
    record.update(mapped_after_all_mb=mapped_mb(array_dir), rss_growth_all_mb=rss_mb() - rss0)
    record["mapped_over_disk"] = record["mapped_after_all_mb"] / record["arrays_on_disk_mb"]
    return record


def task_counts(docs: int, topics: int = 100, cranfield: str | None = None) -> dict:
    """Phrase and #syn counts by retrieval (before) and from the arrays (now), same queries."""
    import tempfile

    from gradedrel.collection import matches, postings
    from gradedrel.core import terrier
    from gradedrel.plans import key_stats
    from gradedrel.queries import matchop, query_files, query_tree, query_types, syn_statistics
    from tests import terrier_counts  # Terrier's own counts, the way before the arrays

    terrier.start(**PINS)
    if cranfield:
        out = Path(cranfield)
        index_dir, query_dir, temporary = out / "index", out / "queries" / "auto", None
    else:
        from retrieval import synthetic_documents
        from tests.stand_in import write_query_files

        out = WORK / f"synthetic-{docs}"
        index_dir = out / "index"
        temporary = tempfile.TemporaryDirectory()
        query_dir = Path(temporary.name)
        _, all_topics, _ = synthetic_documents(docs)
    array_dir = out / "index_arrays" / postings.CACHE_NAME
    pipeline = terrier.term_pipeline(index_dir)
    if temporary is not None:
        write_query_files(all_topics.head(topics), query_dir, lambda t: pipeline(t) is None)
    writer = matchop.MatchOpWriter(pipeline, "auto")
    trees = [(slug, query_tree.from_dict(t)) for slug in query_types.SLUGS
             for t in query_files.read_query_file(query_dir / f"{slug}.jsonl")["tree"]]

    def keys(node):
        if isinstance(node, query_tree.Key):
            return [node]
        if isinstance(node, query_tree.Syn):
            return list(node.keys)
        return [k for c in node.children for k in keys(c)]

    phrases = sorted({tuple(t for t in k.tokens if pipeline(t)) for _, tree in trees
                      for k in keys(tree) if len(writer.key(k)[1] if writer.key(k) else ()) > 1})
    syn_files = [query_dir / f"{slug}.jsonl" for slug in query_types.SLUGS if "SYN" in slug]
    index = terrier.open_index(index_dir)
    documents = terrier.index_statistics(index)["documents"]
    timings, results = {}, {}
    for way in ("arrays", "retrieval"):
        started, cpu = time.perf_counter(), time.process_time()
        if way == "arrays":
            counter = matches.MatchCounter(postings.checked(index_dir, array_dir), pipeline)
            phrase_df = key_stats.posting_phrase_df(counter, "auto")
        else:
            counter = terrier_counts.document_counter(index, documents)
            phrase_df = terrier_counts.terrier_phrase_df(index, "auto")
        dfs = [phrase_df(p) for p in phrases]
        middle = time.perf_counter()
        rows = syn_statistics.query_file_rows(syn_files, writer, counter, documents)
        ended = time.perf_counter()
        results[way] = (dfs, rows)
        timings[way] = {"phrases_s": middle - started, "syn_s": ended - middle,
                        "total_s": ended - started, "cpu_s": time.process_time() - cpu}
    if results["arrays"][0] != results["retrieval"][0] or not results["arrays"][1].equals(
            results["retrieval"][1]):
        raise SystemExit("the counts from the arrays differ from Terrier's retrieval")
    if temporary is not None:
        temporary.cleanup()
    rows = results["arrays"][1]
    return {"collection": str(out.name), "documents": documents, "phrases": len(phrases),
            "syn_groups": len(rows), "syn_queries": int(len(rows) + rows["members"].sum()),
            "phrase_df_mean": float(sum(results["arrays"][0]) / max(len(phrases), 1)),
            "union_df_mean": float(rows["union_df"].mean()) if len(rows) else 0.0,
            **{f"{way}_{k}": v for way, t in timings.items() for k, v in t.items()},
            "ratio_retrieval_over_arrays": timings["retrieval"]["total_s"] / timings["arrays"]["total_s"]}


TASKS = {"index": task_index, "arrays": task_arrays, "retrieval": task_retrieval,
         "memory": task_memory, "counts": task_counts}


def run_task(name: str, docs: int, **options) -> dict:
    """Run one task in a fresh process; its record, with the load average around it."""
    args = [sys.executable, __file__, "--task", name, "--docs", str(docs),
            "--options", json.dumps(options)]
    load_before, started = load_average(), time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())
    done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    sys.stdout.write(done.stdout[-4000:])
    if done.returncode:
        sys.stderr.write(done.stderr[-4000:])
        raise SystemExit(f"task {name} ({docs} docs, {options}) failed")
    record = json.loads(done.stdout.strip().splitlines()[-1])
    record.update({"task": name, "docs": docs, "options": options, "started_utc": started,
                   "load_before": load_before, "load_after": load_average()})
    with RESULTS.open("a") as handle:
        handle.write(json.dumps(record) + "\n")
    print(json.dumps(record), flush=True)
    return record


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--docs", type=int, nargs="*", default=[200_000, 1_000_000])
    parser.add_argument("--phases", nargs="+", default=["index", "arrays", "memory", "retrieval"])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--old-reader", action="store_true")
    parser.add_argument("--count-topics", type=int, default=100)
    parser.add_argument("--cranfield", help="results/cranfield of a finished run (phase counts)")
    parser.add_argument("--task", choices=sorted(TASKS))
    parser.add_argument("--options", default="{}")
    args = parser.parse_args()
    if args.task:
        record = TASKS[args.task](args.docs[0], **json.loads(args.options))
        print(json.dumps(record))
        return
    WORK.mkdir(parents=True, exist_ok=True)
    for docs in args.docs:
        if "index" in args.phases:
            for threads in sorted({1, args.threads}):
                run_task("index", docs, threads=threads)
        if "arrays" in args.phases:
            run_task("arrays", docs, old_reader=False)
            if args.old_reader:
                run_task("arrays", docs, old_reader=True)
        if "memory" in args.phases:
            run_task("memory", docs)
        if "retrieval" in args.phases:
            run_task("retrieval", docs, repeats=args.repeats)
        if "counts" in args.phases:
            run_task("counts", docs, topics=args.count_topics)
    if "counts" in args.phases and args.cranfield:
        run_task("counts", 0, cranfield=str(Path(args.cranfield).resolve()))


if __name__ == "__main__":
    main()
