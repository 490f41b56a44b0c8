"""Benchmark: the InQuery scorer against Terrier's BM25, same structured queries, index and depth.

    PYTHONPATH=. python benchmarks/retrieval.py [--docs 200000] [--skip-synthetic]

Two settings, side by side in one process:

- Cranfield (``results/cranfield/index``, from the workflow) with the six stand-in
  query files of ``tests/stand_in.py`` (225 topics each);
- a synthetic collection of ``--docs`` documents whose words are drawn from a
  Zipfian vocabulary (50,000 pseudo-words, exponent 1.0, document length
  1 + Poisson(40)), indexed by Terrier exactly as the workflow indexes
  (porter, terrier stopwords, blocks), with 100 synthetic topics of 6 mid-frequency
  words each, built into the same six structures.

Both back ends run as PyTerrier transformers over one DataFrame of queries
(``InQuery(index)`` on the tree, ``pt.terrier.Retriever(wmodel="BM25")`` on the
MatchOp string), depth 1000, after one warm-up pass; each figure is the best of
``--repeats`` passes. Also measured: one JVM start (a fresh Python process that
starts Terrier, minus the same process without the start) and the one-off cost of
reading the postings into arrays.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.stand_in import write_query_files  # noqa: E402
from gradedrel.collection import postings  # noqa: E402
from gradedrel.core import terrier  # noqa: E402
from gradedrel.queries import query_files, query_types  # noqa: E402

PINS = {"version": "5.11", "helper_version": "0.0.8"}
DEPTH = 1000
WORK = ROOT / "results" / "benchmarks"


_JVM_PROBE = """
import time
t0 = time.perf_counter()
import pyterrier as pt
from gradedrel.core import terrier  # noqa: E402
t1 = time.perf_counter()
terrier.start("5.11", "0.0.8")
t2 = time.perf_counter()
index = terrier.open_index("results/cranfield/index")
pt.terrier.Retriever(index, wmodel="BM25").search("flutter")
t3 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2)
"""


def jvm_start_seconds(trials: int = 3) -> dict[str, float]:
    """Median seconds, in fresh processes: importing PyTerrier, starting the JVM with Terrier,
    and then opening the Cranfield index and answering a first query."""
    times = []
    for _ in range(trials):
        out = subprocess.run([sys.executable, "-c", _JVM_PROBE], check=True, capture_output=True,
                             text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
        times.append([float(x) for x in out.stdout.split()[-3:]])
    names = ("import", "jvm_start", "first_query")
    return {n: statistics.median(t[i] for t in times) for i, n in enumerate(names)}


def pseudo_words(n: int, rng) -> list[str]:
    consonants, vowels = "bdfgklmnprstvz", "aeiou"
    syllables = [c + v for c in consonants for v in vowels]
    words, seen = [], set()
    while len(words) < n:
        w = "".join(rng.choice(syllables, size=3)) + rng.choice(list(consonants))
        if w not in seen:
            seen.add(w)
            words.append(w)
    return words


def synthetic_documents(n_docs: int, seed: int = 20001):
    """``(documents, topics, tokens)``: a generator of ``n_docs`` Zipfian documents
    (``{"docno", "text"}``), the 100 topics drawn after them, and the token count.

    Word indices are kept as integers and joined per document, so that a million
    documents do not need the 41 M words as strings at once; the random draws are the
    same, so the documents are those of every earlier run."""
    rng = np.random.default_rng(seed)
    vocabulary = np.array(pseudo_words(50_000, rng))
    p = 1.0 / np.arange(1, len(vocabulary) + 1)
    p /= p.sum()
    lengths = 1 + rng.poisson(40, size=n_docs)
    drawn = rng.choice(len(vocabulary), size=int(lengths.sum()), p=p).astype(np.int32)
    bounds = np.concatenate([[0], np.cumsum(lengths)])
    # topics: 6 words of middling frequency (ranks 50-5000), like request words
    topics = pd.DataFrame({"qid": [str(i + 1) for i in range(100)],
                           "query": [" ".join(vocabulary[rng.integers(50, 5000, size=6)])
                                     for _ in range(100)]})
    words = vocabulary.tolist()

    def documents():
        for i in range(n_docs):
            yield {"docno": f"s{i:06d}",
                   "text": " ".join([words[w] for w in drawn[bounds[i]:bounds[i + 1]].tolist()])}

    return documents(), topics, int(lengths.sum())


def synthetic_collection(n_docs: int, out: Path, seed: int = 20001,
                         threads: int = 1) -> tuple[Path, pd.DataFrame]:
    """Index ``n_docs`` Zipfian documents (once; reused if present); return (index, topics)."""
    docs, topics, tokens = synthetic_documents(n_docs, seed)
    index = out / ("index" if threads == 1 else f"index-{threads}threads")
    if not (index / "data.properties").exists():
        t = time.perf_counter()
        terrier.build_index(docs, index, stemmer="porter", stopwords="terrier", blocks=True,
                            max_docno_length=8, threads=threads)
        print(f"synthetic: generated and indexed {n_docs} documents "
              f"({tokens} tokens) with {threads} thread(s) in {time.perf_counter() - t:.1f} s",
              flush=True)
    return index, topics


def time_transform(transformer, queries: pd.DataFrame, repeats: int) -> float:
    transformer.transform(queries)  # warm-up: JIT, caches
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        transformer.transform(queries)
        best = min(best, time.perf_counter() - t)
    return best


def compare(name: str, index_dir: Path, topics: pd.DataFrame, queries_dir: Path,
            repeats: int) -> list[dict]:
    import pyterrier as pt

    from gradedrel.retrieval.transformers import InQuery

    pipeline = terrier.term_pipeline(index_dir)
    write_query_files(topics, queries_dir, lambda t: pipeline(t) is None)
    t = time.perf_counter()
    arrays = postings.cached(index_dir, index_dir.parent / "index_arrays")
    load = time.perf_counter() - t
    print(f"{name}: postings arrays ready in {load:.1f} s ({len(arrays.docids)} postings, "
          f"{len(arrays.positions)} positions, {arrays.N} documents)", flush=True)
    inquery = InQuery(index_dir, num_results=DEPTH, cache_dir=index_dir.parent / "index_arrays")
    bm25 = pt.terrier.Retriever(terrier.open_index(index_dir), wmodel="BM25", num_results=DEPTH)
    rows = []
    for slug in query_types.SLUGS:
        q = query_files.read_query_file(queries_dir / f"{slug}.jsonl")
        batch = pd.DataFrame({"qid": q["qid"], "query": q["matchop"], "tree": q["tree"]})
        t_iq = time_transform(inquery, batch, repeats)
        t_bm = time_transform(bm25, batch, repeats)
        rows.append({"collection": name, "query type": dict(zip(query_types.SLUGS, query_types.LABELS))[slug],
                     "queries": len(batch), "InQuery q/s": len(batch) / t_iq,
                     "BM25 q/s": len(batch) / t_bm, "ratio": t_iq / t_bm})
        print(rows[-1], flush=True)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--docs", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--skip-synthetic", action="store_true")
    args = parser.parse_args()

    jvm = jvm_start_seconds()
    print(f"JVM start: {jvm['jvm_start']:.2f} s; then index + first query {jvm['first_query']:.2f} s "
          f"(importing PyTerrier before it {jvm['import']:.2f} s)", flush=True)
    terrier.start(**PINS)
    rows = []
    cranfield = ROOT / "results" / "cranfield"
    topics = pd.read_csv(cranfield / "topics.tsv", sep="\t", dtype=str, keep_default_na=False)
    rows += compare("Cranfield", cranfield / "index", topics, WORK / "cranfield" / "queries",
                    args.repeats)
    if not args.skip_synthetic:
        out = WORK / f"synthetic-{args.docs}"
        index, topics = synthetic_collection(args.docs, out)
        rows += compare(f"Zipf {args.docs // 1000}k", index, topics, out / "queries", args.repeats)
    table = pd.DataFrame(rows)
    print()
    print(table.to_markdown(index=False, floatfmt=".2f") if hasattr(table, "to_markdown")
          else table.to_string(index=False))
    for name, group in table.groupby("collection", sort=False):
        total_iq = (group["queries"] / group["InQuery q/s"]).sum()
        total_bm = (group["queries"] / group["BM25 q/s"]).sum()
        print(f"{name}: all six types, InQuery {group['queries'].sum() / total_iq:.1f} q/s, "
              f"BM25 {group['queries'].sum() / total_bm:.1f} q/s, time ratio {total_iq / total_bm:.2f}")


if __name__ == "__main__":
    main()
