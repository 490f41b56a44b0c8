"""Heavy libraries imported on first use (numpy, pandas), so that reading the workflow's
rule files needs only Snakemake and its dependencies (`snakemake --lint` as the workflow
catalog runs it; the main process of `--software-deployment-method conda`: docs/module.md).
A module names such a library at its top (``np = lazy.module("numpy")``); the standard
library's :class:`importlib.util.LazyLoader` loads it when an attribute is first read.
(lxml is imported inside gradedrel.thesaurus.rdfxml's functions.)
"""
from __future__ import annotations

import importlib.util
import sys
import types

#: The names :func:`module` made lazy, in order.
_LAZY: list[str] = []


class MissingModule(types.ModuleType):
    """Stands for a library that is not installed: reading any attribute raises
    :class:`ModuleNotFoundError` naming it (numpy and pandas come with gradedrel itself)."""

    def __getattr__(self, attr: str):
        raise ModuleNotFoundError(f"No module named {self.__name__!r} (needed here; install "
                                  "gradedrel)", name=self.__name__)


def module(name: str) -> types.ModuleType:
    """Module ``name`` (a top-level one: ``numpy``, ``pandas``): the one already imported,
    else one imported on first attribute access; a :class:`MissingModule` if not installed."""
    if sys.modules.get(name) is not None:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        return MissingModule(name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    lazy = importlib.util.module_from_spec(spec)
    sys.modules[name] = lazy
    loader.exec_module(lazy)
    _LAZY.append(name)
    return lazy


def realise() -> list[str]:
    """Load now every library :func:`module` left to first use, in this thread. Python
    3.11's LazyLoader is not thread-safe on the first attribute read (another thread can see
    the module empty: ``module 'pandas' has no attribute 'DataFrame'``), so the workflow
    calls this at the end of parsing, before Snakemake's scheduler threads start. Returns
    the names loaded."""
    loaded = [name for name in _LAZY if sys.modules.get(name) is not None]
    for name in loaded:
        getattr(sys.modules[name], "__name__")  # any attribute read executes the module
    _LAZY.clear()
    return loaded
