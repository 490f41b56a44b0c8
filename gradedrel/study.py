"""The study: the experiment as one object, built once from the validated configuration.

Järvelin & Kekäläinen's case study is a grid: collections (each with its thesaurus, grade
map and plan sets) × retrieval models × query types, evaluated with the paper's measures and
read against the published numbers. :class:`Study` holds that grid and :class:`Layout` the
path of every file the workflow writes, each defined once. The workflow builds one Study in
``workflow/rules/common.smk`` from the validated config; its input functions, targets,
input check and params ask it. Pure: no Snakemake, no file is read.

A Layout method without arguments gives a rule's path pattern (``paths.run()`` →
``results/{collection}/runs/{planset}/{model}/{slug}.run``); with values, a concrete path.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

from gradedrel.collection.spec import CollectionSpec
from gradedrel.plans import plan_sets as plan_set_model
from gradedrel.plans.analysis import collection_settings as analysis_settings
from gradedrel.plans.plan_sets import PlanSet, input_key
from gradedrel.queries.query_types import check_labels, slug as query_type_slug
from gradedrel.integrity import configuration

#: Wildcard names, as the rules and the Snakefile's wildcard_constraints spell them.
C, P, M, T, S = "{collection}", "{planset}", "{model}", "{thesaurus}", "{slug}"
#: Where the plain baseline's evaluation lives among the plan sets' (results/{c}/evaluation/baseline/).
BASELINE = plan_set_model.RESERVED


def run_tag(plan_set: str, model: str, label: str | None = None) -> str:
    """A run's tag (the last column of its lines, ``tag`` in its record): plan set, model
    and query type (``expert-InQuery-WSYN-e``); the plain baseline's, of no query type,
    ``baseline-BM25``. Unique within a collection (:meth:`Study.run_tags`)."""
    return "-".join([plan_set, model] + ([query_type_slug(label)] if label else []))


def unique_tags(runs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Run file → tag of ``(file, tag)`` pairs; a tag of two files is a ValueError naming both."""
    files: dict[str, str] = {}
    for path, tag in runs:
        if tag in files:
            raise ValueError(f"config: the runs {files[tag]} and {path} would have the same "
                             f"tag {tag!r}; rename a plan set or a model")
        files[tag] = path
    return {path: tag for tag, path in files.items()}


def check_names(key: str, names: Iterable[str], known: Iterable[str], which: str) -> None:
    """A ValueError ``config: {key} names [...], which {which}`` naming those of ``names``
    (config ``key``) not among ``known``."""
    unknown = [name for name in names if name not in known]
    if unknown:
        raise ValueError(f"config: {key} names {unknown}, which {which}")


def check_curves(config: Mapping[str, Any]) -> None:
    """The report's gain curves and panels are the evaluation's: a curve (``report.curves``,
    ``report.difference_curves``) whose log base is not in ``evaluation.dcg_bases``, or a
    panel (``report.profiles``) not in ``evaluation.profiles``, would be drawn as empty
    lines; one ValueError naming both keys."""
    from gradedrel.evaluation.measures.jk import curve

    evaluation, report = config["evaluation"], config["report"]
    for key in ("curves", "difference_curves"):
        for name in report[key]:
            base = curve(name, f"report.{key}").base
            if base and base not in evaluation["dcg_bases"]:
                raise ValueError(f"config: report.{key}: {name!r} is drawn at log base {base}, "
                                 f"which evaluation.dcg_bases {evaluation['dcg_bases']} does "
                                 "not compute")
    for profile in report["profiles"]:
        if str(profile) not in evaluation["profiles"]:
            raise ValueError(f"config: report.profiles: {profile!r} is not a gain profile of "
                             f"evaluation.profiles {sorted(evaluation['profiles'])}")


