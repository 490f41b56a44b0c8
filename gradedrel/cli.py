"""The ``gradedrel`` command: one subcommand per task, each registered by its module."""
from __future__ import annotations

import argparse
import sys

from .errors import InputError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gradedrel", description=__doc__)
    subparsers = parser.add_subparsers(dest="command", required=True)
    from .thesaurus import lookup
    lookup.add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (InputError, ValueError, OSError) as error:
        print(f"gradedrel: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
