"""Running one workflow step: log to a file, turn bad input into one clear line.

The package knows nothing of Snakemake; scripts pass their log path in.
"""
from __future__ import annotations

import contextlib
import logging
import sys
from typing import Callable

from gradedrel.core.errors import InputError


def run_step(log_path: str | None, main: Callable[[], None]) -> None:
    """Run ``main`` with logging to ``log_path``; exit 1 with one line on bad input."""
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    if log_path:
        handlers.append(logging.FileHandler(log_path, mode="w", encoding="utf-8"))
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s",
                        handlers=handlers, force=True)
    try:
        main()
    except (InputError, ValueError) as error:
        logging.getLogger("gradedrel").error("%s", error)
        with contextlib.suppress(Exception):
            sys.stderr.flush()
        sys.exit(1)
