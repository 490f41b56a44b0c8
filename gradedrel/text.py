"""Text as Terrier's English tokeniser sees it.

Terrier's ``EnglishTokeniser`` (terrier-core,
``org.terrier.indexing.tokenisation.EnglishTokeniser``) keeps runs of ASCII
letters and digits, lower-cases them, and discards a token that is longer than
``max.term.length`` (20), has more than 4 digits, or has more than 3 identical
consecutive characters. Query text tokenised here therefore contains nothing
that Terrier's query parser treats as syntax (``- ' : , . / + = ?`` and
non-ASCII letters), and matches the terms the indexer saw. A test checks this
function against Terrier's own tokeniser.
"""
from __future__ import annotations

import re

MAX_TERM_LENGTH = 20
MAX_DIGITS = 4
MAX_SAME_CONSECUTIVE = 3

_TOKEN = re.compile(r"[A-Za-z0-9]+")
_REPEAT = re.compile(r"(.)\1{%d,}" % MAX_SAME_CONSECUTIVE)


def _acceptable(token: str) -> bool:
    if len(token) > MAX_TERM_LENGTH:
        return False
    if sum(ch.isdigit() for ch in token) > MAX_DIGITS:
        return False
    return _REPEAT.search(token) is None


def tokenise(text: str) -> list[str]:
    """Lower-cased tokens of ``text`` as Terrier's English tokeniser produces them."""
    return [t for t in (m.lower() for m in _TOKEN.findall(text)) if _acceptable(t)]


def query_text(text: str) -> str:
    """``text`` made safe for Terrier's query parser: its tokens joined by spaces."""
    return " ".join(tokenise(text))
