"""Plan sets: the experiment's conditions (``collections.<c>.plan_sets`` in config).

A plan set is the automatic plans, overridden by curated plan files (one or several,
e.g. one per curator) for the topics they name, evaluated on its topics: the expandable
requests (``topics: selected``), the topics of its curated file (``curated``) or those a
file names (a path). Each has its own plans, queries, runs, evaluation and report. Read
from config with :func:`read` (validated, paths resolved); asked for the files its steps read.

A *derived* plan set (``derived_from: expert``, Amendment 1 of docs/preregistration.md) is
another plan set's plans with only some of their keys: those of the source classes it
``keep``s (:mod:`gradedrel.plans.key_sources`), or all but those a blinded rater rated
``without_rating`` (the ratings in ``ratings``). It has its parent's requests, topics and
thesaurus, and no plan analysis or thesaurus read of its own (:mod:`gradedrel.plans.transform`).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Mapping

#: The name under results/{c}/evaluation/ of the plain baseline's evaluation.
RESERVED = "baseline"
TOPIC_RULES = ("selected", "curated")


@dataclass(frozen=True)
class PlanSet:
    """A plan set of a collection: its curated files, topics and thesaurus, or its parent."""

    name: str
    curated: tuple[str, ...] = ()     # curated plan files (YAML), one per curator; may be empty
    topics: str = "selected"          # "selected" | "curated" | a topic-list file
    description: str | None = None    # how its queries were built (findings report)
    thesaurus: str | None = None      # its automatic plans' thesaurus; None: the collection's
    derived_from: str | None = None   # a derived plan set: its parent plan set
    derivation: Mapping | None = None  # ... and which keys it keeps ({keep: [...]} etc.)
    ratings: str | None = None        # ... and the blinded ratings it reads (without_rating)
    curators: Mapping | None = None   # {file, column}: who curated each request, where the
                                      # plans do not say (key sources per curator)

    @property
    def derived(self) -> bool:
        """Whether this plan set is derived from another."""
        return self.derived_from is not None

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


def read(collection: str, raw: Mapping, resolve: Callable[[str], str] = lambda p: p
         ) -> dict[str, PlanSet]:
    """A collection's plan sets (default: ``auto`` alone) from a schema-validated config
    (the schema refuses a reserved name, an unknown key and a bad derivation; the files are
    checked before any job runs, :func:`gradedrel.preflight.input_errors`, or are a job's
    inputs): ``topics: curated`` without a curated file, a key only a derived plan set
    takes and a curator agreement naming unknown plan sets are errors naming the key."""
    where = f"config: collections.{collection}.plan_sets"
    sets = raw.get("plan_sets") or {"auto": {}}
    out = {}
    for name, spec in sets.items():
        spec = dict(spec or {})
        if spec.get("derived_from") is not None:
            out[name] = _derived(name, spec, sets, where, resolve)
            continue
        spec.pop("derived_from", None)   # null: the schema's default
        unknown = sorted(set(spec) - {"curated", "topics", "description", "thesaurus",
                                      "curators"})
        if unknown:
            raise ValueError(f"{where}.{name}: unknown keys {unknown}")
        curated = spec.get("curated") or ()
        if isinstance(curated, str):
            curated = (curated,)
        if len(set(curated)) != len(curated):
            raise ValueError(f"{where}.{name}: a curated file is named twice")
        topics = spec.get("topics") or "selected"
        curators = spec.get("curators")
        plan_set = PlanSet(name, tuple(resolve(c) for c in curated),
                           topics if topics in TOPIC_RULES else resolve(topics),
                           spec.get("description"), spec.get("thesaurus"),
                           curators={"file": resolve(curators["file"]),
                                     "column": curators["column"]} if curators else None)
        if plan_set.topics == "curated" and not plan_set.curated:
            raise ValueError(f"{where}.{name}: topics 'curated' needs curated plan files")
        out[name] = plan_set
    for name, plan_set in out.items():   # a derived plan set has its parent's topics
        if plan_set.derived:
            parent = out[plan_set.derived_from]
            out[name] = replace(plan_set, curated=parent.curated, topics=parent.topics,
                                thesaurus=parent.thesaurus, curators=parent.curators)
    pair = raw.get("curator_agreement")
    missing = [p for p in (pair or {}).values() if p not in out]
    if missing:
        raise ValueError(f"config: collections.{collection}.curator_agreement names plan sets "
                         f"{missing}, which are not under its plan_sets")
    return out


def _derived(name: str, spec: Mapping, sets: Mapping, where: str,
             resolve: Callable[[str], str]) -> PlanSet:
    """A derived plan set's entry, checked: its parent exists and is not itself derived, and
    a rating it leaves out has its ratings."""
    inherited = {"curated": None, "thesaurus": None, "topics": "selected"}  # schema defaults
    unknown = sorted(k for k in set(spec) - {"derived_from", "keep", "without_rating",
                                             "without_recalled", "ratings", "description"}
                     if not (k in inherited and spec[k] == inherited[k]))
    if unknown:
        raise ValueError(f"{where}.{name}: a derived plan set takes derived_from, keep, "
                         f"without_rating, without_recalled, ratings, description; not "
                         f"{unknown}")
    parent = spec["derived_from"]
    if parent not in sets or (sets[parent] or {}).get("derived_from") is not None:
        raise ValueError(f"{where}.{name}.derived_from: {parent!r} is not a plan set of the "
                         f"collection that is not itself derived")
    derivation = {k: spec[k] for k in ("keep", "without_rating", "without_recalled")
                  if k in spec}
    if spec.get("without_rating") and not spec.get("ratings"):
        raise ValueError(f"{where}.{name}: without_rating needs the ratings file (ratings)")
    ratings = resolve(spec["ratings"]) if spec.get("ratings") else None
    return PlanSet(name, description=spec.get("description"), derived_from=parent,
                   derivation=derivation, ratings=ratings)


def input_key(kind: str, plan_set: str, model: str | None = None) -> str:
    """The name of one plan set's (and model's) file among a rule's named inputs:
    ``means/expert/InQuery``; the comparison of plan sets looks its files up by name."""
    return f"{kind}/{plan_set}" if model is None else f"{kind}/{plan_set}/{model}"
