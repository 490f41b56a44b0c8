"""Query trees in Terrier's MatchOp query language.

Terrier 5's MatchOpQL: ``#combine`` with optional weights ``#combine:0=w0:1=w1(…)``,
``#syn(…)`` (members count as one term), ``#1(…)`` (ordered, adjacent) and ``#uwN(…)``
(unordered window of N). InQuery's ``#sum`` → ``#combine``, ``#wsum`` → weighted
``#combine``, ``#syn`` → ``#syn``, a phrase → ``#1`` or ``#uwN`` (config
``query_types.phrase_operator``, :func:`phrase`).

Safety (Terrier's parser breaks on ``- ' : , . / + = ?`` and on any non-ASCII letter):
key tokens are the indexer's tokens (:func:`gradedrel.core.text.tokenise`); a non-ASCII
token (``über``, ``β``) is written as ``#base64(…)`` of its UTF-8 bytes (:func:`term`),
which the parser reads as that one term. Stopwords are dropped (inside ``#1`` they would
make the phrase match nothing), keys with identical indexed terms are written once per
group (``flow``/``flows`` would count every occurrence twice), and a group of one member
is written as that member.
"""
from __future__ import annotations

from gradedrel.collection.matches import Pipeline, phrase, term  # noqa: F401  (MatchOp's words)
from gradedrel.queries.query_tree import Key, Node, Operator, Syn


class MatchOpWriter:
    """Writes query trees in Terrier's MatchOp language (#combine, #syn, #1 or #uwN phrases)."""

    def __init__(self, pipeline: Pipeline, phrase_operator: str = "auto"):
        """``phrase_operator``: config ``query_types.phrase_operator`` (the schema checks it)."""
        self.pipeline = pipeline
        self.phrase = phrase_operator

    def key(self, key: Key) -> tuple[str, tuple[str, ...]] | None:
        """A key as MatchOp text (a phrase for several tokens) with its indexed terms; None
        if only stopwords."""
        kept = [(t, s) for t in key.tokens if (s := self.pipeline(t))]
        if not kept:
            return None
        tokens, terms = zip(*kept)
        return phrase(tokens, self.phrase), terms

    def group_members(self, keys) -> list[str]:
        """MatchOp strings of distinct keys (by indexed terms), in order."""
        out, seen = [], set()
        for key in keys:
            written = self.key(key)
            if written is None or written[1] in seen:
                continue
            seen.add(written[1])
            out.append(written[0])
        return out

    def node(self, node: Node) -> str | None:
        """A query tree node as MatchOp text; None if nothing of it is left."""
        if isinstance(node, Key):
            written = self.key(node)
            return None if written is None else written[0]
        if isinstance(node, Syn):
            members = self.group_members(node.keys)
            if not members:
                return None
            return members[0] if len(members) == 1 else f"#syn({' '.join(members)})"
        if isinstance(node, Operator):
            return node.matchop(self)
        raise TypeError(f"not a query tree node: {node!r}")

    def query(self, node: Node) -> str | None:
        """The MatchOp string for a tree; always a ``#combine`` at the top (None if empty);
        :class:`~gradedrel.queries.query_tree.NotExpressible` for an operator MatchOp lacks."""
        text = self.node(node)
        return text if text is None or text.startswith("#combine") else f"#combine({text})"
