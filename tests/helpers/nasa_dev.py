"""A private, temporary SKOS reader for tests and local runs (NOT part of the package).

The package's reader is ``gradedrel.thesaurus.load`` (built in another branch). Until it
lands, tests that need the real NASA Thesaurus use this small lxml ``iterparse`` over
``skos:Concept`` elements, merging repeated concepts, with a pickle cache in /tmp.
"""
from __future__ import annotations

import bz2
import gzip
import pickle
from collections import defaultdict
from pathlib import Path

from gradedrel.thesaurus import Concept, Thesaurus

SKOS = "http://www.w3.org/2004/02/skos/core#"
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
NASA = Path(__file__).resolve().parents[2] / ".data/thesauri/nasa/NASA_Thesaurus_Alpha_SKOS.xml.bz2"
SHARED = Path("/work/shared/data/thesauri/nasa/NASA_Thesaurus_Alpha_SKOS.xml.bz2")


def nasa_path() -> Path | None:
    for path in (NASA, SHARED):
        if path.exists():
            return path
    return None


def _open(path: Path):
    if path.suffix == ".bz2":
        return bz2.open(path, "rb")
    if path.suffix == ".gz":
        return gzip.open(path, "rb")
    return open(path, "rb")


def load(path: str | Path) -> Thesaurus:
    from lxml import etree

    path = Path(path)
    cache = Path("/tmp") / f"gradedrel-dev-{path.name}-{path.stat().st_size}.pickle"
    if cache.exists():
        return pickle.loads(cache.read_bytes())
    data: dict[str, dict] = defaultdict(lambda: {"pref": None, "alt": [], "broader": [],
                                                 "narrower": [], "related": [], "def": None})
    base = path.name  # NASA uses relative URIs (#123): resolve them against a fixed base
    with _open(path) as handle:
        for _, elem in etree.iterparse(handle, events=("end",), tag=f"{{{SKOS}}}Concept"):
            uri = elem.get(f"{{{RDF}}}about")
            if uri is None:
                continue
            entry = data[uri]
            for child in elem:
                tag = child.tag.split("}")[-1]
                if tag == "prefLabel":
                    entry["pref"] = (child.text or "").strip()
                elif tag == "altLabel" and child.text:
                    if child.text.strip() not in entry["alt"]:
                        entry["alt"].append(child.text.strip())
                elif tag in ("broader", "narrower", "related"):
                    target = child.get(f"{{{RDF}}}resource")
                    if target and target not in entry[tag]:
                        entry[tag].append(target)
                elif tag == "definition" and child.text:
                    entry["def"] = child.text.strip()
            elem.clear()
    thesaurus = Thesaurus.from_concepts(
        Concept(uri, d["pref"] or uri, tuple(d["alt"]), tuple(d["broader"]),
                tuple(d["narrower"]), tuple(d["related"]), d["def"])
        for uri, d in data.items() if d["pref"] is not None)
    cache.write_bytes(pickle.dumps(thesaurus))
    return thesaurus
