"""The study model (gradedrel.study), without Snakemake: the project's config and the
fixture's, validated by the one config loader (gradedrel.core.config), give the grid, the
paths and the targets the workflow asks for."""
from __future__ import annotations

from pathlib import Path

import pytest
from gradedrel.core.config import layered
from gradedrel.core.params import CanonicalDict, canonical
from gradedrel.study import BASELINE, Layout, Study

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "config" / "schema" / "config.schema.yaml"


def validated(*files: Path, extra: dict | None = None) -> dict:
    """The config of ``files`` merged as Snakemake merges --configfile, validated by the
    schema with its defaults filled in (as workflow/rules/common.smk does)."""
    return layered(files, extra, schema_path=SCHEMA)


@pytest.fixture(scope="module")
def project() -> Study:
    return Study.from_config(validated(ROOT / "config" / "config.yaml"))


def test_the_project_study_holds_the_config_as_written(project):
    """The study's collections, plan sets, roles and grid are the config's (checked against
    the config itself, not against today's values)."""
    from gradedrel.queries import query_types
    from gradedrel.report import design

    config = validated(ROOT / "config" / "config.yaml")
    assert list(project.collections) == config["active_collections"]
    name = config["active_collections"][0]
    written = config["collections"][name]
    cs = project.collections[name]
    assert cs.thesaurus == written["thesaurus"] and cs.thesauri() == [written["thesaurus"]]
    plan_sets = written["plan_sets"]
    derived = [p for p, s in plan_sets.items() if s.get("derived_from")]
    assert project.plan_set_names(derived=False) == [p for p in plan_sets if p not in derived]
    assert project.plan_set_names(derived=True) == derived
    # a derived plan set's role is recognised by what it keeps (docs/preregistration.md, A1)
    by_keep = {frozenset({"request"}): "request", frozenset({"request", "thesaurus"}): "thesaurus",
               frozenset({"request", "thesaurus", "other_concept"}): "no-own"}
    for parent in project.plan_set_names(derived=False):
        want = {("inferable" if s.get("without_rating") == "page" else
                 by_keep.get(frozenset(s.get("keep", ())))): p
                for p, s in plan_sets.items() if s.get("derived_from") == parent}
        assert project.derived_roles(name, parent) == {r: p for r, p in want.items() if r}
        if parent in derived:
            continue
        child = next((p for p in derived if plan_sets[p]["derived_from"] == parent), None)
        if child:   # a derived plan set has its parent's topics
            assert project.plan_set(name, child).curated == project.plan_set(name, parent).curated
    assert project.curated_plan_sets(name) == [p for p, s in plan_sets.items()
                                               if s.get("curated") and p not in derived]
    study_design = design.load(ROOT / written["design"])
    assert project.primary_condition(name) == (study_design.primary_plan_set,
                                               study_design.primary_model)
    assert project.key_provenance_plan_set(name) == study_design.primary_plan_set
    grid = tuple(config["retrieval"]["grid"])
    assert project.grid == grid
    assert project.report_models == tuple(config["report"]["models"] or grid)
    assert set(project.models) >= set(grid) | set(config["retrieval"]["models"])
    assert project.query_types == tuple(config["query_types"]["labels"])
    assert set(project.query_types) <= set(query_types.labels())
    assert len(project.cells()) == len(plan_sets) * len(grid)
    assert project.baseline_model == config["baseline"]["wmodel"]


