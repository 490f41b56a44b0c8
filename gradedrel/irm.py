"""``python -m gradedrel.irm QRELS RUN MEASURE…``: the ``ir_measures`` command, knowing this
package's measures (``AvP(level=3)``, ``JK_DCG(b=2,profile='3')@10``, …) beside its own.

ir_measures (0.4) reads no entry points or plugins, so its own command cannot learn
another package's measures: this is that command (:func:`ir_measures.__main__.main_cli`,
same arguments and output) after :mod:`gradedrel.evaluation.measures.irm` registers them.
Qrels relevance must be the levels 0–3; a topic where a measure is undefined is NaN with
``-q`` and left out of the mean, with a warning; bad qrels or a measure defined for no
topic is one line on stderr and exit status 2.
"""
from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Run ir_measures' command on ``argv`` (default: the command line) with this package's
    measures registered; 0, or 2 after one line naming what is wrong with the input."""
    from ir_measures.__main__ import main_cli

    from gradedrel.core.errors import InputError
    from gradedrel.evaluation.measures import irm

    saved = sys.argv
    if argv is not None:
        sys.argv = ["python -m gradedrel.irm", *argv]
    try:
        main_cli()
    except (irm.UndefinedTopics, InputError) as error:
        print(f"gradedrel.irm: {error}", file=sys.stderr)
        return 2
    finally:
        sys.argv = saved
    return 0


if __name__ == "__main__":
    sys.exit(main())
