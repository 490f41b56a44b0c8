"""The measure families, registered once, and measure names parsed into measures.

Each family module (:data:`FAMILY_MODULES`, in this package) defines ``MEASURES``: its
families as :class:`~gradedrel.evaluation.measures.base.Measure` templates. A new family is
one module and its line here; then config (``evaluation.measures``), ``gradedrel evaluate
--measure`` and ir_measures (:mod:`.irm`) all know it.

:func:`parse` reads one name: a full name (``AvP(level=3)``, ``JK_DCG(b=10,profile='3')@10``,
``Q(beta=1)``) is that measure; a name that leaves a required parameter out (``AvP``,
``JK_DCG``, ``nDCG_log2``, ``JK_DCG(b=10)``) is a *family entry*, which :func:`expand` spreads
over the evaluation's configured values of the parameters it leaves out. A name that is no
family here is a standard measure as ir_measures names it (``nDCG@10``, ``AP(rel=3)``:
:class:`~gradedrel.evaluation.standard_measures.StandardMeasure`).
"""
from __future__ import annotations

import ast
import difflib
import functools
import importlib
import re
import sys
from typing import Sequence

from gradedrel.evaluation.measures.base import Measure

#: The family modules, ``gradedrel.evaluation.measures.<name>``, each with ``MEASURES``.
FAMILY_MODULES = ("avp", "jk", "ndcg_log2", "q", "nerr")
#: The evaluation's measures when config lists none (``evaluation.measures: null``): the
#: paper's grid over the configured levels, readings, profiles, bases and cutoffs.
DEFAULT_MEASURES = ("AvP", "JK_CG", "JK_nCG", "JK_DCG", "JK_nDCG", "nDCG_log2")


@functools.cache
def families() -> dict[str, Measure]:
    """Family name → template (the family modules imported on first use)."""
    found: dict[str, Measure] = {}
    for module_name in FAMILY_MODULES:
        for template in importlib.import_module(f"{__package__}.{module_name}").MEASURES:
            if template.NAME in found:
                first = found[template.NAME].__module__.rpartition(".")[2]
                raise ValueError(f"measure family {template.NAME!r} is registered twice "
                                 f"({first}, {module_name})")
            found[template.NAME] = template
    return found


class UnknownMeasure(ValueError):
    """A name that is no registered measure (the message names the closest one)."""


_HEAD = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)")


def _value(node: ast.AST, name: str):
    try:
        return ast.literal_eval(node)
    except ValueError:
        raise ValueError(f"{name!r}: parameter values must be numbers, text in quotes or "
                         "{level: gain} tables") from None


def _syntax(name: str) -> tuple[str, dict] | None:
    """(family, params) of ``Name(param=value,…)@cutoff``, or None when it is not one."""
    try:
        node = ast.parse(name.strip(), mode="eval").body
    except SyntaxError:
        return None
    params = {}
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
        params["@"] = _value(node.right, name)
        node = node.left
    if isinstance(node, ast.Call):
        if node.args or any(k.arg is None for k in node.keywords):
            return None
        for keyword in node.keywords:
            params[keyword.arg] = _value(keyword.value, name)
        node = node.func
    if not isinstance(node, ast.Name):
        return None
    return node.id, params


def parse_family(name: str) -> Measure | None:
    """The measure (or family entry) ``name`` spells, when its family is registered here;
    None when it is not (a ValueError for a registered family with wrong parameters)."""
    spelled = _syntax(name)
    if spelled is None or spelled[0] not in families():
        return None
    family, params = spelled
    template = families()[family]
    if "@" in params:
        params[template.AT_PARAM] = params.pop("@")
    return template(**params)


def parse(name: str):
    """A measure name → the measure (or family entry; see the module doc); an
    :class:`UnknownMeasure` naming the closest registered name when it is none."""
    ours = parse_family(name)
    if ours is not None:
        return ours
    from gradedrel.evaluation.standard_measures import StandardMeasure, parse_measures

    try:
        parse_measures([name])  # ir_measures parses it: a standard measure
    except ValueError:
        raise UnknownMeasure(f"unknown measure {name!r} (the closest registered: "
                             f"{closest(name)!r})") from None
    return StandardMeasure(name)


def closest(name: str) -> str:
    """The registered family name (or ir_measures measure name) nearest ``name``."""
    head = _HEAD.match(name)
    head = head.group(1) if head else name
    import ir_measures

    candidates = list(families())
    candidates += [n for n in ir_measures.measures.registry if n not in candidates]
    by_case = {c.casefold(): c for c in candidates}
    if head.casefold() in by_case:
        return by_case[head.casefold()]
    # (cutoff 0: the nearest, whatever its distance)
    return difflib.get_close_matches(head, candidates, n=1, cutoff=0.0)[0]


def expand(names: Sequence[str], settings) -> list:
    """The measures ``names`` list, in order: full names as they are, family entries spread
    over the evaluation's settings (a family module's entries together, where its first
    entry stands: :meth:`~gradedrel.evaluation.measures.base.Measure.grid`); a measure
    listed twice is kept where it first appears."""
    groups: dict = {}  # a family module's name → its entries; a full measure → itself
    for name in names:
        measure = parse(name)
        entry = isinstance(measure, Measure) and not measure.complete
        groups.setdefault(type(measure).__module__ if entry else measure, []).append(measure)
    out: dict = {}
    for key, group in groups.items():
        if isinstance(key, str):
            group = sys.modules[key].MEASURES[0].grid(group, settings)
        for measure in group:
            out.setdefault(str(measure), measure)
    return list(out.values())
