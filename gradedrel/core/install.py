"""How to install what is missing: the one source of the install advice the commands and the
workflow print (issue 43). gradedrel is on no package index, so every command names a
clone of the repository or the release's wheel, never a version to fetch from an index
(docs/setup.md, "Installed from the wheel")."""
from __future__ import annotations

import json
import os
from importlib.util import find_spec
from urllib.parse import unquote, urlparse

#: The import names of the ``[workflow]`` extra's own packages (pyproject.toml; pyjnius, which
#: ``pyterrier[java]`` brings, is imported as ``jnius``).
WORKFLOW_IMPORTS = ("snakemake", "pyterrier", "jnius", "lxml", "rdata")
#: The import names of the ``[compare]`` extra's packages (pyproject.toml): the CG/DCG figures
#: and the judgements of a shipped reference evaluation (``gradedrel compare``).
COMPARE_IMPORTS = ("matplotlib", "ir_datasets")
NO_INDEX = "gradedrel is on no package index"


def installed_from() -> tuple[str, bool] | None:
    """The wheel or folder this installation of gradedrel came from, and whether it is an
    editable install (pip's record, ``direct_url.json``, PEP 610), while it is still there;
    None when unknown."""
    from importlib.metadata import distributions

    # the first record pip wrote: a checkout's own gradedrel.egg-info (left by a build) may
    # come first on the path and has none
    texts = [d.read_text("direct_url.json") for d in distributions(name="gradedrel")]
    try:
        record = json.loads(next((t for t in texts if t), "{}"))
        url = urlparse(record.get("url", ""))
        editable = bool((record.get("dir_info") or {}).get("editable"))
    except (ValueError, AttributeError):
        return None
    path = unquote(url.path)
    return (path, editable) if url.scheme == "file" and os.path.exists(path) else None


def extra_command(source: tuple[str, bool] | None = None, extra: str = "workflow") -> str:
    """The command that adds the extra ``extra``: from ``source`` (default: where this
    installation came from, :func:`installed_from`), else from a clone or the wheel."""
    path, editable = source or installed_from() or (None, False)
    if path:
        return f"pip install {'-e ' if editable else ''}'{path}[{extra}]'"
    return (f"pip install '/path/to/gradedrel[{extra}]' (a clone of the repository) or "
            f"'gradedrel-<version>-py3-none-any.whl[{extra}]' (a release's wheel); {NO_INDEX}")


def workflow_extra_problem(source: tuple[str, bool] | None = None, locate=find_spec) -> str | None:
    """Why the workflow cannot run its jobs here for want of the ``[workflow]`` extra's
    packages (:data:`WORKFLOW_IMPORTS`, :func:`missing_packages`), with the command that
    installs them from ``source`` (:func:`extra_command`); None when they are all there."""
    missing = missing_packages(WORKFLOW_IMPORTS, locate)
    if not missing:
        return None
    return (f"the workflow's jobs need gradedrel's extra [workflow]; missing here: "
            f"{', '.join(missing)}: {extra_command(source)} (docs/module.md)")


def missing_packages(names, locate=find_spec) -> list[str]:
    """Those of the packages ``names`` that cannot be imported here (located, not imported:
    ``locate`` is :func:`importlib.util.find_spec`)."""
    missing = []
    for name in names:
        try:
            if locate(name) is None:
                missing.append(name)
        except (ImportError, ValueError):
            # a finder may raise rather than answer None, not only for a missing parent: a
            # meta-path hook hiding a package does (tests/workflow/test_module_url.py)
            missing.append(name)
    return missing
