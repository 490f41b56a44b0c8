"""The project's own files — the default config, the study designs, the published numbers —
wherever the package runs: in a checkout they are beside the package (``config/``); in an
installed wheel they are the copies the build put into the package (``gradedrel/_project/``,
setup.py), so the commands that read them (``compare``, ``thesaurus lookup``, ``plans
check``) work outside a checkout."""
from __future__ import annotations

from pathlib import Path

#: The checkout the package lives in, when it does.
CHECKOUT = Path(__file__).resolve().parents[2]
#: The copies inside an installed package (setup.py's ``PROJECT_FILES``).
PACKAGED = Path(__file__).resolve().parents[1] / "_project"
CONFIG = "config/config.yaml"


def project_root() -> Path:
    """The folder holding the package's ``config/``: the checkout, else the installed
    copies."""
    return CHECKOUT if (CHECKOUT / CONFIG).is_file() else PACKAGED


def project_file(relative: str | Path) -> Path:
    """A file of the package's project (``config/...``), from :func:`project_root`."""
    return project_root() / relative
