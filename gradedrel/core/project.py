"""The project's own files (default config, study designs, published numbers) wherever the
package runs: beside it in a checkout (``config/``), else the copies setup.py put into the
wheel (``gradedrel/_project/``), so ``compare``, ``thesaurus lookup`` and ``plans check``
work outside a checkout."""
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
