"""Check one probe-v2 answer file as the scorer will read it (docs/memory-probe.md, "Probe v2").

    python study/procedures/check_probe_answers.py ANSWERS.yaml FRAMING SAMPLE BATCH

Parses the file with the scorer's own reader (:func:`gradedrel.integrity.memory_probe.parse_answers`,
version 2) and compares its ids with the batch's (config/probe/v2/batches.tsv): every id of
the batch answered once, in any order, and no other. Prints only ids and counts (never a text
or a score), so a prober may run it; exit 1 with one line per problem.
"""
from __future__ import annotations

import csv
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from gradedrel.core.errors import InputError  # noqa: E402
from gradedrel.integrity.memory_probe import parse_answers  # noqa: E402

TIME = re.compile(r"^# (started|ended): \d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?Z\s*$")


def problems(path: Path, framing: str, sample: int, batch: str) -> list[str]:
    with open(ROOT / "config/probe/v2/batches.tsv", encoding="utf-8") as handle:
        wanted = [r["probe_id"] for r in csv.DictReader(handle, delimiter="\t")
                  if r["framing"] == framing and int(r["sample"]) == sample and r["batch"] == batch]
    if not wanted:
        return [f"no batch {framing} {sample} {batch}"]
    text = path.read_text(encoding="utf-8")
    try:
        answers = parse_answers(text, path, version=2)
    except InputError as error:
        return [str(error)]
    out = []
    times = {m.group(1) for line in text.splitlines() if (m := TIME.match(line))}
    for which in ("started", "ended"):
        if which not in times:
            out.append(f"{path}: no '# {which}: YYYY-MM-DDTHH:MMZ' line")
    seen: dict[str, int] = {}
    for answer in answers:
        seen[answer.probe_id] = seen.get(answer.probe_id, 0) + 1
    out += [f"{path}: id {p} answered {n} times" for p, n in seen.items() if n > 1]
    out += [f"{path}: id {p} is not in this batch" for p in seen if p not in wanted]
    missing = [p for p in wanted if p not in seen]
    if missing:
        out.append(f"{path}: {len(missing)} ids of the batch not answered: {' '.join(missing)}")
    return out


def main() -> int:
    if len(sys.argv) != 5:
        print(__doc__.strip().splitlines()[2].strip())
        return 2
    path, framing, sample, batch = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
    found = problems(path, framing, sample, batch)
    for line in found:
        print(line)
    if not found:
        print(f"{path}: OK")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
