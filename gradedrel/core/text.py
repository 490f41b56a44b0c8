"""Text as Terrier's UTF tokeniser sees it, on every side: documents, requests, labels.

The index is built with Terrier's ``UTFTokeniser`` (terrier-core,
``org.terrier.indexing.tokenisation.UTFTokeniser``; config ``index.tokeniser: utf``), and
request text and thesaurus labels are tokenised here by the same rules, so that a key
matches the terms the indexer saw, whatever the script:

- a token is a run of letters (Unicode categories Lu, Ll, Lt, Lm, Lo), decimal digits (Nd)
  and combining marks (Mn, Mc) of the Basic Multilingual Plane (Java reads UTF-16 code
  units; a character beyond U+FFFF, such as a mathematical letter, separates tokens);
- a token longer than ``max.term.length`` (20), with more than 4 digits, or with more
  than 3 identical consecutive characters (before lower-casing) is discarded;
- tokens are lower-cased (with the final-sigma rule, as Java's ``toLowerCase``).

Terrier's default ``EnglishTokeniser`` keeps only ASCII letters and digits, so that
"Über Strömung … résumé" became "ber str mung … sum". On ASCII text the two agree.
Everything else (spaces, punctuation, symbols such as ``½ ² ™``) separates tokens; what a
text loses beyond spaces and punctuation is reported by :func:`dropped`. A test checks
:func:`tokenise` against Terrier's own tokeniser. Query text tokenised here contains
nothing that Terrier's query parsers treat as syntax.
"""
from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from collections import Counter

#: The Terrier tokeniser the index is built with (Terrier's name for it in data.properties).
TERRIER_TOKENISER = "UTFTokeniser"
_REPEAT = re.compile(r"(.)\1{3,}", flags=re.S)  # more than 3 identical characters in a row


def _is_token_char(ch: str) -> bool:
    # Unicode general categories of token characters (Java: isLetterOrDigit, or a mark)
    return ord(ch) <= 0xFFFF and unicodedata.category(ch) in {"Lu", "Ll", "Lt", "Lm", "Lo",
                                                              "Nd", "Mn", "Mc"}


def _class_of(chars) -> str:
    """A regular-expression character class of ``chars`` (code points, ascending)."""
    spans = [[c for _, c in run] for _, run in  # consecutive code points: a constant c - i
             itertools.groupby(enumerate(chars), lambda ic: ic[1] - ic[0])]
    return "[" + "".join(re.escape(chr(s[0])) if len(s) == 1 else
                         f"{re.escape(chr(s[0]))}-{re.escape(chr(s[-1]))}" for s in spans) + "]"


#: A run of token characters (:func:`_is_token_char`, decided once per code point of the BMP:
#: the same rule, read as a table, 20 times faster than asking per character).
_RUN = re.compile(_class_of(c for c in range(0x10000) if _is_token_char(chr(c))) + "+")
_DIGIT = re.compile(_class_of(c for c in range(0x10000) if unicodedata.category(chr(c)) == "Nd"))


@functools.lru_cache(maxsize=1 << 16)
def _rejection(run: str) -> str | None:
    """Why Terrier discards a run (None: it is kept)."""
    if len(run) > 20:  # Terrier's max.term.length
        return "longer than 20 characters"
    if len(_DIGIT.findall(run)) > 4:
        return "more than 4 digits"
    if _REPEAT.search(run):
        return "more than 3 identical characters in a row"
    return None


def tokenise(text: str) -> list[str]:
    """Lower-cased tokens of ``text`` as Terrier's UTF tokeniser produces them."""
    return [run.lower() for run in _RUN.findall(text) if _rejection(run) is None]


def dropped(text: str) -> Counter:
    """What tokenising ``text`` loses beyond spaces, punctuation and control characters,
    counted by ``"reason: text"``: each discarded run and each other character (symbols
    such as ``½ ² ™ °``, letters beyond U+FFFF)."""
    lost = Counter(f"{reason}: {run}" for run in _RUN.findall(text)
                   if (reason := _rejection(run)))
    lost.update(f"not a letter or digit: {ch}" for ch in text
                if not _is_token_char(ch) and unicodedata.category(ch)[0] not in "PZC")
    return lost


def query_text(text: str) -> str:
    """``text`` made safe for Terrier's query parser: its tokens joined by spaces."""
    return " ".join(tokenise(text))


#: Harman's S-stemmer (Harman 1991, "How effective is suffixing?", JASIS 42(1), p. 8):
#: (ending, exceptions, replacement), tried in order; the first rule that applies is used.
S_STEMMER_RULES = (
    ("ies", ("eies", "aies"), "y"),
    ("es", ("aes", "ees", "oes"), "e"),
    ("s", ("us", "ss"), ""),
)


def s_stem(token: str) -> str:
    """Harman's S-stemmer, exactly (:data:`S_STEMMER_RULES`): a rule whose exception holds
    does not apply, so the next is tried (*toes* → *toe*), as in Terrier's ``SStemmer``.
    Only plural endings are touched (Porter's solutions/solutes stay apart), and no other
    exception: *diseases* → *disease*, *gases* → *gase*, *gas* → *ga*, *analysis* → *analysi*.
    """
    for ending, exceptions, replacement in S_STEMMER_RULES:
        if token.endswith(ending) and not token.endswith(exceptions):
            return token[:-len(ending)] + replacement
    return token
