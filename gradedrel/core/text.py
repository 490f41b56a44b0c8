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


def s_stem(token: str) -> str:
    """The singular of an English plural, else the token: a plural stripper after
    Harman's S-stemmer (Harman 1991, "How effective is suffixing?", JASIS 42(1)).

    -ies → -y (not -eies, -aies); -es → '' after s, x, z, ch, sh (gases → gas);
    -s → '' (not -us, -ss, -is). Only the plural is removed, so words that
    Porter conflates (solutions/solutes, developed/development) stay apart.
    """
    if token.endswith("ies") and not token.endswith(("eies", "aies")) and len(token) > 4:
        return token[:-3] + "y"
    if token.endswith("es") and token[:-2].endswith(("s", "x", "z", "ch", "sh")) \
            and not token.endswith("sses"):
        return token[:-2]
    if token.endswith("sses"):
        return token[:-2]
    if token.endswith("s") and not token.endswith(("us", "ss", "is")) and len(token) > 3:
        return token[:-1]
    return token
