"""Write the reference evaluations shipped with the package (gradedrel/reference/<c>/) from
the main jobs' results: each testbed's primary plan set and model (its study design's
``primary_plan_set``/``primary_model``), as gradedrel.compare.reference.build writes them.

    python tools/make_reference.py            # both testbeds, after make reproduce-nfcorpus
    python tools/make_reference.py --check    # exit 1 if the shipped ones differ (CI)

--check compares the tables and the manifest byte for byte and the recorded evaluation
settings; the provenance record's commit and times may differ.
"""
from __future__ import annotations

import argparse
import filecmp
import json
import sys
import tempfile
from pathlib import Path

from gradedrel.report import design as design_model
from gradedrel.study import Layout
from gradedrel.compare.command import read_config
from gradedrel.compare.reference import MANIFEST, PACKAGED, TABLES, build

ROOT = Path(__file__).resolve().parent.parent
#: testbed -> the config files its main job runs with (Makefile)
TESTBEDS = {"cranfield": ["config/config.yaml"],
            "nfcorpus": ["config/config.yaml", "config/nfcorpus/testbed.yaml"]}


def make(collection: str, out: Path) -> Path:
    """The reference of ``collection``'s primary plan set and model, written to ``out``."""
    files = TESTBEDS[collection]
    config = read_config([ROOT / f for f in files])
    settings = config["collections"][collection]
    design = design_model.load(ROOT / settings["design"])
    layout = Layout(results=str(ROOT / config["results_dir"]))
    at = (collection, design.primary_plan_set, design.primary_model)
    return build(Path(layout.evaluation("", *at)), Path(layout.runs("", *at)),
                 Path(layout.plan_set("topics.tsv", *at[:2])),
                 Path(layout.collection("qrels.tsv", collection)), collection, settings,
                 config["query_types"]["labels"], files, out)


def differences(made: Path, shipped: Path) -> list[str]:
    """What differs between a freshly made reference and the shipped one."""
    found = [name for name in [MANIFEST, "topics.tsv", *(f"{t}.tsv" for t in TABLES)]
             if not (shipped / name).is_file() or not filecmp.cmp(made / name, shipped / name,
                                                                  shallow=False)]

    def settings(folder: Path) -> dict:
        return json.loads((folder / "provenance.json").read_text())["config"]["evaluation"]

    if (shipped / "provenance.json").is_file() and settings(made) != settings(shipped):
        found.append("provenance.json (evaluation settings)")
    return found


def main(argv: list[str] | None = None) -> int:
    """Make (or check) the shipped references."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("collections", nargs="*", default=list(TESTBEDS))
    args = parser.parse_args(argv)
    status = 0
    for collection in args.collections:
        if not args.check:
            make(collection, PACKAGED / collection)
            print(f"wrote {PACKAGED / collection}")
            continue
        with tempfile.TemporaryDirectory() as tmp:
            made = make(collection, Path(tmp) / collection)
            wrong = differences(made, PACKAGED / collection)
        print(f"{collection}: " + (f"differs: {', '.join(wrong)}" if wrong else
                                   "the shipped reference is the main job's"))
        status |= bool(wrong)
    return status


if __name__ == "__main__":
    sys.exit(main())
