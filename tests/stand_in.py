"""Stand-in query files for the tests and benchmarks of the retrieval back ends (the
benchmarks import it from here: ``from tests.stand_in import …``). NOT a query type of the experiment: the same *shape* as
the real query files, the six structures built mechanically from each topic's words:

- ``SUM/u``   ``#sum`` of the topic's keys; ``SUM/e`` adds each adjacent pair as a phrase key;
- ``SSYN-C/u`` ``#sum`` of ``#syn`` groups of two consecutive keys; ``/e`` adds the pair's phrase;
- ``WSYN/u``  ``#wsum``, first half of the groups weight 10, the rest 7; ``/e`` as above.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from gradedrel.queries.query_files import QUERY_TYPES, slug
from gradedrel.queries.query_tree import Key, Node, Sum, Syn, WSum, to_dict
from gradedrel.core.text import tokenise


def matchop(node: Node) -> str:
    """The tree in Terrier's MatchOp language (phrases as ``#1``, weights as ``#combine:i=w``)."""
    if isinstance(node, Key):
        return node.tokens[0] if len(node.tokens) == 1 else f"#1({' '.join(node.tokens)})"
    if isinstance(node, Syn):
        return f"#syn({' '.join(matchop(k) for k in node.keys)})"
    if isinstance(node, Sum):
        return f"#combine({' '.join(matchop(c) for c in node.children)})"
    weights = ":".join(f"{i}={w:g}" for i, w in enumerate(node.weights))
    return f"#combine:{weights}({' '.join(matchop(c) for c in node.children)})"


def topic_keys(text: str, is_stopword: Callable[[str], bool]) -> list[str]:
    """The request's distinct tokens that are not stopwords, in order."""
    return list(dict.fromkeys(t for t in tokenise(text) if not is_stopword(t)))


def trees(keys: list[str]) -> dict[str, Node]:
    """The six stand-in structures of one topic's keys (see the module docstring)."""
    singles = [Key((k,)) for k in keys]
    groups = [keys[i:i + 2] for i in range(0, len(keys), 2)]

    def syn(group, expanded):
        members = [Key((k,)) for k in group]
        if expanded and len(group) == 2:
            members.append(Key(tuple(group)))
        return Syn(tuple(members))

    phrases = [Key((a, b)) for a, b in zip(keys, keys[1:])]
    weights = tuple(10.0 if i < (len(groups) + 1) // 2 else 7.0 for i in range(len(groups)))
    return {
        "SUM/u": Sum(tuple(singles)),
        "SUM/e": Sum(tuple(singles + phrases)),
        "SSYN-C/u": Sum(tuple(syn(g, False) for g in groups)),
        "SSYN-C/e": Sum(tuple(syn(g, True) for g in groups)),
        "WSYN/u": WSum(weights, tuple(syn(g, False) for g in groups)),
        "WSYN/e": WSum(weights, tuple(syn(g, True) for g in groups)),
    }


def write_query_files(topics, out_dir: str | Path, is_stopword: Callable[[str], bool]) -> list[Path]:
    """Write the six ``{slug}.jsonl`` for ``topics`` (``qid, query``); topics with no keys are left out."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    lines = {label: [] for label in QUERY_TYPES}
    for qid, text in zip(topics["qid"], topics["query"]):
        keys = topic_keys(text, is_stopword)
        if not keys:
            continue
        for label, tree in trees(keys).items():
            lines[label].append(json.dumps({"qid": str(qid), "query_type": label,
                                            "tree": to_dict(tree), "matchop": matchop(tree)}))
    paths = []
    for label in QUERY_TYPES:
        path = out_dir / f"{slug(label)}.jsonl"
        path.write_text("".join(line + "\n" for line in lines[label]), encoding="utf-8")
        paths.append(path)
    return paths

