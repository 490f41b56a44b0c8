"""The commands' help as plain text within :data:`WIDTH` columns, whatever the terminal: the
docstrings the help is taken from lose their reStructuredText markup (``:func:`~.x.name```
-> ``name``, double backquotes dropped) and their paragraphs are wrapped anew."""
from __future__ import annotations

import argparse
import re
import shutil
import textwrap

#: The widest line a help text has.
WIDTH = 100
#: A Sphinx role, ``:mod:`gradedrel.x```, ``:func:`~.model.name```.
ROLE = re.compile(r":[a-z]+:`(~?)\.?([^`]+)`")


def plain(text: str) -> str:
    """``text`` without reStructuredText roles and literal markup."""
    text = ROLE.sub(lambda m: m.group(2).rsplit(".", 1)[-1] if m.group(1) else m.group(2),
                    text)
    return text.replace("``", "")


class PlainHelpFormatter(argparse.HelpFormatter):
    """argparse's formatter at most :data:`WIDTH` columns wide; descriptions and option
    help as plain text, a description's paragraphs kept apart."""

    def __init__(self, prog, indent_increment=2, max_help_position=24, width=None):
        width = min(width or shutil.get_terminal_size().columns - 2, WIDTH - 2)
        super().__init__(prog, indent_increment, max_help_position, width)

    def _fill_text(self, text, width, indent):
        paragraphs = re.split(r"\n\s*\n", plain(text).strip())
        return "\n\n".join(textwrap.fill(" ".join(p.split()), width, initial_indent=indent,
                                         subsequent_indent=indent) for p in paragraphs)

    def _split_lines(self, text, width):
        return super()._split_lines(plain(text), width)


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose help is :class:`PlainHelpFormatter`'s, as are its
    subcommands' (their parsers are of this class too)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", PlainHelpFormatter)
        super().__init__(*args, **kwargs)