@dataclass(frozen=True)
class Layout:
    """Every path the workflow writes under ``results`` and ``figures``."""

    results: str = "results"
    figures: str = "figures"

    # --- thesauri and shared downloads ---------------------------------------------------
    def thesaurus(self, name: str = T, file: str | None = None) -> str:
        """A thesaurus's folder file: its cache (default), ``summary.tsv``, ``provenance.json``."""
        return f"{self.results}/thesauri/{name}/{file or f'{name}.thesaurus.json.gz'}"

    def terrier_jars(self) -> str:
        """The file recording the Terrier jars the workflow uses."""
        return f"{self.results}/terrier/jars.json"

    # --- a collection ---------------------------------------------------------------------
    def collection(self, file: str, c: str = C) -> str:
        """A file directly under a collection's folder (``topics.tsv``, ``index``, …)."""
        return f"{self.results}/{c}/{file}"

    def index(self, c: str = C) -> str:
        """A collection's Terrier index folder."""
        return self.collection("index", c)

    def postings(self, c: str = C) -> str:
        """A collection's posting arrays (InQuery's index)."""
        return self.collection("index_arrays/postings", c)

    # --- plans, queries, runs ---------------------------------------------------------------
    def auto_plans(self, c: str = C, thesaurus: str | None = None, ext: str = "yaml") -> str:
        """The automatic plans from the collection's thesaurus or from another one."""
        stem = "auto" if thesaurus is None else f"auto.{thesaurus}"
        return self.collection(f"plans/{stem}.{ext}", c)

    def plan_set(self, file: str, c: str = C, p: str = P) -> str:
        """A plan set's file under ``plans/{p}/`` (``plans.yaml``, ``topics.tsv``, …)."""
        return self.collection(f"plans/{p}/{file}", c)

    def queries(self, file: str, c: str = C, p: str = P) -> str:
        """A plan set's file under ``queries/{p}/`` (``{slug}.jsonl``, ``statistics.tsv``, …)."""
        return self.collection(f"queries/{p}/{file}", c)

    def query_file(self, label: str | None = None, c: str = C, p: str = P) -> str:
        """A plan set's query file of a query type (``label``; default: the ``{slug}`` wildcard)."""
        return self.queries(f"{S if label is None else query_type_slug(label)}.jsonl", c, p)

    def baseline(self, ext: str, c: str = C, model: str = "{wmodel}") -> str:
        """The plain baseline's ``run``, ``excluded.tsv`` or ``provenance.json``."""
        return self.collection(f"baseline/{model}.{ext}", c)

    def runs(self, file: str, c: str = C, p: str = P, m: str = M) -> str:
        """A run file of a plan set and model."""
        return self.collection(f"runs/{p}/{m}/{file}", c)

    def run(self, label: str | None = None, c: str = C, p: str = P, m: str = M,
            ext: str = "run") -> str:
        """A query type's run file (``ext`` ``provenance.json`` for its record)."""
        return self.runs(f"{S if label is None else query_type_slug(label)}.{ext}", c, p, m)

    # --- evaluation and report --------------------------------------------------------------
    def evaluation(self, file: str = "", c: str = C, p: str = P, m: str = M) -> str:
        """A file of one evaluation (``means.tsv``, …); without ``file``, its folder."""
        folder = self.collection(f"evaluation/{p}/{m}", c)
        return f"{folder}/{file}" if file else folder

    def report(self, file: str, c: str = C, p: str = P, m: str = M) -> str:
        """A findings report's file under ``report/{p}/{m}/`` (``findings.md``,
        ``tables/avp.csv``, …)."""
        return self.collection(f"report/{p}/{m}/{file}", c)

    def figure(self, name: str, ext: str = "png", c: str = C, p: str = P, m: str = M) -> str:
        """A figure of a plan set and model."""
        return f"{self.figures}/{c}/{p}/{m}/{name}.{ext}"

    def collection_figure(self, name: str, ext: str = "png", c: str = C) -> str:
        """A figure over a collection's plan sets and models (``forest``)."""
        return f"{self.figures}/{c}/{name}.{ext}"

    def collection_report(self, file: str, c: str = C) -> str:
        """A collection's report over its plan sets and models (``report/summary.md``)."""
        return self.collection(f"report/{file}", c)

    def curation(self, file: str, c: str = C) -> str:
        """A file of a collection's curation reports."""
        return self.collection(f"curation/{file}", c)

    def across(self, ext: str, collections: Iterable[str]) -> str:
        """The findings across ``collections``, named by the set (``cranfield+nfcorpus``), so
        that a main job of one testbed never rewrites another set's summary."""
        name = configuration.collections_name(collections)
        if ext in ("png", "pdf"):
            return f"{self.figures}/across_collections/{name}.{ext}"
        return f"{self.results}/report/across_collections/{name}.{ext}"

    def memory_probe(self, ext: str) -> str:
        """The memory probe's scores (docs/memory-probe.md; ``ext``: ``md``, ``tsv``, …)."""
        return f"{self.results}/report/memory_probe.{ext}"

    def memory_probe_v2(self, ext: str) -> str:
        """Probe v2's scores (Amendment 2; ``ext``: ``md``, ``tsv``, ``null.tsv``, …)."""
        return f"{self.results}/report/memory_probe_v2.{ext}"

    def headline(self, ext: str, collections: Iterable[str]) -> str:
        """The qualified headline of each probed testbed (``md``, ``tsv``), named by the set
        of active collections as :meth:`across` is."""
        return f"{self.results}/report/headline/{configuration.collections_name(collections)}.{ext}"

    def page(self, source: str) -> str:
        """The Snakemake report's HTML page of a result file (a path under ``results``)."""
        return f"{self.results}/report_pages/{source.removeprefix(self.results + '/')}.html"

    def screen(self, figure: str) -> str:
        """The Snakemake report's screen-resolution copy of a figure (under ``figures``)."""
        return f"{self.results}/report_pages/figures/{figure.removeprefix(self.figures + '/')}"

    def landing(self, collections: Iterable[str]) -> str:
        """The Snakemake report's landing page of a set of active collections
        (workflow/report/workflow.rst includes it by config ``active_collections``)."""
        return f"{self.results}/report/landing/{configuration.collections_name(collections)}.html"

    def log(self, name: str) -> str:
        """A rule's log file."""
        return f"{self.results}/logs/{name}.log"


