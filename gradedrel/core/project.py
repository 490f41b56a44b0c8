"""The project's own files (default config, study designs, published numbers) wherever the
package runs: beside it in a checkout (``config/``), else the copies setup.py put into the
wheel (``gradedrel/_project/``), so ``compare``, ``thesaurus lookup`` and ``plans check``
work outside a checkout.

What the commands download or cache goes into the checkout's ``.data/`` in a checkout, and
outside one into the user data home (:func:`data_home`: ``$GRADEDREL_HOME``, else
``~/.gradedrel``), never into the installed package: a read-only install works, and
``pip uninstall`` leaves nothing behind in site-packages (docs/setup.md, "Installed from
the wheel")."""
from __future__ import annotations

import os
from pathlib import Path

#: The checkout the package lives in, when it does.
CHECKOUT = Path(__file__).resolve().parents[2]
#: The copies inside an installed package (setup.py's ``PROJECT_FILES``).
PACKAGED = Path(__file__).resolve().parents[1] / "_project"
CONFIG = "config/config.yaml"
#: A project's data folder (downloads), relative to the project: the config's data paths
#: start with it (``.data/thesauri/...``).
DATA = ".data"
#: The variable naming the user data home (as IR_DATASETS_HOME names ir_datasets').
HOME_VARIABLE = "GRADEDREL_HOME"


def in_checkout() -> bool:
    """Whether the package runs from a checkout (its ``config/`` beside it)."""
    return (CHECKOUT / CONFIG).is_file()


def project_root() -> Path:
    """The folder holding the package's ``config/``: the checkout, else the installed
    copies."""
    return CHECKOUT if in_checkout() else PACKAGED


def project_file(relative: str | Path) -> Path:
    """A file of the package's project (``config/...``), from :func:`project_root`."""
    return project_root() / relative


def data_home() -> Path:
    """The user data home, where an installed package's commands keep their downloads and
    caches: ``$GRADEDREL_HOME``, else ``~/.gradedrel``."""
    return Path(os.environ.get(HOME_VARIABLE) or Path.home() / ".gradedrel").expanduser()


def data_file(root: str | Path, relative: str | Path) -> Path:
    """Where a data path of the config of project ``root`` lives: under ``root``; for the
    installed package's own copies (:data:`PACKAGED`), in the user data home instead, a
    path under ``.data/`` with that folder left out (``.data/thesauri/nasa/x`` ->
    ``~/.gradedrel/thesauri/nasa/x``). An absolute path is itself."""
    relative = Path(relative)
    if relative.is_absolute() or Path(root).resolve() != PACKAGED.resolve():
        return Path(root) / relative
    parts = relative.parts[1:] if relative.parts[:1] == (DATA,) else relative.parts
    return data_home().joinpath(*parts)
