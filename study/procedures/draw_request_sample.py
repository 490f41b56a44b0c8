"""Draw the requests for intellectual curation by a rule fixed in advance (counts only).

Candidates: requests of an ir_datasets id with at least ``--min-fairly`` judged documents
at level 2 and ``--min-highly`` at level 3 (after the grade map). The sample: the
``--size`` candidates ranked first by sha256("{seed}:{qid}")
(:func:`request_sample.seeded_sample`, beside it); the batches: the sample dealt in
the order of sha256("{deal_seed}:{qid}") to the curators in turn. Only the *number* of
judgements per level is read; nothing here prints a judgement.

    python study/procedures/draw_request_sample.py --dataset nfcorpus/test/video \
        --grade-map '{"3": 3, "2": 2, "1": 1}' --size 30 --seed 2016 \
        --curators H I J --deal-seed 2017 --out config/nfcorpus
"""
from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from request_sample import deal, seeded_sample


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", required=True)
    parser.add_argument("--grade-map", required=True, help="JSON: raw grade -> level")
    parser.add_argument("--min-fairly", type=int, default=1)
    parser.add_argument("--min-highly", type=int, default=1)
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--curators", nargs="+", required=True)
    parser.add_argument("--deal-seed", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()

    import ir_datasets

    grade_map = {int(k): int(v) for k, v in json.loads(args.grade_map).items()}
    dataset = ir_datasets.load(args.dataset)
    counts: Counter = Counter()
    for qrel in dataset.qrels_iter():
        counts[qrel.query_id, grade_map[int(qrel.relevance)]] += 1
    qids = [q.query_id for q in dataset.queries_iter()]
    candidates = [q for q in qids if counts[q, 2] >= args.min_fairly
                  and counts[q, 3] >= args.min_highly]
    sample = seeded_sample(candidates, args.size, args.seed)
    batches = deal(sample, args.curators, args.deal_seed)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "candidates.txt").write_text("".join(f"{q}\n" for q in candidates))
    (args.out / "requests.txt").write_text("".join(f"{q}\n" for q in sample))
    (args.out / "curation_batches.tsv").write_text(
        "qid\tcurator\n" + "".join(f"{q}\t{batches[q]}\n" for q in sample))
    print(f"{len(qids)} requests, {len(candidates)} candidates, {len(sample)} drawn, "
          f"batches {dict(Counter(batches.values()))}")


if __name__ == "__main__":
    main()
