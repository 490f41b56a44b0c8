"""The extension counts (issue 44, item 7), each kept by building the extension as
docs/extending.md describes it, in a scratch copy of the package and config: a new measure
touches 2 package files, a Terrier weighting model 1, a query structure with its own
operator 2, a collection none. Each extension is then used from the copy, in a fresh
interpreter: the measure computed by the evaluation (and equal to ir_measures' own), the
model run by the study's grid, the structure's query built and scored by its operator, the
collection read by the study and its files checked by the preflight."""
from __future__ import annotations

import filecmp
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc")


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    """A copy of the package and of config/ (its schema links point into the copy)."""
    shutil.copytree(ROOT / "gradedrel", tmp_path / "gradedrel", ignore=IGNORED)
    shutil.copytree(ROOT / "config", tmp_path / "config", symlinks=True)
    return tmp_path


def changed_package_files(scratch: Path) -> set[str]:
    """The files of the copy's package that are new, changed or gone (paths under gradedrel/)."""
    out: set[str] = set()

    def walk(cmp: filecmp.dircmp, prefix: str) -> None:
        out.update(prefix + name for name in cmp.left_only + cmp.right_only + cmp.diff_files
                   if name != "__pycache__")
        for name, sub in cmp.subdirs.items():
            if name != "__pycache__":
                walk(sub, f"{prefix}{name}/")

    walk(filecmp.dircmp(ROOT / "gradedrel", scratch / "gradedrel", ignore=["__pycache__"]), "")
    # dircmp compares by os.stat signature first: confirm each listed file differs in content
    return {f for f in out if not ((ROOT / "gradedrel" / f).is_file()
                                   and (scratch / "gradedrel" / f).is_file()
                                   and filecmp.cmp(ROOT / "gradedrel" / f,
                                                   scratch / "gradedrel" / f, shallow=False))}


