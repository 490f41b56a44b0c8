"""The blinded rating's items and batches (docs/preregistration.md, Amendment 1, A8).

    python tools/make_rating_batches.py [--results results] [--batch-size 140]
    python tools/make_rating_batches.py --supplement R13 [--results results]

Every key of class ``own`` or ``other_concept`` (gradedrel.plans.key_sources) of the curated
plan sets named below becomes one item per plan set, request and key text: the request as
its curator saw it (the plan's ``request``), the key, and the curator's stated reason (the
plan's ``reason`` of that key; several occurrences joined). Item ids are opaque (``K0001``…,
in the order of SHA-256 of ``"rate:{plan set}:{qid}:{key}"``), and items are dealt in turn
into batches, so a batch mixes the testbeds and the rater is not told either. Writes
``config/key_ratings/items.tsv`` and ``batches.tsv``; the raters' answers go to
``config/key_ratings/ratings_<batch>.tsv`` and are committed before any is used.
Deterministic: the same key sources give the same files.

``--supplement BATCH`` keeps every rated item and adds, as batch ``BATCH``, the keys now of
class ``own`` or ``other_concept`` that no item holds yet (after the classifier correction of
Amendment 2, B2, a key can move into these classes): ids continue after the last, in the
same SHA-256 order; the brief and raters are unchanged (docs/key-rating.md).
"""
from __future__ import annotations

import argparse
import csv
import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: (collection, plan set) whose non-thesaurus keys are rated.
PLAN_SETS = [("cranfield", "expert"), ("cranfield", "expert-2"),
             ("nfcorpus", "expert-mesh"), ("nfcorpus", "expert-wordnet")]
RATED = ("own", "other_concept")


def reasons_by_position(plans_path: Path) -> dict:
    """(qid, facet_no, concept_no, list, key_no) -> (request, key, reason) of every key."""
    import sys

    sys.path.insert(0, str(ROOT))
    from gradedrel.plans import read_plans

    out = {}
    for plan in read_plans(plans_path):
        for f, facet in enumerate(plan.facets):
            for c, concept in enumerate(facet.concepts):
                for name, keys in (("keys", concept.keys), ("expansion", concept.expansion)):
                    for k, key in enumerate(keys):
                        out[(plan.qid, f, c, name, k)] = (plan.request, key.key, key.reason or "")
    return out


def items(results: Path) -> list[dict]:
    found: dict[tuple, dict] = {}
    for collection, plan_set in PLAN_SETS:
        base = results / collection / "plans" / plan_set
        by_position = reasons_by_position(base / "plans.yaml")
        with open(base / "key_sources.tsv", encoding="utf-8") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                if row["source_class"] not in RATED:
                    continue
                position = (row["qid"], int(row["facet_no"]), int(row["concept_no"]),
                            row["list"], int(row["key_no"]))
                request, key, reason = by_position[position]
                if key != row["key"]:
                    raise SystemExit(f"{base}: key sources do not match the plans at {position}")
                item = found.setdefault((plan_set, row["qid"], key), {
                    "plan_set": plan_set, "qid": row["qid"], "key": key, "request": request,
                    "reasons": []})
                if reason and reason not in item["reasons"]:
                    item["reasons"].append(reason)
    ordered = sorted(found.values(), key=lambda i: hashlib.sha256(
        f"rate:{i['plan_set']}:{i['qid']}:{i['key']}".encode()).hexdigest())
    for n, item in enumerate(ordered, start=1):
        item["item_id"] = f"K{n:04d}"
        item["reason"] = " | ".join(item.pop("reasons")) or "(no reason given)"
    return ordered


def supplement(results: Path, batch: str, out: Path) -> int:
    """Append the keys no item holds yet as batch ``batch``; the number added."""
    with open(out / "items.tsv", encoding="utf-8") as handle:
        known = list(csv.DictReader(handle, delimiter="\t"))
    held = {(r["plan_set"], r["qid"], r["key"]) for r in known}
    clean = lambda text: " ".join(str(text).split())
    new = [i for i in items(results) if (i["plan_set"], i["qid"], clean(i["key"])) not in held]
    last = max(int(r["item_id"][1:]) for r in known)
    with open(out / "items.tsv", "a", encoding="utf-8", newline="") as handle, \
            open(out / "batches.tsv", "a", encoding="utf-8", newline="") as batches:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        dealt = csv.writer(batches, delimiter="\t", lineterminator="\n")
        for n, i in enumerate(new, start=last + 1):
            writer.writerow([f"K{n:04d}", i["plan_set"], i["qid"], clean(i["key"]),
                             clean(i["reason"]), clean(i["request"])])
            dealt.writerow([f"K{n:04d}", batch])
    return len(new)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=ROOT / "results")
    parser.add_argument("--batch-size", type=int, default=140)
    parser.add_argument("--supplement", metavar="BATCH")
    args = parser.parse_args()
    if args.supplement:
        added = supplement(args.results, args.supplement, ROOT / "config" / "key_ratings")
        print(f"{added} items added as batch {args.supplement}")
        return
    table = items(args.results)
    batches = -(-len(table) // args.batch_size)
    out = ROOT / "config" / "key_ratings"
    out.mkdir(parents=True, exist_ok=True)
    clean = lambda text: " ".join(str(text).split())
    with open(out / "items.tsv", "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(["item_id", "plan_set", "qid", "key", "reason", "request"])
        for i in table:
            writer.writerow([i["item_id"], i["plan_set"], i["qid"], clean(i["key"]),
                             clean(i["reason"]), clean(i["request"])])
    with open(out / "batches.tsv", "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(["item_id", "batch"])
        for n, i in enumerate(table):
            writer.writerow([i["item_id"], f"R{n % batches + 1:02d}"])
    print(f"{len(table)} items in {batches} batches")


if __name__ == "__main__":
    main()