@dataclass(frozen=True)
class CollectionStudy:
    """One active collection: what config says about it, resolved."""

    name: str
    raw: Mapping[str, Any]
    spec: CollectionSpec
    thesaurus: str
    plan_sets: Mapping[str, PlanSet]
    analysis: Mapping[str, Any]
    design: str = "config/design/jk2000.yaml"   # the study design file (resolved)

    def plan_set_thesaurus(self, plan_set: str) -> str:
        """The thesaurus a plan set's automatic plans (and its keys) come from."""
        return self.plan_sets[plan_set].thesaurus or self.thesaurus

    def thesauri(self) -> list[str]:
        """Every thesaurus the collection's plan sets use, the collection's own first."""
        names = [self.thesaurus] + [p.thesaurus for p in self.plan_sets.values() if p.thesaurus]
        return list(dict.fromkeys(names))

    def licences(self, thesauri: Mapping[str, Mapping]) -> dict[str, str]:
        """The licences its testbed report states: its own, and its thesauri's."""
        stated = {f"collection {self.name}": self.raw.get("licence")} | {
            f"thesaurus {name}": thesauri.get(name, {}).get("licence") for name in self.thesauri()}
        return {what: licence for what, licence in stated.items() if licence}


@dataclass(frozen=True)
class Study:
    """The experiment: active collections × models × query types, and where every file goes."""

    config: Mapping[str, Any]
    paths: Layout
    collections: Mapping[str, CollectionStudy]
    query_types: tuple[str, ...]
    grid: tuple[str, ...]
    report_models: tuple[str, ...]
    thesauri: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    models: Mapping[str, Any] = field(default_factory=dict)   # name -> retrieval.grid.Model

    # --- building ---------------------------------------------------------------------------
    @classmethod
    def from_config(cls, config: Mapping[str, Any],
                    resolve: Callable[[str], str] = lambda path: path) -> "Study":
        """The study of a schema-validated config. ``resolve`` maps a path named in config to
        the path the workflow reads. A config that names what does not exist (a collection,
        model or thesaurus) is a ValueError naming the key."""
        names = list(config["active_collections"])
        check_names("active_collections", names, config["collections"],
                    f"are not under 'collections' (known: {sorted(config['collections'])})")
        models = config["retrieval"]["models"]
        grid = tuple(config["retrieval"]["grid"])
        check_names("retrieval.grid", grid, models,
                    f"are not under retrieval.models (known: {sorted(models)})")
        from gradedrel.retrieval.grid import Model

        from gradedrel.retrieval.backends import weighting_model

        # every configured model checked by its back end (a misspelt parameter stops here),
        # the baseline's weighting model by the registry
        checked = {name: Model.from_config(name, spec) for name, spec in models.items()}
        weighting_model(config["baseline"]["wmodel"], "config: baseline.wmodel")
        check_labels(config["query_types"]["labels"])
        reported = tuple(config["report"].get("models") or grid)  # null: the whole grid
        check_names("report.models", reported, grid,
                    f"the grid does not run (retrieval.grid: {list(grid)})")
        check_curves(config)
        thesauri = dict(config.get("thesauri") or {})
        study = cls(config=config,
                    paths=Layout(config["results_dir"], config["report"]["figures_dir"]),
                    collections={c: cls._collection(c, config, thesauri, resolve)
                                 for c in names},
                    query_types=tuple(config["query_types"]["labels"]),
                    grid=grid, report_models=reported, thesauri=thesauri, models=checked)
        mixed = sorted(set(study.plan_set_names(True)) & set(study.plan_set_names(False)))
        if mixed:
            raise ValueError(f"config: plan set names {mixed} are derived in one collection "
                             "and not in another; give them different names")
        for c in study.collections:
            study.run_tags(c)  # a tag of two runs stops here
        return study

    @staticmethod
    def _collection(name: str, config: Mapping, thesauri: Mapping,
                    resolve: Callable[[str], str]) -> CollectionStudy:
        raw = config["collections"][name]
        spec = CollectionSpec.from_config(name, raw)
        sets = plan_set_model.read(name, raw, resolve=resolve)
        thesaurus = raw["thesaurus"]
        for where, used in [(f"collections.{name}.thesaurus", thesaurus)] + [
                (f"collections.{name}.plan_sets.{p}.thesaurus", s.thesaurus)
                for p, s in sets.items() if s.thesaurus]:
            if used not in thesauri:
                raise ValueError(f"config: {where} names {used!r}, which is not under "
                                 f"'thesauri' (known: {sorted(thesauri)})")
        return CollectionStudy(name, raw, spec, thesaurus, sets,
                               analysis_settings(config["analysis"], raw),
                               resolve(raw["design"]))

    # --- the grid -----------------------------------------------------------------------------
    @property
    def baseline_model(self) -> str:
        """The weighting model of the config's baseline."""
        return self.config["baseline"]["wmodel"]

    def plan_set(self, c: str, p: str) -> PlanSet:
        """Plan set ``p`` of collection ``c``."""
        return self.collections[c].plan_sets[p]

    def plan_set_metadata(self, c: str, p: str) -> dict:
        """What a run's ir_metadata says of its plan set: name, automatic (no curated plans
        in it: a derived plan set has its parent's, :func:`plan_sets.read`), thesaurus,
        parent (not its description: that re-runs findings)."""
        cs = self.collections[c]
        s = cs.plan_sets[p]
        return {"name": p, "automatic": not s.curated, "curated files": len(s.curated),
                "thesaurus": cs.plan_set_thesaurus(p), "derived from": s.derived_from}

    def cells(self, models: Iterable[str] | None = None) -> list[tuple[str, str, str]]:
        """``(collection, plan set, model)`` of every evaluation of the grid (``models``:
        only those, e.g. the reported ones), in config order."""
        models = self.grid if models is None else tuple(models)
        return [(c, p, m) for c, cs in self.collections.items() for p in cs.plan_sets
                for m in models]

    def plan_set_names(self, derived: bool) -> list[str]:
        """The names of every active collection's derived (or not derived) plan sets."""
        return list(dict.fromkeys(p for cs in self.collections.values()
                                  for p, s in cs.plan_sets.items() if s.derived == derived))

    def derived_roles(self, c: str, parent: str) -> dict[str, str]:
        """The derived plan sets of ``parent`` by their role (``request``, ``thesaurus``,
        ``no-own``, ``inferable``: docs/preregistration.md, Amendment 1, A2; ``unrecalled``,
        every class less the keys marked recalled: Amendment 3, C3)."""
        roles = {frozenset({"request"}): "request",
                 frozenset({"request", "thesaurus"}): "thesaurus",
                 frozenset({"request", "thesaurus", "other_concept"}): "no-own"}
        out = {}
        for name, s in self.collections[c].plan_sets.items():
            derivation = s.derivation
            if s.derived_from != parent:
                continue
            if derivation.get("without_rating") == "page" and "keep" not in derivation:
                out["inferable"] = name
            elif set(derivation) == {"without_recalled"} and derivation["without_recalled"]:
                out["unrecalled"] = name
            elif frozenset(derivation.get("keep", ())) in roles and not derivation.get(
                    "without_rating"):
                out[roles[frozenset(derivation["keep"])]] = name
        return out

    def curated_plan_sets(self, c: str) -> list[str]:
        """The plan sets of a collection with curated plans (not derived)."""
        return [p for p, s in self.collections[c].plan_sets.items()
                if s.curated and not s.derived]

    def thesauri_used(self) -> list[str]:
        """Every thesaurus the active collections read, in order of first use."""
        return list(dict.fromkeys(t for cs in self.collections.values() for t in cs.thesauri()))

    def evaluation_runs(self, c: str, p: str, m: str) -> dict[str, str]:
        """Run label → run file of one evaluation: the baseline's one run (plan set
        ``baseline``), else one run per query type."""
        if p == BASELINE:
            return {m: self.paths.baseline("run", c, m)}
        return {label: self.paths.run(label, c, p, m) for label in self.query_types}

    def run_tags(self, c: str) -> dict[str, str]:
        """Run file → tag (:func:`run_tag`) of every run of collection ``c``: the plain
        baseline's, then each plan set's models' query types; ValueError if two share a tag."""
        runs = [(self.paths.baseline("run", c, self.baseline_model),
                 run_tag(BASELINE, self.baseline_model))]
        runs += [(path, run_tag(p, m, label)) for p in self.collections[c].plan_sets
                 for m in self.grid for label, path in self.evaluation_runs(c, p, m).items()]
        return unique_tags(runs)

    # --- rule inputs ---------------------------------------------------------------------------
    def auto_plans_of(self, c: str, p: str) -> str:
        """The automatic plans a plan set starts from (of its own thesaurus)."""
        cs = self.collections[c]
        thesaurus = cs.plan_set_thesaurus(p)
        return self.paths.auto_plans(c, None if thesaurus == cs.thesaurus else thesaurus)

    def evaluation_inputs(self, c: str, p: str, m: str) -> dict[str, str]:
        """The runs by model and label (``run/BM25/SUM/u``), the qrels and (but for the
        baseline) what the plan set's topics are selected from: its candidates, the recall
        base, the topics."""
        inputs = {f"run/{m}/{label}": path for label, path in self.evaluation_runs(c, p, m).items()}
        inputs["qrels"] = self.paths.collection("qrels.tsv", c)
        if p != BASELINE:
            inputs |= {"candidates": self.paths.plan_set("candidates.tsv", c, p),
                       "recall_base": self.paths.collection("recall_base.tsv", c),
                       "topics": self.paths.collection("topics.tsv", c)}
        return inputs

    def retrieval_inputs(self, c: str, p: str, models: Iterable[str] | None = None
                         ) -> dict[str, str]:
        """The index, the plan set's plans and candidate topics (its queries are compiled in
        the same job), and the files beside the index the ``models``' back ends read;
        ``models`` defaults to the grid."""
        inputs = {"index": self.paths.index(c), "plans": self.paths.plan_set("plans.yaml", c, p),
                  "candidates": self.paths.plan_set("candidates.tsv", c, p)}
        for m in self.grid if models is None else models:
            for key, path in self.models[m].engine().index_files.items():
                inputs[key] = self.paths.collection(path, c)
        return inputs

    def comparison_inputs(self, c: str) -> dict[str, str]:
        """Each plan set's plans and topics, each (plan set, model)'s evaluation, by name
        (``plans/expert``, ``means/expert/InQuery``: :func:`plan_sets.input_key`)."""
        inputs = {"index": self.paths.index(c)}
        for p in self.collections[c].plan_sets:
            inputs[input_key("plans", p)] = self.paths.plan_set("plans.yaml", c, p)
            inputs[input_key("topics", p)] = self.paths.plan_set("topics.tsv", c, p)
            inputs |= {input_key(kind, p, m): self.paths.evaluation(f"{kind}.tsv", c, p, m)
                       for m in self.grid for kind in ("means", "per_topic")}
        return inputs

    def summary_conditions(self, c: str) -> list[list[str]]:
        """The (plan set, model) pairs of a collection's report, in config order."""
        return [[p, m] for p in self.collections[c].plan_sets for m in self.report_models]

    def summary_inputs(self, c: str) -> dict[str, str]:
        """Each reported condition's verdict tables (``findings/expert/InQuery``, ``verdicts/…``)."""
        return {input_key(kind, p, m): self.paths.report(f"{kind}.tsv", c, p, m)
                for p, m in self.summary_conditions(c) for kind in ("findings", "verdicts")}

    # --- the report and the targets ------------------------------------------------------------
    #: The tables of a findings report (report/{p}/{m}/tables/{name}.{csv,md,tex,html}).
    REPORT_TABLES = ("avp", "testbed", "effort", "standard_measures", "significance_friedman",
                     "significance_posthoc", "significance_vs_baseline", "reproduction")
    TABLE_FORMATS = ("csv", "md", "tex", "html")

    def figure_names(self) -> dict[str, str]:
        """The figures of one plan set and model (P–R, the gain curves, the differences):
        file name → the report's label, from the curve's measure (``dcg_b2``: ``DCG (b = 2)``,
        ``diff_cg``: ``CG minus the baseline``)."""
        from gradedrel.evaluation.measures.jk import curve

        report = self.config["report"]
        gains = [curve(name, "report.curves") for name in report["curves"]]
        diffs = [curve(name, "report.difference_curves") for name in report["difference_curves"]]
        return ({"pr_levels": "P-R curves per level"}
                | {c.figure_name: c.label() for c in gains}
                | {f"diff_{c.figure_name}": f"{c.label()} minus the baseline" for c in diffs})

    def draws_figures(self, c: str, p: str) -> bool:
        """A derived plan set's figures only when ``report.derived_figures`` asks for them."""
        return not self.plan_set(c, p).derived or bool(
            self.config["report"].get("derived_figures"))

    def primary_condition(self, c: str) -> tuple[str | None, str]:
        """The plan set and model of the collection's primary comparison (its design's)."""
        from gradedrel.report import design

        found = design.load(self.collections[c].design)
        return found.primary_plan_set, found.primary_model

    def primary_run(self, c: str) -> str | None:
        """The design's primary plan set when the study runs its primary condition (the plan
        set configured, the model in the grid)."""
        primary, model = self.primary_condition(c)
        return primary if primary in self.collections[c].plan_sets and model in self.grid else None

    def key_provenance_plan_set(self, c: str) -> str | None:
        """The design's primary plan set when its effect is decomposed (its request,
        thesaurus and no-own plan sets derived, its primary model run)."""
        primary = self.primary_run(c)
        roles = self.derived_roles(c, primary) if primary else {}
        return primary if {"request", "thesaurus", "no-own"} <= set(roles) else None

    def memory_probe(self) -> Mapping[str, Any] | None:
        """The memory probe's settings when every collection it scores is active."""
        return configuration.active_memory_probe(self.config, self.collections)

    def rests_on(self, c: str) -> list[str] | None:
        """[primary plan set, its request-and-thesaurus plan set, primary model] of a
        decomposed collection or of Amendment 2's fresh testbed."""
        decomposed = self._decomposed(c)
        if decomposed:
            return [*decomposed, self.primary_condition(c)[1]]
        fresh = self.fresh_condition()
        if fresh and fresh[0] == c:
            return [fresh[1], fresh[2], self.primary_condition(c)[1]]
        return None

    def headline_conditions(self) -> dict[str, tuple[str, str]]:
        """Per probed collection with a decomposed primary effect: (its primary plan set,
        the plan set derived from it with request and thesaurus keys)."""
        probe = self.memory_probe() or {}
        return {c: pair for c in probe.get("collections", {}).values()
                if (pair := self._decomposed(c))}

    def _decomposed(self, c: str) -> tuple[str, str] | None:
        primary = self.key_provenance_plan_set(c)
        return (primary, self.derived_roles(c, primary)["thesaurus"]) if primary else None

    def headline_plain(self) -> dict[str, str]:
        """The collections whose headline is their deciding row alone (no memory probe
        qualifies it, as in the Cranfield main job alone): collection -> primary plan set."""
        probed = set(self.headline_conditions()) | {(self.fresh_condition() or [None])[0]}
        return {c: primary for c in self.collections
                if c not in probed and (primary := self.primary_run(c))}

    def fresh_extra(self) -> dict[str, str]:
        """Amendment 3's plan sets of the fresh testbed's rows by role (``unrecalled``,
        ``inferable``), where configured (C3)."""
        fresh = self.fresh_condition()
        if not fresh:
            return {}
        roles = self.derived_roles(fresh[0], fresh[1])
        return {r: roles[r] for r in ("unrecalled", "inferable") if r in roles}

    def summary(self, ext: str, c: str = C) -> str:
        """A collection's summary of every plan set and model (``md``, ``tsv``; named by the
        set of active collections where the memory probe qualifies it)."""
        stem = configuration.qualified("summary", self.config, self.collections)
        return self.paths.collection_report(f"{stem}.{ext}", c)

    def forest(self, ext: str, c: str = C) -> str:
        """A collection's forest plot (``png``, ``pdf``, ``provenance.json``), named as its
        summary."""
        stem = configuration.qualified("forest", self.config, self.collections)
        return self.paths.collection_figure(stem, ext, c)

    def headline(self, ext: str) -> str:
        """This main job's headline (``md``, ``tsv``)."""
        return self.paths.headline(ext, self.collections)

    def has_headline(self) -> bool:
        """Whether the main job writes a headline (:meth:`headline`; a deciding row exists)."""
        return bool(self.headline_plain() or self.headline_conditions() or self.fresh_condition())

    def fresh_condition(self) -> tuple[str, str, str] | None:
        """Amendment 2's fresh testbed when it is active: (collection, its primary plan set,
        the plan set derived from it with request and thesaurus keys)."""
        fresh = ((self.memory_probe() or {}).get("v2") or {}).get("fresh")
        if not fresh or fresh["collection"] not in self.collections:
            return None
        c = fresh["collection"]
        primary = self.primary_condition(c)[0]
        thesaurus = self.derived_roles(c, primary).get("thesaurus")
        return (c, primary, thesaurus) if thesaurus else None

    def report_figure_conditions(self) -> list[tuple[str, str, str]]:
        """The (collection, plan set, model) whose figures the Snakemake report embeds: each
        collection's primary condition where it draws figures (the rest: ``figures/`` only)."""
        out = []
        for c, cs in self.collections.items():
            p, m = self.primary_condition(c)
            if p in cs.plan_sets and m in self.report_models and self.draws_figures(c, p):
                out.append((c, p, m))
        return out

    def targets(self) -> list[str]:
        """Every file the main job makes that nothing downstream reads, and the report's
        pages, so that a deleted one is made again."""
        paths, out = self.paths, []

        def paged(*files: str, unpaged: Iterable[str] = ()) -> list[str]:
            return [*files, *(paths.page(f) for f in files if f not in unpaged)]

        for t in self.thesauri_used():
            out += paged(paths.thesaurus(t, "summary.tsv"))
        for c, cs in self.collections.items():
            forest = self.forest("png", c)
            out += paged(paths.collection("testbed.md", c), paths.curation("summary.md", c),
                         self.summary("md", c), forest,
                         *(paths.evaluation(f, c, BASELINE, self.baseline_model)
                           for f in ("means.tsv", "effort.tsv")), unpaged=[forest])
            for p, s in cs.plan_sets.items():
                # a derived plan set: its findings, not the diagnostics of its parent's
                # queries (#syn df) nor its figures (report.derived_figures)
                key_sources = paths.plan_set("key_sources.tsv", c, p)
                files = [paths.plan_set("plans.yaml", c, p),
                         paths.plan_set("selected_topics.tsv", c, p), key_sources,
                         paths.queries("statistics_means.tsv", c, p)]
                if not s.derived:
                    files += [paths.queries("syn_df_summary.tsv", c, p),
                              paths.plan_set("key_sources.md", c, p)]
                out += paged(*files, unpaged=[key_sources])
                for m in self.grid:
                    out += paged(paths.runs("not_ranked.tsv", c, p, m),
                                 paths.evaluation("means.tsv", c, p, m),
                                 paths.evaluation("effort.tsv", c, p, m))
                for m in self.report_models:
                    out += [paths.report("findings.md", c, p, m),
                            paths.page(paths.report("verdicts.tsv", c, p, m))]
                    out += [paths.report(f"tables/{t}.{fmt}", c, p, m)
                            for t in self.REPORT_TABLES for fmt in self.TABLE_FORMATS]
                    if self.draws_figures(c, p):
                        out += [paths.figure(n, ext, c, p, m) for n in self.figure_names()
                                for ext in ("png", "pdf")]
            if self.key_provenance_plan_set(c):
                tsv = paths.collection_report("key_sources.tsv", c)
                out += paged(paths.collection_report("key_sources.md", c), tsv, unpaged=[tsv])
            if self.curated_plan_sets(c):
                out += paged(paths.collection_report("leak.md", c))
        md, png = (paths.across(ext, self.collections) for ext in ("md", "png"))
        out += paged(md, png, unpaged=[png])
        out += [paths.landing(self.collections), paths.screen(png)]
        # the screen copies the report embeds: each collection's forest plot and its
        # primary condition's figures (report_figure_conditions)
        out += [paths.screen(self.forest("png", c)) for c in self.collections]
        for c, p, m in self.report_figure_conditions():
            out += [paths.screen(paths.figure(n, "png", c, p, m)) for n in self.figure_names()]
        if self.memory_probe():
            out += paged(paths.memory_probe("md"))
            if self.memory_probe().get("v2"):
                out += paged(paths.memory_probe_v2("md"))
        if self.has_headline():
            out += paged(self.headline("md"))
        return list(dict.fromkeys(out))
