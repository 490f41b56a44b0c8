"""The Cranfield matches below Dice 0.70 that a separate checker reads (Amendment 3, C5).

    python study/procedures/make_match_checks.py [--results results]          # items.tsv
    python study/procedures/make_match_checks.py --checker-file               # the checker's one file

Every (Cranfield request, level-3 document, claimed study) whose Dice similarity under the
amended cited-study rule (docs/preregistration-nfcorpus.md, B5: θ from
``results/report/memory_probe_v2.decisions.json``, at least two shared terms) reaches θ but
stays below 0.70 becomes one item: an opaque id (``M01``…, in the order of SHA-256 of
``"check:{qid}:{docno}:{title}"``), the claimed study as the prober gave it (authors, year,
title) and the document's title. Written to ``config/probe/v2/match_checks/items.tsv``; the
checker's answers (``check_id, verdict``: ``same``, ``different``, ``unsure``) go to
``checks.tsv`` beside it and are committed before the scorer reads them. The checker sees
nothing else: not the request, the collection, the level or the score.
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "config" / "probe" / "v2" / "match_checks"
BRIEF = """You are checking bibliographic matches. Each item below (one per line: an id, a study as
someone recalled it — authors, year and title — and the title of a paper) asks one
question: does the recalled study name this paper? Answer `same` if the recalled study is
this paper (allowing for small errors in wording, authors or year), `different` if it is
another work, `unsure` if you cannot tell. Judge only from the two descriptions in the line;
work only from this file: do not open or read any other file and use no tool except to
write your answer file. Write a TSV file with the header `check_id<TAB>verdict` and one line
per item.
"""


def items(results: Path) -> list[dict]:
    sys.path.insert(0, str(ROOT))
    import yaml

    from gradedrel.core import terrier
    from gradedrel.core.io import read_tsv
    from gradedrel.plans.key_sources import Terms
    from gradedrel.integrity import cited_studies as cs, memory_probe as mp

    config = yaml.safe_load((ROOT / "config" / "config.yaml").read_text(encoding="utf-8"))
    terrier.start(**config["terrier"])
    terms = Terms(terrier.term_pipeline(str(results / "cranfield" / "index")))
    theta = json.loads((results / "report" / "memory_probe_v2.decisions.json").read_text())["theta"]
    v2 = ROOT / "config" / "probe" / "v2"
    requests = cs.read_requests(v2 / "requests.tsv")
    given = cs.read_answers(sorted((v2 / "answers").glob("*.yaml")), requests,
                            read_tsv(v2 / "batches.tsv"))
    qid_of = {r.probe_id: r.qid for r in requests.itertuples() if r.source == cs.REFERENCE}
    qrels = read_tsv(results / "cranfield" / "qrels.tsv")
    level3 = {}
    for r in qrels.itertuples():
        if int(r.grade) == 3:
            level3.setdefault(str(r.qid), []).append(str(r.docno))
    wanted = {d for ds in level3.values() for d in ds}
    titles = mp.document_titles("cranfield", wanted)
    found = {}
    for g in given:
        qid = qid_of.get(g.probe_id)
        if qid is None:
            continue
        for study in g.answer.cited_studies:
            claimed = frozenset(terms(study.title))
            for d in level3.get(qid, []):
                title = frozenset(terms(titles[d]))
                s = cs.best_similarity([claimed], title, cs.MIN_SHARED)   # the scorer's rule
                if theta <= s < 0.70:
                    key = (qid, d, study.title)
                    found.setdefault(key, {"qid": qid, "docno": d, "dice": f"{s:.3f}",
                                           "authors": study.authors, "year": study.year,
                                           "claimed_title": study.title,
                                           "document_title": " ".join(titles[d].split())})
    ordered = sorted(found.values(), key=lambda i: hashlib.sha256(
        f"check:{i['qid']}:{i['docno']}:{i['claimed_title']}".encode()).hexdigest())
    for n, i in enumerate(ordered, start=1):
        i["check_id"] = f"M{n:02d}"
    return ordered


COLUMNS = ["check_id", "qid", "docno", "dice", "authors", "year", "claimed_title",
           "document_title"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=ROOT / "results")
    parser.add_argument("--checker-file", action="store_true")
    args = parser.parse_args()
    if args.checker_file:
        with open(OUT / "items.tsv", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle, delimiter="\t"))
        print(BRIEF)
        print("check_id\trecalled study\tpaper title")
        for r in rows:
            print(f"{r['check_id']}\t{r['authors']} ({r['year']}). {r['claimed_title']}\t"
                  f"{r['document_title']}")
        return
    OUT.mkdir(parents=True, exist_ok=True)
    clean = lambda text: " ".join(str(text).split())
    with open(OUT / "items.tsv", "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(COLUMNS)
        for i in items(args.results):
            writer.writerow([clean(i[c]) for c in COLUMNS])


if __name__ == "__main__":
    main()
