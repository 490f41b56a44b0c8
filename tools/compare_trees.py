"""Compare two finished projects' outputs file by file (byte for byte).

    python tools/compare_trees.py BEFORE AFTER [--ignore GLOB ...]

BEFORE and AFTER are project directories (or their ``results``/``figures`` folders'
parent). Every file under ``results/`` and ``figures/`` is compared, except the job logs
(``results/logs/``), the Snakemake report (``results/report.html``: it embeds run times),
the two index files that record when and where Terrier built the index, and what
``--ignore`` names. The project's git commit (``source`` of a provenance.json,
``commit``/``dirty`` of an ir_metadata record: an evaluation's ir-metadata.yaml, a run's
``*.run.ir-metadata.yaml`` beside it, or the header of an annotated run of older results) is
left out of the comparison, and a provenance.json's ``outputs`` (the sha256 of files compared
themselves, run files among them): it changes
with every commit and nothing reads it (fnmatch patterns on the path relative to the project). Prints
the files only in one tree and the files that differ, then one summary line; exits 1 when
anything differs. A refactoring that must keep every output names the files it changes in
its commit and passes them with ``--ignore``.
"""
from __future__ import annotations

import argparse
import fnmatch
import hashlib
import json
import re
import sys
from pathlib import Path

TREES = ("results", "figures")
# Terrier writes the index's creation time and build path into data.properties, and the
# posting arrays' signature hashes that file: neither is an output anyone reads.
ALWAYS_IGNORED = ("results/logs/*", "results/report.html", "results/*.lock",
                  "results/*/index/data.properties", "results/*/index_arrays/postings/signature.json")


def files(project: Path, ignore: tuple[str, ...]) -> dict[str, Path]:
    """relative path -> file, for every compared file of the project."""
    found = {}
    for tree in TREES:
        root = project / tree
        if not root.is_dir():
            continue
        for path in root.rglob("*"):
            if path.is_dir():
                continue
            rel = path.relative_to(project).as_posix()
            if any(fnmatch.fnmatch(rel, pattern) for pattern in ALWAYS_IGNORED + ignore):
                continue
            found[rel] = path
    return found


def comparable(path: Path) -> bytes | None:
    """The bytes compared of a file that records the commit (without it), else None."""
    if path.name.endswith("provenance.json"):
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            return None
        if isinstance(record, dict):
            record.pop("source", None)
            # the outputs' sha256: of files compared themselves, some recording the commit
            record.pop("outputs", None)
        return json.dumps(record, sort_keys=True).encode()
    if path.name.endswith("ir-metadata.yaml") or path.suffix == ".run":
        data = path.read_bytes()
        if path.suffix == ".run" and not data.startswith(b"# ir_metadata.start"):
            return None
        lines = data.splitlines(keepends=True)
        return b"".join(line for line in lines
                        if not re.match(rb"#?\s+(commit|dirty):", line))
    return None


def digest(path: Path) -> str:
    h = hashlib.sha256()
    data = comparable(path)
    if data is not None:
        h.update(data)
        return h.hexdigest()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def compare(before: Path, after: Path, ignore: tuple[str, ...] = ()) -> dict[str, list[str]]:
    """``{"only_before": [...], "only_after": [...], "different": [...], "same": [...]}``."""
    a, b = files(before, ignore), files(after, ignore)
    out = {"only_before": sorted(set(a) - set(b)), "only_after": sorted(set(b) - set(a)),
           "different": [], "same": []}
    for rel in sorted(set(a) & set(b)):
        sized = a[rel].stat().st_size == b[rel].stat().st_size or comparable(a[rel]) is not None
        same = sized and digest(a[rel]) == digest(b[rel])
        out["same" if same else "different"].append(rel)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--ignore", action="append", default=[],
                        help="fnmatch pattern of paths (relative to the project) not compared")
    args = parser.parse_args(argv)
    result = compare(args.before, args.after, tuple(args.ignore))
    for key, title in (("only_before", "only in before"), ("only_after", "only in after"),
                       ("different", "different")):
        for rel in result[key]:
            print(f"{title}: {rel}")
    print(f"{len(result['same'])} identical, {len(result['different'])} different, "
          f"{len(result['only_before'])} only in before, {len(result['only_after'])} only in after")
    return 1 if any(result[k] for k in ("only_before", "only_after", "different")) else 0


if __name__ == "__main__":
    sys.exit(main())
