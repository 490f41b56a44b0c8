"""Which main job wrote a report file (issue 43, item 6): the files whose content depends on
the set of active collections are named by that set, so that running the Cranfield main job
after the NFCorpus one (or the other way round) rewrites none of the other's files and plans
no job."""
from __future__ import annotations

from typing import Any, Iterable, Mapping


def collections_name(collections: Iterable[str]) -> str:
    """The name of a set of active collections: ``cranfield+nfcorpus+nfcorpus-fresh``."""
    return "+".join(sorted(collections))


def active_memory_probe(config: Mapping[str, Any],
                        collections: Iterable[str]) -> Mapping[str, Any] | None:
    """The memory probe's settings when every collection it scores is active, else None."""
    probe = config.get("memory_probe")
    active = set(collections)
    if not probe or not all(c in active for c in probe["collections"].values()):
        return None
    return probe


def qualified(stem: str, config: Mapping[str, Any], collections: Iterable[str]) -> str:
    """A collection's summary or forest plot file stem: where the memory probe qualifies the
    verdicts (their rows read the headline, which depends on the set of active collections),
    ``summary.<set>``; else the plain ``stem``."""
    collections = list(collections)
    return f"{stem}.{collections_name(collections)}" \
        if active_memory_probe(config, collections) else stem