def edit(path: Path, old: str, new: str) -> None:
    """Replace ``old`` (which must be there: the recipe's anchor) by ``new`` in ``path``."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{path}: {old!r}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def run_in(scratch: Path, code: str) -> dict:
    """Run ``code`` with the copy's package (asserted) and return what it prints as JSON."""
    head = "import os, json, gradedrel\nassert gradedrel.__file__.startswith(os.getcwd())\n"
    done = subprocess.run([sys.executable, "-c", head + textwrap.dedent(code)], cwd=scratch,
                          env={**os.environ, "PYTHONPATH": str(scratch)}, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_scratch_copy_starts_unchanged_and_sees_an_edit(scratch):
    """The counting can fail: an untouched copy is 0 files, one edit is that file."""
    assert changed_package_files(scratch) == set()
    (scratch / "gradedrel" / "core" / "new.py").write_text("X = 1\n")
    edit(scratch / "gradedrel" / "study.py", "from __future__", "from  __future__")
    assert changed_package_files(scratch) == {"core/new.py", "study.py"}


# --- a measure: one module and its line in registry.FAMILY_MODULES (docs/measures.md) -------

GRADED_RR = '''\
"""GradedRR(level=L)@k: the reciprocal rank of the first document at level L or above."""
from __future__ import annotations

from gradedrel.core import lazy
from gradedrel.evaluation.measures.base import Measure, Param, Ranking

np = lazy.module("numpy")


class GradedRRMeasure(Measure):
    """The reciprocal rank of the first document at level ``level`` or above within k."""

    NAME = "GradedRR"
    PRETTY_NAME = "Reciprocal rank"
    SHORT_DESC = "1 / the rank of the first document at level L or above (0: none by k)."
    SUPPORTED_PARAMS = {
        "level": Param(int, required=True, choices=(1, 2, 3), shown=True, grid="levels",
                       desc="the lowest level that counts"),
        "cutoff": Param(int, required=True, grid="cutoffs", desc="ranking cutoff k"),
    }

    def values(self, ranking: Ranking) -> np.ndarray:
        """Per topic, 1 / the first rank at the level or above (0 if none by k)."""
        table = np.array([0.0] + [float(g >= self["level"]) for g in (1, 2, 3)])
        hits = ranking.vectors(table, self["cutoff"]) > 0
        return np.where(hits.any(axis=1), 1.0 / (hits.argmax(axis=1) + 1), 0.0)


MEASURES = (GradedRRMeasure(),)
'''


def test_a_measure_is_two_package_files(scratch):
    measures = scratch / "gradedrel" / "evaluation" / "measures"
    (measures / "graded_rr.py").write_text(GRADED_RR)
    registry = (measures / "registry.py").read_text()
    line = next(x for x in registry.splitlines() if x.startswith("FAMILY_MODULES = ("))
    edit(measures / "registry.py", line, line[:-1] + ', "graded_rr")')
    got = run_in(scratch, '''
        import ir_measures
        import pandas as pd
        from gradedrel.evaluation.evaluate import evaluate
        from gradedrel.evaluation.measures import registry
        from gradedrel.evaluation.measures.judgements import Judgements
        from gradedrel.evaluation.settings import Settings
        from gradedrel.retrieval.runs import rank_frame

        qrels = pd.DataFrame([("1", "a", 1, 1), ("1", "b", 2, 2), ("2", "c", 3, 3),
                              ("3", "d", 1, 1), ("3", "e", 2, 2)],
                             columns=["qid", "docno", "label", "grade"])
        ranked = {"1": ["x", "a", "b", "y"], "2": ["c", "x"], "3": ["d", "x", "y", "e"]}
        run = pd.DataFrame([(q, d, r, 10.0 - r) for q, docs in ranked.items()
                            for r, d in enumerate(docs, start=1)],
                           columns=["qid", "docno", "rank", "score"])
        name = "GradedRR(level=2)@3"
        settings = Settings.from_config({"measures": ["AvP(level=1)"], "also": [name],
                                         "significance": None, "depth": 10,
                                         "cutoffs": [3], "effort_ranks": [3],
                                         "ndcg_log2": {"cutoffs": [3]}})
        tables = evaluate({"r": rank_frame(run)}, Judgements.from_qrels(qrels, ["1", "2", "3"]),
                          settings, bootstrap=False)
        per_topic = tables["per_topic"]
        ours = per_topic[per_topic["measure"] == name].set_index("qid")["value"].to_dict()
        theirs = {m.query_id: m.value for m in ir_measures.iter_calc(
            [ir_measures.RR(rel=2) @ 3],
            [ir_measures.Qrel(q, d, g) for q, d, _, g in qrels.itertuples(index=False)],
            [ir_measures.ScoredDoc(q, d, s) for q, d, _, s in run.itertuples(index=False)])}
        print(json.dumps({"registered": "GradedRR" in registry.families(),
                          "family": [str(m) for m in Settings.from_config(
                              {"measures": ["GradedRR@5"]}).measure_list()],
                          "ours": ours, "theirs": theirs,
                          "means": sorted(tables["means"]["measure"])}))
    ''')
    assert got["registered"] and "GradedRR(level=2)@3" in got["means"]
    assert got["family"] == [f"GradedRR(level={lv})@5" for lv in (1, 2, 3)]
    assert got["ours"] == pytest.approx(got["theirs"]) and got["ours"]["1"] == pytest.approx(1 / 3)
    assert changed_package_files(scratch) == {"evaluation/measures/graded_rr.py",
                                              "evaluation/measures/registry.py"}


# --- a Terrier weighting model: one register call in backends.py (docs/retrieval.md) --------

def test_a_weighting_model_is_one_package_file(scratch):
    backends = scratch / "gradedrel" / "retrieval" / "backends.py"
    edit(backends, "\n\ndef weighting_model(", '''
register_weighting_model(WeightingModel(
    "DLH", "Amati, FUB at TREC 2006 (DFR, hypergeometric, parameter-free)"))


def weighting_model(''')
    got = run_in(scratch, '''
        from gradedrel.core.config import layered
        from gradedrel.study import Study

        models = {"DLH": {"backend": "terrier", "wmodel": "DLH"}}
        config = layered(["config/config.yaml"], {"retrieval": {"models": models,
                                                               "grid": ["InQuery", "DLH"]},
                                                  "baseline": {"wmodel": "DLH"}})
        study = Study.from_config(config)
        engine = study.models["DLH"].engine()
        print(json.dumps({"grid": list(study.grid), "parameters": dict(engine.parameters),
                          "baseline": study.baseline_model,
                          "runs": sum("/DLH/" in t for t in study.targets())}))
    ''')
    assert got["grid"] == ["InQuery", "DLH"] and got["baseline"] == "DLH"
    assert got["parameters"]["wmodel"] == "DLH" and got["runs"] > 0
    assert changed_package_files(scratch) == {"retrieval/backends.py"}


# --- a query structure with its own operator: one module and one import line ---------------
# (docs/query-types.md, "Adding a structure")

WEIGHTED_AND = '''\
"""WBAND: a weighted ``#wand`` over one ``#syn`` per facet, weighted by the facet's
importance (InQuery's #wand: the weighted geometric mean of its children's beliefs)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from gradedrel.core import lazy
from gradedrel.queries.query_tree import Operator, Syn, operator
from gradedrel.queries.query_types import Structure, facet_keys, register

np = lazy.module("numpy")


@operator
@dataclass(frozen=True)
class WAnd(Operator):
    """InQuery's #wand: the product of the children's beliefs, each to its weight's share."""

    op: ClassVar[str] = "wand"
    weights: tuple[float, ...] = ()

    def __init__(self, weights, children):
        object.__setattr__(self, "weights", tuple(float(w) for w in weights))
        object.__setattr__(self, "children", tuple(children))

    def keep(self, kept, children):
        """The children left with their weights; None when none is left."""
        pairs = [(self.weights[i], c) for i, c in zip(kept, children)]
        return WAnd(*zip(*pairs)) if pairs else None

    def combine(self, beliefs):
        """Π b_i ** (w_i / Σ w)."""
        share = np.asarray(self.weights) / sum(self.weights)
        return np.prod(beliefs ** share[:, None], axis=0)


@register
class WeightedBooleanLike(Structure):
    """WBAND: ``#wand`` over one ``#syn`` per facet, weighted by its importance."""

    name = "WBAND"
    synonym_groups = True

    def compile(self, plan, expanded, pipeline, weights):
        """#wand of one #syn per facet; None without keys."""
        pairs = [(float(weights[f.importance]), Syn(tuple(keys))) for f in plan.facets
                 if (keys := facet_keys(f, expanded, pipeline))]
        return WAnd(*zip(*pairs)) if pairs else None
'''


def test_a_structure_with_its_own_operator_is_two_package_files(scratch):
    queries = scratch / "gradedrel" / "queries"
    (queries / "weighted_and.py").write_text(WEIGHTED_AND)
    init = queries / "__init__.py"
    init.write_text(init.read_text() + "from gradedrel.queries import weighted_and  # noqa: F401\n")
    got = run_in(scratch, '''
        import numpy as np
        from gradedrel import plans
        from gradedrel.queries import matchop, query_tree, query_types

        key = plans.PlanKey
        plan = plans.Plan("1", "heat flow over wings", [
            plans.Facet("heat", "major", [plans.PlanConcept(
                "heat flow", keys=[key("heat flow")], expansion=[key("heat transfer", "NT", 1)])]),
            plans.Facet("wings", "minor", [plans.PlanConcept("wings", keys=[key("wings")])])])
        tree = query_types.compile_plan(plan, "WBAND/e", lambda token: token,
                                        {"major": 10, "minor": 7})
        read = query_tree.from_dict(json.loads(json.dumps(query_tree.to_dict(tree))))
        try:
            matchop.MatchOpWriter(lambda token: token).query(tree)
            refused = False
        except query_tree.NotExpressible:
            refused = True
        print(json.dumps({
            "labels": query_types.check_labels(["WBAND/u", "WBAND/e"]),
            "tree": query_tree.to_dict(tree), "round_trip": read == tree,
            "belief": tree.combine(np.array([[0.64], [0.5]])).tolist(),
            "terrier_refuses": refused}))
    ''')
    assert got["labels"] == ["WBAND/u", "WBAND/e"]
    assert got["tree"]["op"] == "wand" and got["tree"]["weights"] == [10.0, 7.0]
    assert [len(c["keys"]) for c in got["tree"]["children"]] == [2, 1]  # expanded: 2 heat keys
    assert got["round_trip"] and got["terrier_refuses"]
    assert got["belief"] == pytest.approx([0.64 ** (10 / 17) * 0.5 ** (7 / 17)])
    assert changed_package_files(scratch) == {"queries/weighted_and.py", "queries/__init__.py"}


# --- a collection: config only (docs/own-collection.md) ------------------------------------

def test_a_collection_is_no_package_file(scratch):
    shutil.copytree(ROOT / "tests" / "fixtures" / "tiny", scratch / "data" / "mine")
    (scratch / "mine.yaml").write_text(textwrap.dedent('''\
        active_collections: [mine]
        collections:
          mine:
            docs: data/mine/docs.jsonl
            topics: data/mine/topics.tsv
            qrels: data/mine/qrels.txt
            grade_map: {"1": 3, "2": 3, "3": 2, "4": 1, "-1": 0}
            thesaurus: mine
            plan_sets:
              auto: {}
        thesauri:
          mine:
            url: https://example.invalid/mine.rdf
            sha256: 01a1d7d9fb77e2d8973cf2e0c4bea688cfe754675ff5d8416d6dbd68accd0d0f
            path: data/mine/thesaurus.rdf
    '''))
    got = run_in(scratch, '''
        from gradedrel import preflight
        from gradedrel.core.config import layered
        from gradedrel.study import Study

        config = layered(["config/config.yaml", "mine.yaml"])
        study = Study.from_config(config)
        problems = preflight.input_errors(
            config, list(study.collections),
            {c: cs.plan_sets for c, cs in study.collections.items()},
            thesauri=study.thesauri_used())
        print(json.dumps({"collections": list(study.collections), "problems": problems,
                          "targets": sum(t.startswith("results/mine/") for t in study.targets())}))
    ''')
    assert got == {"collections": ["mine"], "problems": [], "targets": got["targets"]}
    assert got["targets"] > 0
    assert changed_package_files(scratch) == set()
