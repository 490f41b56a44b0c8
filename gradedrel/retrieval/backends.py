"""Retrieval back ends: the engines a model in config names (``retrieval.models.<m>.backend``).

A back end is one :class:`Backend` subclass, registered with :func:`register` under its
``name``: its ``parameters`` (the config keys it keeps: schema validation fills every back
end's defaults into every model), :meth:`Backend.validate`, :meth:`Backend.retriever` (a
PyTerrier transformer over an index), :meth:`Backend.prepare` (one query's columns for it,
or None when no search key is left) and ``index_files`` (files beside the index it reads).

``inquery`` scores the tree (:mod:`gradedrel.retrieval.inquery`); ``terrier`` runs the
MatchOp string with a Terrier weighting model. The weighting models are registered too
(:data:`WEIGHTING_MODELS`: what control ``c`` sets, its range, the properties read), so a
misspelt model, control or property fails at start-up, not silently in Java. Adding one:
docs/retrieval.md, "Adding a back end or a weighting model"; a test keeps the schema's
enums equal to the registries.
"""
from __future__ import annotations

import contextlib
import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Mapping

from gradedrel.core.registry import registrar
from gradedrel.queries.query_tree import from_dict, keys

#: The registered back ends by name.
BACKENDS: dict[str, type["Backend"]] = {}
#: Class decorator: make a class the back end named by its ``name``.
register = registrar(BACKENDS, "back end")


def get(name: Any, where: str = "backend") -> type["Backend"]:
    """The back end registered as ``name``; one error naming the registered ones."""
    if name not in BACKENDS:
        raise ValueError(f"{where}: expected one of {tuple(BACKENDS)}, found {name!r}")
    return BACKENDS[name]


def _hint(name: str, known) -> str:
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else f"known: {', '.join(known) or 'none'}"


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class Backend:
    """One retrieval engine with its (validated) parameters."""

    #: The name a model's ``backend`` gives.
    name: ClassVar[str] = ""
    #: The config keys of a model it takes.
    parameters: ClassVar[tuple[str, ...]] = ()
    #: Files beside the index it reads, by input name, relative to ``results/{collection}``.
    index_files: ClassVar[dict[str, str]] = {}

    def __init__(self, parameters: Mapping[str, Any]):
        self.parameters = dict(parameters)

    @classmethod
    def validate(cls, where: str, spec: Mapping[str, Any]) -> dict:
        """The model's own parameters (in the config's order), checked; ``where`` names
        the model in errors (``retrieval.models.BM25``)."""
        return {k: v for k, v in spec.items() if k in cls.parameters}

    def retriever(self, index_dir: str | Path, depth: int, index=None):
        """The PyTerrier transformer ranking :meth:`prepare`'s columns (top ``depth``)."""
        raise NotImplementedError

    def prepare(self, query: Mapping[str, Any], pipeline) -> dict | None:
        """The columns its transformer reads for one query of a query file (``tree`` as
        a dict, ``matchop``), or None when no search key is left after ``pipeline``."""
        raise NotImplementedError


@register
class InQuery(Backend):
    """InQuery's inference network (Callan, Croft & Harding 1992) over the Terrier index:
    scores the query tree (:mod:`gradedrel.retrieval.inquery`); reads the posting arrays."""

    name = "inquery"
    parameters = ("default_belief",)
    index_files = {"postings": "index_arrays/postings"}

    @classmethod
    def validate(cls, where, spec):
        """The checked parameters of an InQuery model; ValueError for a default_belief
        outside [0, 1)."""
        own = super().validate(where, spec)
        belief = own.get("default_belief")
        if belief is not None and not (_number(belief) and 0 <= belief < 1):
            raise ValueError(f"{where}.default_belief: expected a number in [0, 1), "
                             f"found {belief!r}")
        return own

    def retriever(self, index_dir, depth, index=None):
        """The InQuery transformer over the index's posting arrays, ``depth`` results per query."""
        from gradedrel.retrieval.transformers import InQuery as Transformer

        # its parameters (default_belief) are the transformer's; an absent one its default
        return Transformer(index_dir, num_results=depth, **self.parameters)

    def prepare(self, query, pipeline):
        """The tree, if the index's term pipeline leaves it a key (InQuery's parser drops
        stopwords, and an operator left empty)."""
        from gradedrel.retrieval import inquery

        if inquery.prepare(from_dict(query["tree"]), pipeline) is None:
            return None
        return {"tree": query["tree"]}


