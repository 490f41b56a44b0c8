"""Every fenced block of docs/*.md runs in a test or says why it does not.

The convention is tests/workflow/test_readme.py's, one line directly above the fence:
``<!-- readme-test: NAME -->`` (run there, on the fixture project after a workflow run),
``<!-- readme-output: NAME -->`` (the output that test compares), or
``<!-- readme-test: skip (why) -->`` (a synopsis, a session's transcript, an excerpt, a
block that needs the full data). Every other block is run here: a ```python block is
executed in a temporary folder laid out as the block expects, with the fixture collection
standing in for the data (tests/fixtures/tiny: its qrels as levels, its thesaurus, its
documents indexed); a ```yaml block is read with the project's loader and checked, a config
fragment merged over config/config.yaml and validated against the schema as the workflow
does, a plan file parsed as plans. Any other unmarked block fails, naming file and line.
"""
from __future__ import annotations

import bz2
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import ROOT, TINY, load_script

DOCS = sorted((ROOT / "docs").glob("*.md"))
#: An opening or closing fence (CommonMark: up to three spaces, three or more ` or ~).
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})[ \t]*([^`\s]*)")
MARKER = re.compile(r"<!-- readme-(test|output): (.*?) -->")
#: The fixture's grade map (tests/fixtures/tiny/config.yaml): raw label -> level.
LEVELS = {"1": 3, "2": 3, "3": 2, "4": 1, "-1": 0}


@dataclass(frozen=True)
class Block:
    """One fenced block: where it is, its language, its text, its marker (or None)."""

    path: Path
    line: int
    language: str
    code: str
    kind: str | None
    name: str | None

    @property
    def where(self) -> str:
        """``docs/FILE.md:LINE`` of the opening fence."""
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of the Markdown file ``path``, each with the marker line directly
    above its fence, if any."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found, opening, start, language = [], None, 0, ""
    for number, line in enumerate(lines, 1):
        fence = FENCE.match(line)
        if opening is None and fence:
            opening, start, language = fence.group(1), number, fence.group(2)
        elif opening is not None and fence and fence.group(1)[0] == opening[0] \
                and len(fence.group(1)) >= len(opening) and not fence.group(2):
            above = MARKER.fullmatch(lines[start - 2].strip()) if start > 1 else None
            found.append(Block(path, start, language, "\n".join(lines[start:number - 1]) + "\n",
                               above and above.group(1), above and above.group(2)))
            opening = None
    assert opening is None, f"{path.relative_to(ROOT)}:{start}: a fence never closed"
    return found


ALL = [b for path in DOCS for b in blocks(path)]
UNMARKED = [b for b in ALL if b.kind is None]


def test_the_fence_reader_finds_blocks_markers_and_languages(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("text\n<!-- readme-test: skip (why) -->\n```sh\nrun me\n```\n\n"
                    "````\n```\nnested\n```\n````\n~~~yaml\na: 1\n~~~\n", encoding="utf-8")
    got = [(b.line, b.language, b.code, b.kind, b.name) for b in blocks(page)]
    assert got == [(3, "sh", "run me\n", "test", "skip (why)"),
                   (7, "", "```\nnested\n```\n", None, None),
                   (12, "yaml", "a: 1\n", None, None)]


def test_every_block_is_run_or_says_why_not():
    readme = load_script(ROOT / "tests" / "workflow" / "test_readme.py", "docs_test_readme")
    problems = []
    for b in ALL:
        if b.kind == "test" and b.name.startswith("skip"):
            if not re.fullmatch(r"skip \(\S.*\)", b.name):
                problems.append(f"{b.where}: a skip marker says why: skip (…)")
        elif b.kind is not None:  # run, or its output compared, by tests/workflow/test_readme.py
            if str(b.path.relative_to(ROOT)) not in readme.FILES or b.name not in readme.TESTED:
                problems.append(f"{b.where}: readme-{b.kind}: {b.name} names no test of "
                                "tests/workflow/test_readme.py that reads this file")
        elif b.language not in ("python", "yaml"):
            problems.append(f"{b.where}: a ```{b.language} block that no test runs: make it "
                            "run here (python, yaml) or mark it <!-- readme-test: skip (why) -->")
    assert problems == []


# --- python blocks ----------------------------------------------------------------------

def _fixture_files(root: Path) -> None:
    """The files the cheap examples name, from the fixture collection: its qrels with the
    levels as labels, a run, and its thesaurus as the NASA file (aeroelasticity as #60565)."""
    qrels = [line.split() for line in (TINY / "qrels.txt").read_text().splitlines()]
    (root / "qrels.txt").write_text("".join(f"{q} 0 {d} {LEVELS[label]}\n"
                                            for q, _, d, label in qrels))
    (root / "run.txt").write_text("".join(f"{q} Q0 {d} {rank} {10 - rank} fixture\n"
                                          for q in ("1", "2", "3", "4")
                                          for rank, d in enumerate(["d05", "d01", "d07", "d09",
                                                                    "d04", "d02"], 1)))
    nasa = root / ".data" / "thesauri" / "nasa" / "NASA_Thesaurus_Alpha_SKOS.xml.bz2"
    nasa.parent.mkdir(parents=True)
    rdf = (TINY / "thesaurus.rdf").read_text(encoding="utf-8")
    nasa.write_bytes(bz2.compress(rdf.replace('"#1"', '"#60565"').encode()))


def _terrier_results(root: Path) -> None:
    """The workflow's Cranfield files the PyTerrier examples read, made from the fixture
    collection: its index, its topics as the expert plan set's, its qrels (label and level)
    and stand-in query files (tests/stand_in.py) as the expert queries."""
    import pandas as pd

    from gradedrel.core import terrier
    from tests.stand_in import write_query_files
    from tiny_index import index_dir

    results = root / "results" / "cranfield"
    shutil.copytree(index_dir("tiny", str(root / "built")), results / "index")
    (results / "plans" / "expert").mkdir(parents=True)
    shutil.copy(TINY / "topics.tsv", results / "plans" / "expert" / "topics.tsv")
    qrels = pd.read_csv(TINY / "qrels.txt", sep=" ", header=None, dtype=str,
                        names=["qid", "iteration", "docno", "label"])
    qrels["grade"] = qrels["label"].map(LEVELS)
    qrels[["qid", "docno", "label", "grade"]].to_csv(results / "qrels.tsv", sep="\t",
                                                     index=False)
    pipeline = terrier.term_pipeline(results / "index")
    topics = pd.read_csv(TINY / "topics.tsv", sep="\t", dtype=str)
    write_query_files(topics, results / "queries" / "expert", lambda t: pipeline(t) is None)


def _needs_terrier(code: str) -> bool:
    return "terrier" in code


@pytest.mark.parametrize("block", [
    pytest.param(b, id=b.where, marks=[pytest.mark.terrier] if _needs_terrier(b.code) else [])
    for b in UNMARKED if b.language == "python"])
def test_a_python_block_runs(block, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GRADEDREL_CACHE_DIR", str(tmp_path / "cache"))
    _fixture_files(tmp_path)
    if _needs_terrier(block.code):
        _terrier_results(tmp_path)
    exec(compile(block.code, block.where, "exec"), {"__name__": "__docs__"})
    if "print(" in block.code:
        assert capsys.readouterr().out.strip(), f"{block.where} printed nothing"


# --- yaml blocks ------------------------------------------------------------------------

@pytest.mark.parametrize("block", [b for b in UNMARKED if b.language == "yaml"],
                         ids=lambda b: b.where)
def test_a_yaml_block_is_what_it_shows(block):
    from gradedrel.core import config, yaml_io

    data = yaml_io.load(block.code, block.where)
    assert isinstance(data, dict), f"{block.where}: a YAML mapping"
    sections = set(yaml_io.load_file(config.SCHEMA)["properties"])
    if set(data) <= sections:  # a config fragment: over the main config, as --configfile
        merged = config.merge(yaml_io.load_file(ROOT / "config" / "config.yaml"), data)
        config.validate(merged, block.where)
    else:
        assert set(data) == {"plans"}, \
            f"{block.where}: neither config sections nor a plan file: {sorted(data)}"
        from gradedrel.plans.model import parse_plans

        assert parse_plans(block.code, block.where)
