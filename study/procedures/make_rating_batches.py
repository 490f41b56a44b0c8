"""The blinded rating's items and batches (docs/preregistration.md, Amendment 1, A8).

    python study/procedures/make_rating_batches.py [--results results] [--batch-size 140]
    python study/procedures/make_rating_batches.py --supplement R13 [--results results]

Every key of class ``own`` or ``other_concept`` (gradedrel.plans.key_sources) of the curated
plan sets named below becomes one item per plan set, request and key text: the request as
its curator saw it (the plan's ``request``), the key, and the curator's stated reason (the
plan's ``reason`` of that key; several occurrences joined). Item ids are opaque (``K0001``…,
in the order of SHA-256 of ``"rate:{plan set}:{qid}:{key}"``), and items are dealt in turn
into batches, so a batch mixes the testbeds and the rater is not told either. Writes
``config/key_ratings/items.tsv`` and ``batches.tsv``; the raters' answers go to
``config/key_ratings/ratings_<batch>.tsv`` and are committed before any is used.
Deterministic: the same key sources give the same files.

``--fresh`` (Amendment 3, C4; docs/preregistration-nfcorpus.md) keeps every rated item and
appends the ``own`` and ``other_concept`` keys of the fresh plan set (:data:`FRESH_PLAN_SETS`)
in the same SHA-256 order, ids continuing after the last, dealt in turn into new batches of
at most ``--batch-size`` (``R14``…). ``--rater-file BATCH`` prints the file a rater of a fresh
batch reads: the brief of C4 and, per item, only its id, request text and key (no reason).

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

ROOT = Path(__file__).resolve().parents[2]
#: (collection, plan set) whose non-thesaurus keys are rated.
PLAN_SETS = [("cranfield", "expert"), ("cranfield", "expert-2"),
             ("nfcorpus", "expert-mesh"), ("nfcorpus", "expert-wordnet")]
RATED = ("own", "other_concept")
#: Amendment 3, C4: the fresh plan set whose non-thesaurus keys are rated (request and key only).
FRESH_PLAN_SETS = [("nfcorpus-fresh", "fresh-mesh")]
#: Amendment 3, C4: A8's brief verbatim, except that an item shows no reason.
FRESH_BRIEF = """You are rating search keys. For each item below (one per line: an id, a search request,
and a key a person added to their search for that request), decide how the key could have
been found:
- `inferable`: a searcher could come up with this key from the request text and general
  knowledge of its subject (its usual terms, synonyms, related concepts, the methods and
  quantities the field talks about);
- `page`: the key needs knowledge of a specific source the request does not reveal — the
  particular web page or paper the request was written from, or the particular studies
  it cites (a named study, author, trial, product or finding that general knowledge of
  the subject would not suggest).
When in doubt, ask whether a well-read searcher who had never seen the request's source
would plausibly type the key; if yes, `inferable`. Rate every item; do not skip any. Work
only from this file: do not open or read any other file and use no tool except to write your
answer file. Write a TSV file with the header `item_id<TAB>rating<TAB>recognised` and one
line per item; `recognised` is `yes` if you recognise the particular web page the request was
written from, else `no`.
"""


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


def items(results: Path, plan_sets=PLAN_SETS) -> list[dict]:
    found: dict[tuple, dict] = {}
    for collection, plan_set in plan_sets:
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


def fresh(results: Path, out: Path, batch_size: int) -> int:
    """Append the fresh plan set's items (C4) as new batches; the number added."""
    with open(out / "items.tsv", encoding="utf-8") as handle:
        known = list(csv.DictReader(handle, delimiter="\t"))
    with open(out / "batches.tsv", encoding="utf-8") as handle:
        dealt_before = {r["batch"] for r in csv.DictReader(handle, delimiter="\t")}
    held = {r["plan_set"] for r in known}
    if held & {p for _, p in FRESH_PLAN_SETS}:
        raise SystemExit(f"{out / 'items.tsv'}: the fresh plan set's items are there already")
    new = items(results, FRESH_PLAN_SETS)
    last = max(int(r["item_id"][1:]) for r in known)
    first = max(int(b[1:]) for b in dealt_before) + 1
    batches = -(-len(new) // batch_size)
    clean = lambda text: " ".join(str(text).split())
    with open(out / "items.tsv", "a", encoding="utf-8", newline="") as handle, \
            open(out / "batches.tsv", "a", encoding="utf-8", newline="") as dealt:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        dealer = csv.writer(dealt, delimiter="\t", lineterminator="\n")
        for n, i in enumerate(new):
            item_id = f"K{last + 1 + n:04d}"
            writer.writerow([item_id, i["plan_set"], i["qid"], clean(i["key"]),
                             clean(i["reason"]), clean(i["request"])])
            dealer.writerow([item_id, f"R{first + n % batches:02d}"])
    return len(new)


def rater_file(out: Path, batch: str) -> str:
    """The one file a rater of a fresh batch reads: the brief, then id, request, key."""
    with open(out / "batches.tsv", encoding="utf-8") as handle:
        chosen = {r["item_id"] for r in csv.DictReader(handle, delimiter="\t")
                  if r["batch"] == batch}
    with open(out / "items.tsv", encoding="utf-8") as handle:
        rows = [r for r in csv.DictReader(handle, delimiter="\t") if r["item_id"] in chosen]
    if not rows:
        raise SystemExit(f"{out / 'batches.tsv'}: no item in batch {batch}")
    lines = [FRESH_BRIEF, "item_id\trequest\tkey"]
    lines += [f"{r['item_id']}\t{r['request']}\t{r['key']}" for r in rows]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=ROOT / "results")
    parser.add_argument("--batch-size", type=int, default=140)
    parser.add_argument("--supplement", metavar="BATCH")
    parser.add_argument("--fresh", action="store_true")
    parser.add_argument("--rater-file", metavar="BATCH")
    args = parser.parse_args()
    if args.fresh:
        added = fresh(args.results, ROOT / "config" / "key_ratings", args.batch_size)
        print(f"{added} items of {FRESH_PLAN_SETS} added")
        return
    if args.rater_file:
        print(rater_file(ROOT / "config" / "key_ratings", args.rater_file), end="")
        return
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