def test_layout_gives_patterns_without_values_and_paths_with_them():
    paths = Layout("results", "figures")
    assert paths.run() == "results/{collection}/runs/{planset}/{model}/{slug}.run"
    assert paths.run("WSYN/e", "cranfield", "expert", "InQuery") == \
        "results/cranfield/runs/expert/InQuery/WSYN-e.run"
    assert paths.query_file("SSYN-C/u", "c", "p") == "results/c/queries/p/SSYN-C-u.jsonl"
    assert paths.auto_plans("c") == "results/c/plans/auto.yaml"
    assert paths.auto_plans("c", "wordnet", "provenance.json") == \
        "results/c/plans/auto.wordnet.provenance.json"
    assert paths.thesaurus("nasa") == "results/thesauri/nasa/nasa.thesaurus.json.gz"
    assert paths.evaluation("means.tsv", "c", BASELINE, "BM25") == \
        "results/c/evaluation/baseline/BM25/means.tsv"
    assert paths.figure("cg", "pdf", "c", "p", "m") == "figures/c/p/m/cg.pdf"
    assert paths.page("results/c/testbed.md") == "results/report_pages/c/testbed.md.html"
    assert paths.across("md", ["nfcorpus", "cranfield"]) == \
        "results/report/across_collections/cranfield+nfcorpus.md"
    assert paths.across("png", ["cranfield"]) == "figures/across_collections/cranfield.png"


def test_inputs_of_the_evaluation_retrieval_and_summary(project):
    inputs = project.evaluation_inputs("cranfield", "expert", "InQuery")
    assert inputs["run/InQuery/WSYN/e"] == "results/cranfield/runs/expert/InQuery/WSYN-e.run"
    # a plan set's topics are selected in its evaluation job, from its candidates
    assert (inputs["candidates"], inputs["recall_base"], inputs["topics"]) == (
        "results/cranfield/plans/expert/candidates.tsv", "results/cranfield/recall_base.tsv",
        "results/cranfield/topics.tsv")
    baseline = project.evaluation_inputs("cranfield", BASELINE, "BM25")
    assert set(baseline) == {"run/BM25/BM25", "qrels"}
    retrieval = project.retrieval_inputs("cranfield", "auto")  # every model of the grid
    assert retrieval["postings"] == "results/cranfield/index_arrays/postings"
    assert project.retrieval_inputs("cranfield", "auto", ["InQuery"]) == retrieval
    assert "postings" not in project.retrieval_inputs("cranfield", "auto", ["BM25"])
    assert retrieval["candidates"] == "results/cranfield/plans/auto/candidates.tsv"
    # the job compiles the queries from the plans: no query file is an input
    assert retrieval["plans"] == "results/cranfield/plans/auto/plans.yaml"
    assert not [k for k in retrieval if k.startswith("queries/")]
    summary = project.summary_inputs("cranfield")
    assert len(summary) == 2 * len(project.cells()) and summary["verdicts/expert-2/DirichletLM"].endswith(
        "report/expert-2/DirichletLM/verdicts.tsv")


def test_targets_cover_every_reported_file_once(project):
    targets = project.targets()
    assert len(targets) == len(set(targets))
    assert "results/thesauri/nasa/summary.tsv" in targets
    assert "results/report_pages/thesauri/nasa/summary.tsv.html" in targets
    assert "results/cranfield/report/expert/InQuery/tables/avp.tex" in targets
    assert "figures/cranfield/expert-2/BM25/diff_dcg_b2.pdf" in targets
    assert "results/report_pages/cranfield/evaluation/baseline/BM25/effort.tsv.html" in targets
    assert sum(t.endswith("findings.md") for t in targets) == len(project.cells())
    # figures for the 3 plan sets that are not derived (report.derived_figures: false)
    # and the report's screen copies: the primary condition's 9 (expert, InQuery: the
    # design's), the forest plot and the one across collections
    assert sum(t.endswith(".png") for t in targets) == 9 * 9 + 2 + 9 + 2
    assert sum(t.startswith("results/report_pages/figures/") for t in targets) == 9 + 2
    assert "results/report_pages/figures/cranfield/expert/InQuery/diff_cg.png" in targets
    assert "results/report_pages/figures/cranfield/forest.png" in targets
    assert "results/report/landing/cranfield.html" in targets
    assert "figures/cranfield/forest.png" in targets
    assert "results/cranfield/report/key_sources.md" in targets
    assert "results/cranfield/report/leak.md" in targets
    assert "results/report/memory_probe.md" not in targets   # needs NFCorpus too


