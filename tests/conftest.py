"""Shared fixtures: a hand-written thesaurus and pipeline; Cranfield with Terrier."""
from __future__ import annotations

import os

import pytest

os.environ.setdefault("IR_DATASETS_HOME", "/tmp/idh")  # before any ir_datasets import

from gradedrel.thesaurus import Concept, Thesaurus  # noqa: E402

STOPWORDS = {"a", "an", "and", "are", "any", "at", "be", "for", "in", "is", "of", "on", "the",
             "there", "to", "what", "with", "how", "can", "over"}
# A Porter-like toy stemmer: plural s off, plus the conflations that cause
# false matches with the real Porter stemmer.
CONFLATE = {"solutions": "solut", "solution": "solut", "solutes": "solut", "solute": "solut",
            "associated": "associ", "associations": "associ", "developed": "develop",
            "development": "develop", "gases": "gas", "bodies": "bodi", "body": "bodi"}


def toy_pipeline(token: str) -> str | None:
    if token in STOPWORDS:
        return None
    if token in CONFLATE:
        return CONFLATE[token]
    return token[:-1] if token.endswith("s") and not token.endswith("ss") else token


def small_thesaurus() -> Thesaurus:
    def c(uri, pref, alt=(), bt=(), nt=(), rt=()):
        return Concept(uri, pref, tuple(alt), tuple(bt), tuple(nt), tuple(rt))
    return Thesaurus.from_concepts([
        c("#bl", "boundary layers", alt=["boundary layer flow"], nt=["#tbl", "#lbl"], rt=["#sep"]),
        c("#tbl", "turbulent boundary layer", bt=["#bl"]),
        c("#lbl", "laminar boundary layer", bt=["#bl"]),
        c("#sep", "flow separation", nt=["#tbl"], rt=["#bl"]),
        c("#flow", "~ flow", nt=["#sep"], rt=["#gas"]),
        c("#gas", "gases", alt=["gaseous state"], rt=["#flow"]),
        c("#solute", "solutes"),
        c("#assoc", "associations (organizations)"),
        c("#dev", "development"),
        c("#ht", "heat transfer", alt=["heat flow"], nt=["#conv"]),
        c("#conv", "convective heat transfer", bt=["#ht"]),
        c("#aoa", "angle of attack", alt=["incidence angle"]),
        c("#wing", "wings", rt=["#ht"]),
        c("#rare", "Zyxwv apparatus"),
    ])


@pytest.fixture
def thesaurus() -> Thesaurus:
    return small_thesaurus()


@pytest.fixture(scope="session")
def terrier_started():
    from gradedrel import terrier
    return terrier.start("5.11", "0.0.8")


@pytest.fixture(scope="session")
def cranfield_index(tmp_path_factory, terrier_started):
    """A Terrier index of Cranfield built as the workflow builds it (blocks, porter, terrier stopwords)."""
    from gradedrel import collection, terrier

    spec = collection.CollectionSpec.from_config(
        "cranfield", {"ir_datasets": "cranfield", "grade_map": {"1": 3, "2": 3, "3": 2, "4": 1, "-1": 0}})
    directory = tmp_path_factory.mktemp("cranfield") / "index"
    terrier.build_index(collection.checked_documents(spec, collection.DocumentCensus()), directory,
                        stemmer="porter", stopwords="terrier", blocks=True,
                        max_docno_length=collection.DOCNO_MAX_LENGTH)
    return directory