# --- Terrier weighting models --------------------------------------------------------------

#: How a weighting model uses a ``#combine:i=w`` weight (Terrier 5.11 divides it by the
#: query's largest, its ``keyFrequency``): ``linear``, score times v = w/max; ``saturated``,
#: times (k_3 + 1)·v/(k_3 + v) (BM25); ``ignored`` (DirichletLM: WSYN runs unweighted).
QUERY_WEIGHTS = ("linear", "saturated", "ignored")


@dataclass(frozen=True)
class WeightingModel:
    """A Terrier weighting model (``wmodel``): what its control ``c`` sets, in which range,
    the properties it reads and how it uses query-term weights (terrier-core 5.11)."""

    name: str
    reference: str
    #: What Terrier's control ``c`` sets (None: the model has no parameter).
    c: str | None = None
    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: bool = False
    properties: tuple[str, ...] = ()
    #: How it uses a ``#combine`` weight (:data:`QUERY_WEIGHTS`).
    query_weights: str = "linear"

    def __post_init__(self):
        if self.query_weights not in QUERY_WEIGHTS:
            raise ValueError(f"{self.name}: query_weights must be one of {QUERY_WEIGHTS}")

    def check_c(self, where: str, value) -> None:
        """ValueError unless ``value`` is a valid c parameter of this weighting model."""
        if self.c is None:
            raise ValueError(f"{where}.controls.c: Terrier's {self.name} has no parameter")
        if isinstance(value, str):
            with contextlib.suppress(ValueError):  # a number written as text is that number
                value = float(value)
        low_ok = _number(value) and (self.minimum is None or (
            value > self.minimum if self.exclusive_minimum else value >= self.minimum))
        if not low_ok or (self.maximum is not None and value > self.maximum):
            low = "" if self.minimum is None else \
                f"{'>' if self.exclusive_minimum else '>='} {self.minimum:g}"
            high = "" if self.maximum is None else f"<= {self.maximum:g}"
            bounds = " and ".join(b for b in (low, high) if b)
            raise ValueError(f"{where}.controls.c ({self.name}'s {self.c}): expected a number "
                             f"{bounds}, found {value!r}")


#: The Terrier weighting models a ``terrier`` model (and the baseline) can name.
WEIGHTING_MODELS: dict[str, WeightingModel] = {}


def register_weighting_model(model: WeightingModel) -> WeightingModel:
    """Add ``model`` to WEIGHTING_MODELS (ValueError for a different one of the same name);
    returns it."""
    if model.name in WEIGHTING_MODELS and WEIGHTING_MODELS[model.name] != model:
        raise ValueError(f"weighting model {model.name!r} is registered twice")
    WEIGHTING_MODELS[model.name] = model
    return model


register_weighting_model(WeightingModel(
    "BM25", "Robertson et al., Okapi at TREC-3 (1994)", c="b (length normalisation)",
    minimum=0, maximum=1, properties=("bm25.k_1", "bm25.k_3", "bm25.b"),
    query_weights="saturated"))
register_weighting_model(WeightingModel(
    "DirichletLM", "Zhai & Lafferty, SIGIR 2001 (Dirichlet smoothing)", c="mu",
    minimum=0, exclusive_minimum=True, properties=("dirichletlm.mu",),
    query_weights="ignored"))