def test_a_plan_set_naming_its_collections_own_thesaurus_starts_from_the_plain_auto_plans():
    # naming the collection's own thesaurus is the same as naming none
    study = Study.from_config(validated(ROOT / "config" / "config.yaml", extra={"collections": {
        "cranfield": {"plan_sets": {"auto-nasa": {"thesaurus": "nasa"}}}}}))
    assert study.collections["cranfield"].plan_set_thesaurus("auto-nasa") == "nasa"
    assert study.auto_plans_of("cranfield", "auto-nasa") == "results/cranfield/plans/auto.yaml"


def test_nfcorpus_plan_sets_read_their_own_thesauri():
    study = Study.from_config(validated(ROOT / "config" / "config.yaml",
                                        ROOT / "config" / "nfcorpus" / "testbed.yaml"))
    nfcorpus = study.collections["nfcorpus"]
    assert nfcorpus.thesauri() == ["mesh", "wordnet"]
    assert study.thesauri_used() == ["nasa", "mesh", "wordnet"]
    assert study.auto_plans_of("nfcorpus", "auto-wordnet") == \
        "results/nfcorpus/plans/auto.wordnet.yaml"
    assert study.auto_plans_of("nfcorpus", "expert-mesh") == "results/nfcorpus/plans/auto.yaml"
    assert set(nfcorpus.licences(study.thesauri)) == {"collection nfcorpus", "thesaurus mesh",
                                                      "thesaurus wordnet"}
    assert study.memory_probe()["collections"] == {"nfcorpus": "nfcorpus",
                                                   "cranfield": "cranfield"}
    assert study.headline_conditions() == {"nfcorpus": ("expert-mesh", "expert-mesh-thesaurus"),
                                           "cranfield": ("expert", "expert-thesaurus")}
    targets = study.targets()
    assert "results/report/headline/cranfield+nfcorpus+nfcorpus-fresh.md" in targets
    # the memory probe qualifies the verdicts: the summaries are this set's own
    assert "results/cranfield/report/summary.cranfield+nfcorpus+nfcorpus-fresh.md" in targets
    assert "figures/cranfield/forest.cranfield+nfcorpus+nfcorpus-fresh.png" in targets


def test_the_two_main_jobs_share_no_file_whose_content_depends_on_the_configuration():
    """Cranfield alone and with NFCorpus (issue 43, item 6): the headline, the landing
    page, the summaries and forest plots (the memory probe's rows) are each job's own."""
    alone = Study.from_config(validated(ROOT / "config" / "config.yaml"))
    both = Study.from_config(validated(ROOT / "config" / "config.yaml",
                                       ROOT / "config" / "nfcorpus" / "testbed.yaml"))
    for path in (lambda s: s.headline("md"), lambda s: s.headline("tsv"),
                 lambda s: s.paths.landing(s.collections),
                 lambda s: s.summary("tsv", "cranfield"), lambda s: s.forest("png", "cranfield")):
        assert path(alone) != path(both), path(alone)


@pytest.mark.parametrize("extra, named", [
    ({"active_collections": ["nowhere"]}, "nowhere"),
    ({"retrieval": {"grid": ["InQuery", "PL9"]}}, "PL9"),
    ({"report": {"models": ["DPH"]}}, "DPH"),
    ({"collections": {"cranfield": {"thesaurus": "agrovoc"}}}, "agrovoc"),
    ({"baseline": {"wmodel": "BM52"}}, "baseline.wmodel: 'BM52' .*did you mean 'BM25'"),
    ({"retrieval": {"models": {"BM25": {"wmodel": "PL3"}}}}, "BM25.wmodel: 'PL3'"),
])
def test_a_config_naming_what_does_not_exist_is_one_error_naming_it(extra, named):
    with pytest.raises(ValueError, match=named):
        Study.from_config(validated(ROOT / "config" / "config.yaml", extra=extra))


