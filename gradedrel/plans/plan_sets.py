"""Plan sets: the experiment's conditions (``collections.<c>.plan_sets`` in config).

A plan set is the automatic plans, overridden by curated plan files (one or several,
e.g. one per curator) for the topics they name, evaluated on its topics: the expandable requests (``topics: selected``),
the topics of its curated file (``curated``) or those a file names (a path). Each
has its own plans, queries, runs, evaluation and report. Read from config with
:func:`read` (validated, paths resolved); asked for the files its steps read.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable, Mapping

#: The name under results/{c}/evaluation/ of the plain baseline's evaluation.
RESERVED = "baseline"
TOPIC_RULES = ("selected", "curated")


@dataclass(frozen=True)
class PlanSet:
    name: str
    curated: tuple[str, ...] = ()     # curated plan files (YAML), one per curator; may be empty
    topics: str = "selected"          # "selected" | "curated" | a topic-list file
    description: str | None = None    # how its queries were built (findings report)
    thesaurus: str | None = None      # its automatic plans' thesaurus; None: the collection's

    def auto_plans(self, collection_dir: str, collection_thesaurus: str) -> str:
        """The automatic plans this plan set starts from: ``plans/auto.yaml`` (built from
        the collection's thesaurus), or ``plans/auto.{thesaurus}.yaml`` for another."""
        if self.thesaurus in (None, collection_thesaurus):
            return f"{collection_dir}/plans/auto.yaml"
        return f"{collection_dir}/plans/auto.{self.thesaurus}.yaml"

    @property
    def topic_rule(self) -> str:
        """How the topics are chosen: ``selected``, ``curated`` or ``named`` (a file)."""
        return self.topics if self.topics in TOPIC_RULES else "named"

    @property
    def topic_list(self) -> str | None:
        """The file naming the topics, if the plan set names them by a file."""
        return None if self.topics in TOPIC_RULES else self.topics

    @property
    def topic_source(self) -> str:
        """What names the topics, in messages: the curated files, the topic list, or the rule."""
        if self.topic_rule == "curated":
            return ", ".join(self.curated)
        return self.topic_list or self.topic_rule

    def merge_inputs(self, auto_plans: str) -> dict:
        """Files merge_curated_plans reads: the automatic plans, the curated files if any."""
        return {"auto": auto_plans, **({"curated": list(self.curated)} if self.curated else {})}

    def selection_files(self) -> dict:
        """Files topic selection reads besides the plans and the recall base."""
        files = {"curated": list(self.curated)} if self.curated else {}
        if self.topic_list:
            files["named"] = self.topic_list
        return files

    def files(self) -> list[str]:
        return [*self.curated, *([self.topic_list] if self.topic_list else [])]


def read(collection: str, raw: Mapping, resolve: Callable[[str], str] = lambda p: p,
         check_files: bool = True) -> dict[str, PlanSet]:
    """A collection's plan sets (default: ``auto`` alone), validated: a reserved name,
    a missing file, ``topics: curated`` without a curated file and a curator agreement
    naming unknown plan sets are errors naming the config key."""
    where = f"config: collections.{collection}.plan_sets"
    sets = raw.get("plan_sets") or {"auto": {}}
    if RESERVED in sets:
        raise ValueError(f"{where}: '{RESERVED}' is reserved")
    out = {}
    for name, spec in sets.items():
        spec = dict(spec or {})
        unknown = sorted(set(spec) - {"curated", "topics", "description", "thesaurus"})
        if unknown:
            raise ValueError(f"{where}.{name}: unknown keys {unknown}")
        curated = spec.get("curated") or ()
        if isinstance(curated, str):
            curated = (curated,)
        if len(set(curated)) != len(curated):
            raise ValueError(f"{where}.{name}: a curated file is named twice")
        topics = spec.get("topics") or "selected"
        plan_set = PlanSet(name, tuple(resolve(c) for c in curated),
                           topics if topics in TOPIC_RULES else resolve(topics),
                           spec.get("description"), spec.get("thesaurus"))
        if plan_set.topics == "curated" and not plan_set.curated:
            raise ValueError(f"{where}.{name}: topics 'curated' needs curated plan files")
        for path in plan_set.files() if check_files else []:
            if not os.path.exists(path):
                raise ValueError(f"{where}.{name}: no file {path}")
        out[name] = plan_set
    pair = raw.get("curator_agreement")
    missing = [p for p in (pair or {}).values() if p not in out]
    if missing:
        raise ValueError(f"config: collections.{collection}.curator_agreement names plan sets "
                         f"{missing}, which are not under its plan_sets")
    return out


def input_key(kind: str, plan_set: str, model: str | None = None) -> str:
    """The name of one plan set's (and model's) file among a rule's named inputs:
    ``means/expert/InQuery``; the comparison of plan sets looks its files up by name."""
    return f"{kind}/{plan_set}" if model is None else f"{kind}/{plan_set}/{model}"