register_weighting_model(WeightingModel(
    "DPH", "Amati et al., FUB at TREC 2007 (DFR, hypergeometric, parameter-free)"))
register_weighting_model(WeightingModel(
    "PL2", "Amati & van Rijsbergen, TOIS 20(4) 2002 (DFR: Poisson, Laplace after-effect, "
    "normalisation 2)", c="c (normalisation 2: tfn = tf log2(1 + c avg_dl / dl))",
    minimum=0, exclusive_minimum=True, properties=("dfr.c",)))


def weighting_model(name: Any, where: str = "wmodel") -> WeightingModel:
    """The registered weighting model ``name``; one error with the closest registered one."""
    if name not in WEIGHTING_MODELS:
        raise ValueError(f"{where}: {name!r} is not a registered Terrier weighting model "
                         f"({_hint(str(name), WEIGHTING_MODELS)}; registered in "
                         f"gradedrel.retrieval.backends)")
    return WEIGHTING_MODELS[name]


@register
class Terrier(Backend):
    """A Terrier weighting model through PyTerrier (``pt.terrier.Retriever``), running the
    MatchOp string; Terrier's query parser applies the index's term pipeline."""

    name = "terrier"
    parameters = ("wmodel", "controls", "properties")

    @classmethod
    def validate(cls, where, spec):
        """The checked parameters of a Terrier model: a known wmodel, only the c control, in
        range."""
        own = super().validate(where, spec)
        if not own.get("wmodel"):
            raise ValueError(f"{where}: a terrier model needs 'wmodel'")
        model = weighting_model(own["wmodel"], f"{where}.wmodel")
        controls = own.get("controls") or {}
        for key, value in controls.items():
            if key != "c":  # other controls would change what the grid runs (e.g. qe)
                raise ValueError(f"{where}.controls: {key!r} is not a control the grid "
                                 f"passes; only 'c' (the weighting model's parameter)")
            model.check_c(where, value)
        owners = {p: m.name for m in WEIGHTING_MODELS.values() for p in m.properties}
        prefixes = {p.split(".")[0] for p in model.properties}
        for key, value in (own.get("properties") or {}).items():
            if key in owners and key not in model.properties:
                raise ValueError(f"{where}.properties: {key!r} is read by Terrier's "
                                 f"{owners[key]}, not by {model.name}")
            if key.split(".")[0] in prefixes and key not in model.properties:
                raise ValueError(f"{where}.properties: {model.name} reads no {key!r} "
                                 f"({_hint(key, model.properties)})")
            if key in model.properties and not _number(value):
                raise ValueError(f"{where}.properties.{key}: expected a number, "
                                 f"found {value!r}")
        return own

    def retriever(self, index_dir, depth, index=None):
        """A PyTerrier Retriever over the index with this weighting model, ``depth`` results
        per query."""
        from gradedrel.core.terrier import open_index, retriever

        def as_text(key):  # Terrier takes controls and properties as strings
            return {k: str(v) for k, v in self.parameters.get(key, {}).items()}

        # pt.terrier.Retriever's rankings, read as arrays (gradedrel.core.terrier.retriever)
        return retriever(index if index is not None else open_index(index_dir),
                         wmodel=self.parameters["wmodel"], num_results=depth,
                         controls=as_text("controls"), properties=as_text("properties"))

    def prepare(self, query, pipeline):
        """The MatchOp string, if a key keeps a term after the index's term pipeline (the
        one Terrier's parser applies)."""
        tree = from_dict(query["tree"])
        if not any(pipeline(token) for key in keys(tree) for token in key.tokens):
            return None
        if query["matchop"] is None:
            raise ValueError(f"query type {query.get('query_type', '?')}: its tree holds an "
                             "operator Terrier's MatchOp cannot write (#and, #or, #not, "
                             "#max): run it with an InQuery model (retrieval.models, "
                             "engine: inquery)")
        return {"query": query["matchop"]}
