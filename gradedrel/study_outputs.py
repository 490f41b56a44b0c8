"""The rules' input and output files that are more than one :class:`~gradedrel.study.Layout`
path: what a findings, figures, retrieval, classification or annex job reads and writes,
built from the :class:`~gradedrel.study.Study` (issue 44, item 5). The rule files call
them through ``FILES`` (workflow/rules/common.smk); an output the Snakemake report shows is a
:class:`ReportItem`, which common.smk's ``flagged`` turns into Snakemake's ``report()`` flag.

Pure but for two folders of files named in config, listed when the workflow is read: the
memory probe's answer files and a derived plan set's ratings. Imports no NumPy or pandas
(``snakemake --lint`` reads the rule files with Snakemake alone).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from gradedrel import collection
from gradedrel.core import ir_metadata
from gradedrel.core.params import canonical
from gradedrel.evaluation.contract import TABLES as EVALUATION_TABLES
from gradedrel.plans.plan_sets import input_key
from gradedrel.report import design
from gradedrel.report.items import label
from gradedrel.study import Study
from gradedrel.thesaurus import sources as thesaurus_sources

#: The evaluation's tables (every file of :data:`gradedrel.evaluation.contract.TABLES`) by
#: output name (``per_topic/BM25`` -> ``per_topic.tsv``; a significance table by its test:
#: ``friedman/BM25`` -> ``significance_friedman.tsv``; ``bootstrap`` -> ``bootstrap_ci.tsv``).
EVALUATION_FILES = {table.removeprefix("significance_").removesuffix("_ci"): table
                    for table in EVALUATION_TABLES}

#: The tables of a findings report (report/{p}/{m}/tables/{name}.{csv,md,tex,html}) the
#: Snakemake report shows, and the caption of each there. The others (without a caption) it
#: leaves out, to stay small (with every plan set and model, the significance tables were a
#: quarter of its bytes); each is still written in every format, and the verdicts give the
#: deciding tests' p-values.
TABLE_CAPTIONS = {
    "avp": "avp_table.rst",
    "testbed": "testbed_table.rst",
    "effort": "effort_table.rst",
    "standard_measures": "standard_table.rst",
    "reproduction": "reproduction_table.rst",
}
#: What the findings job reads of each evaluation: input name -> evaluation file (the names
#: evaluate_runs and evaluate_comparisons give them, workflow/rules/evaluation.smk).
FINDINGS_EVALUATION_FILES = {"comparisons": "comparisons", **{
    name: EVALUATION_FILES[name]
    for name in ("means", "effort", "gain_curves", "friedman", "posthoc", "vs_baseline")}}


def collection_rule(rule: str, c: str) -> str:
    """The name of rule ``rule``'s job for collection ``c`` (a rule per collection where one
    job writes every plan set's files: their outputs differ by collection):
    ``evaluate_comparisons_nfcorpus_fresh``."""
    return f"{rule}_" + re.sub(r"\W", "_", c)


@dataclass(frozen=True)
class ReportItem:
    """An output the Snakemake report shows: its path, its caption file (in
    workflow/report/), category, subcategory and labels (its label names it, not its path)."""

    path: str
    caption: str
    category: str
    subcategory: str | None = None
    labels: Mapping[str, str] = field(default_factory=dict)


def labelled(path: str, caption: str, category: str, subcategory: str | None = None
             ) -> ReportItem:
    """A :class:`ReportItem` labelled by its caption (``{"item": label(caption)}``)."""
    return ReportItem(path, caption, category, subcategory, {"item": label(caption)})


def figure_caption(name: str) -> str:
    """The caption file of a figure of one plan set and model."""
    if name == "pr_levels":
        return "figure_pr.rst"
    return "figure_difference.rst" if name.startswith("diff_") else "figure_gain.rst"


@dataclass(frozen=True)
class RuleFiles:
    """The inputs and outputs of the rules, from the study. ``resolve`` maps a path named in
    config to the path the workflow reads (common.smk's ``config_path``)."""

    study: Study
    resolve: Callable[[str], str] = lambda path: path

    @property
    def paths(self):
        """The study's :class:`~gradedrel.study.Layout`."""
        return self.study.paths

    def page(self, source: str, caption: str, category: str,
             subcategory: str | None = None) -> ReportItem:
        """A rule's output ``page/<name>``: the Snakemake report's HTML page of its output
        ``<name>`` (path ``source``), captioned and filed under its collection. The job that
        writes a result writes its page too (gradedrel.core.steps.write_pages): the report
        shows images and HTML inline but other files only as downloads."""
        return labelled(self.paths.page(source), caption, category, subcategory)

    # --- thesauri ----------------------------------------------------------------------------
    def thesaurus_source(self, name: str) -> dict[str, Any]:
        """The config entry of thesaurus ``name`` (source; url, sha256, path or MeSH's files;
        base)."""
        if name not in self.study.thesauri:
            raise ValueError(f"config: no thesaurus {name!r} under 'thesauri'")
        return canonical({"base": "", **self.study.thesauri[name]})

    def thesaurus_reader(self, name: str) -> dict[str, Any]:
        """What the cached form of thesaurus ``name`` is read and written by: its reader's
        version and the cache format's (a new one re-reads the thesaurus)."""
        return thesaurus_sources.reader_versions(self.study.thesauri[name])

    def thesaurus_copies(self) -> dict[str, tuple[str, str]]:
        """The local copies of the thesauri (paths named in config; MeSH has two files, one
        per role), made by rule thesaurus_fetch: path -> (thesaurus, role)."""
        return {file["path"]: (name, role) for name, source in self.study.thesauri.items()
                for role, file in thesaurus_sources.file_specs(source).items()}

    def thesaurus_copy_source(self, local_copy: str) -> dict[str, str]:
        """url and sha256 of the thesaurus file kept at ``local_copy``."""
        name, role = self.thesaurus_copies()[local_copy]
        file = thesaurus_sources.file_specs(self.thesaurus_source(name))[role]
        return {"url": file["url"], "sha256": file["sha256"]}

    def thesaurus_files(self, name: str) -> dict[str, str]:
        """The local copies a thesaurus is read from, by role (``file``; MeSH: descriptors,
        trees)."""
        specs = thesaurus_sources.file_specs(self.thesaurus_source(name))
        return {role: file["path"] for role, file in specs.items()}

    def thesaurus_cache(self, c: str, name: str | None = None) -> str:
        """The cached thesaurus automatic plans are built from: ``name`` (plans of another
        thesaurus, plans/auto.{thesaurus}.yaml), else the collection's."""
        return self.paths.thesaurus(name or self.study.collections[c].thesaurus)

    # --- plans and retrieval ---------------------------------------------------------------
    def classification_inputs(self, c: str, p: str) -> dict[str, str]:
        """What classifying a plan set's keys reads beside its plans and candidates (the
        same job writes them: rule merge_curated_plans): the requests, the index (for the
        term pipeline), the thesaurus and, where the plans do not name their curators, the
        curation batches."""
        paths, cs = self.paths, self.study.collections[c]
        inputs = {
            "requests": paths.collection("requests.tsv", c),
            "index": paths.index(c),
            "thesaurus": paths.thesaurus(cs.plan_set_thesaurus(p)),
        }
        curators = self.study.plan_set(c, p).curators
        if curators:
            inputs["batches"] = curators["file"]
        return inputs

    def derivation_inputs(self, c: str, p: str) -> dict[str, Any]:
        """A derived plan set reads its parent's plans, candidates and key sources (and the
        blinded ratings, if it leaves out keys by them)."""
        derived = self.study.plan_set(c, p)
        inputs: dict[str, Any] = {
            name: self.paths.plan_set(f"{name}.{ext}", c, derived.derived_from)
            for name, ext in (("plans", "yaml"), ("candidates", "tsv"), ("key_sources", "tsv"))}
        if derived.ratings:  # a folder: items.tsv and the raters' ratings_<batch>.tsv
            inputs["rating_items"] = f"{derived.ratings}/items.tsv"
            inputs["ratings"] = sorted(str(f) for f in Path(derived.ratings).glob("ratings_*.tsv"))
        return inputs

    def data_files(self, c: str, keys: Iterable[str]) -> dict[str, str]:
        """The collection's local files among ``keys`` (docs, topics, qrels), as
        ``data/<part>``, for their digests in ir_metadata (none for an ir_datasets part)."""
        files = collection.local_files(self.study.collections[c].raw, keys)
        return {f"data/{part}": path for part, path in files.items()}

    def model_parameters(self, name: str) -> dict[str, Any]:
        """A model's back end and the parameters that back end takes."""
        model = self.study.models[name]
        return canonical({"backend": model.backend, **model.parameters})

    def retrieval_config(self, model: str) -> dict[str, Any]:
        """The configuration one model's runs used (hashed in provenance); what came before
        (plans, queries, index) is in their files, hashed beside."""
        config = self.study.config
        return canonical({"terrier": config["terrier"],
                          "model": {model: self.model_parameters(model)},
                          "depth": config["retrieval"]["depth"]})

    def query_outputs(self) -> dict[str, Any]:
        """The plan set's compiled queries (gradedrel.queries.compilation, in the retrieve
        job): a query file per query type (``queries/SUM/u``), the statistics with the
        report page of their means, the pairs excluded, the provenance record."""
        paths = self.paths
        out: dict[str, Any] = {f"queries/{q}": paths.query_file(q) for q in self.study.query_types}
        out["page/query_means"] = self.page(paths.queries("statistics_means.tsv"),
                                            "query_statistics.rst",
                                            "{collection} plans and queries", "{planset}")
        out |= {f"query_{name}": paths.queries(file) for name, file in (
            ("statistics", "statistics.tsv"), ("means", "statistics_means.tsv"),
            ("excluded", "excluded.tsv"), ("provenance", "provenance.json"))}
        return out

    def retrieval_outputs(self) -> dict[str, Any]:
        """Per model of the grid (``BM25``): a run per query type (``run/BM25/SUM/u``), its
        ir_metadata record (``record/BM25/SUM/u``) and provenance record, the topics not
        ranked with their report page."""
        paths, out = self.paths, {}
        for m in self.study.grid:
            runs = {q: paths.run(q, m=m) for q in self.study.query_types}
            out |= {f"run/{m}/{q}": run for q, run in runs.items()}
            out |= {f"record/{m}/{q}": str(ir_metadata.record_path(run)) for q, run in runs.items()}
            out |= {f"provenance/{m}/{q}": paths.run(q, m=m, ext="provenance.json") for q in runs}
            not_ranked = paths.runs("not_ranked.tsv", m=m)
            out[f"page/not_ranked/{m}"] = self.page(not_ranked, "not_ranked.rst",
                                                    "{collection} retrieval", f"{{planset}}, {m}")
            out[f"not_ranked/{m}"] = not_ranked
        return out

    # --- the paper's report -----------------------------------------------------------------
    def design_files(self, c: str) -> list[str]:
        """The collection's study design file and the files it amends (gradedrel.report.design)."""
        return design.files(self.study.collections[c].design)

    def report_setting(self, c: str, p: str) -> dict[str, Any]:
        """How our setting differs from the paper's; the plan set says how its queries were
        built."""
        setting = dict(self.study.config["report"]["setting"].get(c, {}))
        description = self.study.plan_set(c, p).description
        if description:
            setting["query_construction"] = description
        return canonical(setting)

    def report_tables(self, m: str) -> dict[str, str | ReportItem]:
        """The outputs ``{table}/{format}/{m}`` of the findings job: every table of model
        ``m`` in CSV, Markdown, LaTeX and HTML (the HTML one an item of the Snakemake report
        where :data:`TABLE_CAPTIONS` gives it a caption)."""
        out: dict[str, str | ReportItem] = {}
        for table in self.study.REPORT_TABLES:
            category = "{collection} findings" if table == "reproduction" else "{collection} tables"
            for fmt in self.study.TABLE_FORMATS:
                path = self.paths.report(f"tables/{table}.{fmt}", m=m)
                if fmt == "html" and table in TABLE_CAPTIONS:
                    path = labelled(path, TABLE_CAPTIONS[table], category, f"{{planset}}, {m}")
                out[f"{table}/{fmt}/{m}"] = path
        return out

    def per_model(self, file: str, models: Iterable[str]) -> dict[str, str]:
        """``{file}/{model}`` -> the evaluation's ``{file}.tsv`` of each of ``models``."""
        return {f"{file}/{m}": self.paths.evaluation(f"{file}.tsv", m=m) for m in models}

    def evaluation_outputs(self, models: Iterable[str]) -> dict[str, str | ReportItem]:
        """Per model (``means/BM25``): the evaluation's tables, the report pages of its means
        and effort, its coverage, provenance and ir_metadata."""
        paths, out = self.paths, {}
        for m in models:
            out |= {f"{name}/{m}": paths.evaluation(f"{file}.tsv", m=m)
                    for name, file in EVALUATION_FILES.items()}
            for name in ("means", "effort"):
                out[f"page/{name}/{m}"] = self.page(paths.evaluation(f"{name}.tsv", m=m),
                                                    f"evaluation_{name}.rst",
                                                    "{collection} evaluation", f"{{planset}}, {m}")
            out |= {f"{name}/{m}": paths.evaluation(file, m=m) for name, file in (
                ("provenance", "provenance.json"), ("metadata", ir_metadata.FILE_NAME))}
        return out

    def evaluation_inputs(self, models: Iterable[str]) -> Callable[[Any], dict[str, str]]:
        """The runs of each of ``models`` by model and label (``run/BM25/SUM/u``), the qrels
        and (but for the baseline) the plan set's topics: an input function."""
        return lambda wc: {key: path for m in models for key, path in
                           self.study.evaluation_inputs(wc.collection, wc.planset, m).items()}

    def selection_outputs(self) -> dict[str, str | ReportItem]:
        """The plan set's topic selection, written by its evaluate_runs job: every topic with
        the reason (``selected``, with its report page) and the selected topics (``topics``)."""
        selected, topics = (self.paths.plan_set(f) for f in ("selected_topics.tsv", "topics.tsv"))
        return {"page/selected": self.page(selected, "selected_topics.rst",
                                           "{collection} plans and queries", "{planset}"),
                "selected": selected, "topics": topics}

    def topic_selection(self, c: str, p: str) -> dict[str, Any]:
        """How plan set ``p``'s topics are selected (gradedrel.plans.selection.select_by): its
        rule, its source, and for rule ``selected`` the config's ``topic_selection`` criteria
        (evaluate_runs' params, so that a change re-runs the evaluation)."""
        s = self.study.plan_set(c, p)
        criteria = self.study.config["topic_selection"] if s.topic_rule == "selected" else None
        return canonical({"rule": s.topic_rule, "source": s.topic_source, "criteria": criteria})

    def evaluation_run_labels(self, models: Iterable[str]) -> Callable[[Any], dict]:
        """Per model, the labels of the runs it evaluates (the query types; the baseline: its
        one run, labelled by its model): a params function."""
        return lambda wc: {m: list(self.study.evaluation_runs(wc.collection, wc.planset, m))
                           for m in models}

    def per_condition(self, file: str, c: str) -> dict[str, str]:
        """``{file}/{p}/{m}`` -> the evaluation's ``{file}.tsv`` of each plan set ``p`` of
        collection ``c`` and report model ``m`` (``{collection}`` left to the job)."""
        return {input_key(file, p, m): self.paths.evaluation(f"{file}.tsv", p=p, m=m)
                for p, m in self.study.summary_conditions(c)}

    def findings_inputs(self, models: Iterable[str]) -> dict[str, str]:
        """What a plan set's findings job reads of each of ``models``' evaluation
        (:data:`FINDINGS_EVALUATION_FILES`; ``means/BM25``)."""
        return {f"{name}/{m}": self.paths.evaluation(f"{file}.tsv", m=m)
                for m in models for name, file in FINDINGS_EVALUATION_FILES.items()}

    def findings_outputs(self, models: Iterable[str]) -> dict[str, str | ReportItem]:
        """Per model (``md/BM25``): the tables, the findings report (Markdown; HTML, an item
        of the Snakemake report), the verdicts with their page, the findings and the primary
        comparisons."""
        paths, out = self.paths, {}
        for m in models:
            out |= self.report_tables(m)
            out[f"page/verdicts/{m}"] = self.page(paths.report("verdicts.tsv", m=m),
                                                  "verdicts.rst", "{collection} findings",
                                                  f"{{planset}}, {m}")
            out[f"md/{m}"] = paths.report("findings.md", m=m)
            out[f"html/{m}"] = labelled(paths.report("findings.html", m=m), "findings.rst",
                                        "{collection} findings", f"{{planset}}, {m}")
            for name in ("verdicts", "findings", "primary"):
                out[f"{name}/{m}"] = paths.report(f"{name}.tsv", m=m)
        return out

    def report_figures(self, models: Iterable[str]) -> dict[str, str]:
        """Per model (``pr_levels/png/BM25``): the outputs ``{figure}/png/{m}`` and
        ``{figure}/pdf/{m}`` (print quality; the Snakemake report embeds screen copies of the
        primary condition's, rule report_screen_figures) and the figures' record
        ``provenance/{m}`` (with their sha256: ``make adopt`` checks copied figures)."""
        out = {f"{name}/{ext}/{m}": self.paths.figure(name, ext, m=m)
               for m in models for name in self.study.figure_names() for ext in ("png", "pdf")}
        return out | {f"provenance/{m}": self.paths.figure("provenance", "json", m=m)
                      for m in models}

    def screen_figures(self) -> dict[str, ReportItem]:
        """The report's screen copies of one plan set's and model's figures (rule
        report_screen_figures: the primary condition of each collection)."""
        return {name: ReportItem(self.paths.screen(self.paths.figure(name)),
                                 figure_caption(name), "{collection} figures",
                                 "{planset}, {model} (the primary condition)",
                                 {"figure": figure_label})
                for name, figure_label in self.study.figure_names().items()}

    def findings_links(self, c: str, p: str, m: str) -> dict[str, str]:
        """The findings report's links to its tables and figures (made relative by the
        script)."""
        paths = self.paths
        tables = {f"table: {t}": paths.report(f"tables/{t}.md", c, p, m)
                  for t in self.study.REPORT_TABLES}
        if not self.study.draws_figures(c, p):
            return tables
        return tables | {f"figure: {n}": paths.figure(n, "png", c, p, m)
                         for n in self.study.figure_names()}

    # --- the integrity annex (gradedrel/integrity/, workflow/rules/integrity.smk) ----------
    def key_provenance_inputs(self, c: str) -> dict[str, str]:
        """The decomposition of a collection's primary effect reads the per-request AvP of
        the primary plan set and of its request, thesaurus and no-own plan sets (InQuery, as
        the primary comparison), the primary's key sources, the recall base, and the key
        shares of every curated plan set."""
        study, paths = self.study, self.paths
        primary = study.key_provenance_plan_set(c)
        roles = study.derived_roles(c, primary)
        model = study.primary_condition(c)[1]
        inputs = {input_key("per_topic", p): paths.evaluation("per_topic.tsv", c, p, model)
                  for p in [primary] + [roles[r] for r in ("request", "thesaurus", "no-own")]}
        inputs[input_key("key_sources", primary)] = paths.plan_set("key_sources.tsv", c, primary)
        inputs["recall_base"] = paths.collection("recall_base.tsv", c)
        for p in study.curated_plan_sets(c):
            inputs[input_key("shares_curators", p)] = paths.plan_set("key_shares_curators.tsv",
                                                                     c, p)
        return inputs

    def leak_inputs(self, c: str) -> dict[str, Any]:
        """The leak diagnostic reads the index and its posting arrays, the judgements and the
        key sources of every curated plan set."""
        paths, d = self.paths, self.study.collections[c].design
        inputs: dict[str, Any] = {"index": paths.index(c), "postings": paths.postings(c),
                                  "qrels": paths.collection("qrels.tsv", c),
                                  "design": d, "designs": design.files(d)}
        for p in self.study.curated_plan_sets(c):
            inputs[input_key("key_sources", p)] = paths.plan_set("key_sources.tsv", c, p)
        return inputs

    def headline_inputs(self) -> dict[str, Any]:
        """The qualified headline reads, per probed collection, the per-topic values of its
        primary plan set and of the one with request and thesaurus keys (the primary model),
        its decomposition and design; and the probe's remembered requests."""
        study, paths = self.study, self.paths
        probe = study.memory_probe()
        v2 = (probe or {}).get("v2")
        inputs: dict[str, Any] = {"published": self.resolve(study.config["report"]["published"])}
        if probe:
            inputs["remembered"] = (paths.memory_probe_v2("remembered.tsv") if v2
                                    else paths.memory_probe("remembered.tsv"))

        def row(c: str, *plan_sets: str, compared: bool = True, decomposed: bool = False
                ) -> None:
            """A deciding row of collection ``c``: the per-topic values of ``plan_sets`` (the
            primary model's), the comparisons of the first (``compared``), the decomposition
            (``decomposed``) and the design."""
            model, d = study.primary_condition(c)[1], study.collections[c].design
            for p in plan_sets:
                inputs[f"per_topic/{c}/{p}"] = paths.evaluation("per_topic.tsv", c, p, model)
            if compared:
                if model not in study.report_models:  # evaluate_comparisons runs for these only
                    raise ValueError(f"config: report.models {list(study.report_models)} "
                                     f"leaves out {model}, the primary model of {c}'s design "
                                     f"({d}): add it")
                inputs[f"comparisons/{c}/{plan_sets[0]}"] = paths.evaluation(
                    "comparisons.tsv", c, plan_sets[0], model)
            if decomposed:
                inputs[f"key_sources/{c}"] = paths.collection_report("key_sources.tsv", c)
            inputs.update({f"design/{c}": d, f"designs/{c}": design.files(d)})

        for c, primary in study.headline_plain().items():
            row(c, primary)
        fresh = study.fresh_condition()
        inputs |= {f"leak/{c}": paths.collection_report("leak.tsv", c)
                   for c in [*study.headline_plain(), *study.headline_conditions(),
                             *([fresh[0]] if fresh else [])] if study.curated_plan_sets(c)}
        for c, pair in study.headline_conditions().items():
            row(c, *pair, decomposed=True)
        if fresh:
            c, primary, thesaurus = fresh
            row(c, primary, thesaurus, *study.fresh_extra().values(), compared=False)
            inputs["fresh_pool"] = self.resolve(v2["fresh"]["pool"])
            inputs["fresh_recall_base"] = paths.collection("recall_base.tsv", c)
            inputs["fresh_decisions"] = paths.memory_probe_v2("decisions.json")
        return inputs

    def _answers(self, folder: str) -> list[str]:
        return sorted(str(f) for f in Path(self.resolve(folder)).glob("*.yaml"))

    def memory_probe_inputs(self) -> dict[str, Any]:
        """The probe's requests and answers, the study design whose seed its scorers draw
        with (the design of the collection its real, NutritionFacts, requests come from, and
        the files it amends), and per scored collection its index, posting arrays and
        judgements (docs/memory-probe.md)."""
        probe = self.study.memory_probe()
        if not probe:
            return {}
        d = self.study.collections[probe["collections"]["nfcorpus"]].design
        inputs = {"requests": self.resolve(probe["requests"]),
                  "answers": self._answers(probe["answers"]), "design": d,
                  "designs": design.files(d)}
        for source, c in probe["collections"].items():
            inputs |= {f"index/{source}": self.paths.index(c),
                       f"postings/{source}": self.paths.postings(c),
                       f"qrels/{source}": self.paths.collection("qrels.tsv", c)}
        return inputs

    def memory_probe_v2_inputs(self) -> dict[str, Any]:
        """Probe v2's texts, batches, answers, v1's requests and answers and its study design,
        and per scored source the index of its collection (the term pipeline)
        (docs/memory-probe.md, "Probe v2")."""
        probe = self.study.memory_probe()
        if not probe or not probe.get("v2"):
            return {}
        v1, v2 = self.memory_probe_inputs(), probe["v2"]
        inputs = {"requests": self.resolve(v2["requests"]),
                  "batches": self.resolve(v2["batches"]),
                  "answers": self._answers(v2["answers"]),
                  "requests_v1": v1["requests"], "answers_v1": v1["answers"],
                  "design": v1["design"], "designs": v1["designs"]}
        if v2.get("match_checks"):
            checks = self.resolve(v2["match_checks"])
            inputs |= {"check_items": f"{checks}/items.tsv", "checks": f"{checks}/checks.tsv"}
        for source, c in probe["collections"].items():
            inputs[f"index/{source}"] = self.paths.index(c)
        return inputs
