"""Key source classes on the fixture workflow's automatic plans: every expansion key the
automatic analysis took from a thesaurus relation is found again by the classifier, from
the request alone, and its declared relation holds (an independent code path: expansion
walks the relations from the matched concept, the classifier from the seeds)."""
import pytest

from gradedrel import plans, thesaurus
from gradedrel.core import terrier
from gradedrel.core.io import read_tsv
from gradedrel.plans import analysis, key_sources, transform
from tests.key_source_cases import DERIVATIONS

pytestmark = pytest.mark.workflow


def test_automatic_expansion_keys_are_thesaurus_keys_that_hold(finished_project):
    results = finished_project / "results"
    terrier.start("5.11", "0.0.8")
    sources = key_sources.KeySources(
        thesaurus.load(results / "thesauri" / "tiny" / "tiny.thesaurus.json.gz"),
        terrier.term_pipeline(results / "tiny" / "index"), analysis.Rules())
    topics = read_tsv(results / "tiny" / "plans" / "auto" / "topics.tsv")
    auto = plans.read_plans(results / "tiny" / "plans" / "auto" / "plans.yaml")
    table = key_sources.classify(auto, dict(zip(topics["qid"], topics["query"])), sources)
    expansion = table[table["list"] == "expansion"]
    assert len(expansion) > 5
    assert set(expansion["source_class"]) <= {"request", "thesaurus"}
    assert "thesaurus" in set(expansion["source_class"])
    assert (expansion["declared_holds"] == "yes").all()
    assert set(table["curator"]) == {"auto"}
    # derived from them, the thesaurus plans are the same plans
    derived = transform.derive(auto, table, DERIVATIONS["thesaurus"], parent="auto")
    kept = {p.qid: p for p in derived.plans}
    for plan in auto:
        if plan.qid in kept:
            assert [k.key for c in kept[plan.qid].concepts() for k in c.keys + c.expansion] == \
                [k.key for c in plan.concepts() for k in c.keys + c.expansion]