@pytest.mark.parametrize("extra, keys", [
    ({"report": {"curves": ["JK_DCG(b=5)"]}, "evaluation": {"dcg_bases": [2, 10]}},
     ("report.curves", "evaluation.dcg_bases")),
    ({"report": {"curves": ["JK_CG"], "difference_curves": ["JK_nDCG(b=10)"]},
      "evaluation": {"dcg_bases": [2]}},
     ("report.difference_curves", "evaluation.dcg_bases")),
    ({"evaluation": {"profiles": {"all": [1, 2, 3]}}}, ("report.profiles", "evaluation.profiles")),
])
def test_a_curve_the_evaluation_does_not_compute_is_one_error_naming_both_keys(extra, keys):
    """A figure of a log base or gain profile the evaluation has no values for would be
    empty lines; the study stops (issue 44, item 3)."""
    config = validated(ROOT / "config" / "config.yaml", extra=extra)
    config["evaluation"].update(extra["evaluation"])  # profiles replaced, not merged
    with pytest.raises(ValueError) as error:
        Study.from_config(config)
    message = str(error.value)
    assert "\n" not in message and all(key in message for key in keys), message
    # with the bases computed, the same curves are a study
    if "dcg_bases" in extra["evaluation"]:
        config["evaluation"]["dcg_bases"] = [2, 5, 10]
        Study.from_config(config)


def test_params_hash_the_same_for_any_key_order_and_keep_their_order():
    a = canonical({"b": 1, "a": {"y": [1, {"q": 2, "p": 3}], "x": 2}})
    b = canonical({"a": {"x": 2, "y": [1, {"p": 3, "q": 2}]}, "b": 1})
    assert repr(a) == repr(b) and a == b
    assert list(a) == ["b", "a"] and list(a["a"]["y"][1]) == ["q", "p"]  # order as written
    assert isinstance(a["a"]["y"][1], CanonicalDict)
    import pickle

    again = pickle.loads(pickle.dumps(a))
    assert isinstance(again, CanonicalDict) and again == a and list(again) == ["b", "a"]


def test_each_set_of_collections_has_its_own_summary_across_collections(project):
    both = Study.from_config(validated(ROOT / "config" / "config.yaml",
                                       ROOT / "config" / "nfcorpus" / "testbed.yaml"))
    alone = {t for t in project.targets() if "across_collections" in t}
    together = {t for t in both.targets() if "across_collections" in t}
    assert alone == {"results/report/across_collections/cranfield.md",
                     "figures/across_collections/cranfield.png",
                     "results/report_pages/report/across_collections/cranfield.md.html",
                     "results/report_pages/figures/across_collections/cranfield.png"}
    assert not alone & together  # the Cranfield main job never rewrites the joint summary
    joint = "+".join(both.collections)
    assert joint.startswith("cranfield+nfcorpus")
    assert f"results/report/across_collections/{joint}.md" in together


@pytest.mark.parametrize("files", [["config/config.yaml"],
                                   ["config/config.yaml", "config/nfcorpus/testbed.yaml"]])
def test_every_run_of_a_collection_has_its_own_tag(files):
    """Issue 43: a run's tag names its plan set, model and query type, so that no two runs
    of a collection share one (before, ``BM25-SUM-u`` was the tag of every plan set's run)."""
    from gradedrel.queries.query_types import slug

    config = validated(*(ROOT / f for f in files))
    study = Study.from_config(config)
    for c, cs in study.collections.items():
        tags = study.run_tags(c)
        runs = [(p, m, q) for p in cs.plan_sets for m in study.grid for q in study.query_types]
        assert len(runs) > len(study.grid) * len(study.query_types)  # several plan sets
        assert len(tags) == len(runs) + 1 == len(set(tags.values()))  # and the plain baseline
        for p, m, q in runs:
            assert tags[study.paths.run(q, c, p, m)] == f"{p}-{m}-{slug(q)}"
        baseline = study.paths.baseline("run", c, study.baseline_model)
        assert tags[baseline] == f"{BASELINE}-{study.baseline_model}"


def test_two_runs_of_one_tag_stop_the_study():
    from gradedrel.study import unique_tags

    assert unique_tags([("a.run", "x"), ("b.run", "y")]) == {"a.run": "x", "b.run": "y"}
    with pytest.raises(ValueError, match=r"the runs a\.run and b\.run would have the same "
                                         r"tag 'x'"):
        unique_tags([("a.run", "x"), ("b.run", "x")])
