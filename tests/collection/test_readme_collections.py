"""docs/own-collection.md's "Your own collection" configs (the README's link) are valid: each YAML block passes the config
schema (merged over config/config.yaml) and reads as a collection spec."""
import re
from pathlib import Path

import yaml
from jsonschema import Draft202012Validator

from gradedrel import collection
from gradedrel.plans import plan_sets

ROOT = Path(__file__).resolve().parents[2]


def own_collection_blocks():
    text = (ROOT / "docs" / "own-collection.md").read_text(encoding="utf-8")
    section = text.split("## Your own collection", 1)[1].split("\n## ", 1)[0]
    return [yaml.safe_load(b) for b in re.findall(r"```yaml\n(.*?)```", section, flags=re.S)]


def test_readme_collection_configs_are_valid():
    blocks = own_collection_blocks()
    assert len(blocks) == 2
    schema = yaml.safe_load((ROOT / "config/schema/config.schema.yaml").read_text())
    base = yaml.safe_load((ROOT / "config/config.yaml").read_text())
    for block in blocks:
        merged = {**base, **block, "collections": {**base["collections"], **block["collections"]}}
        errors = list(Draft202012Validator(schema).iter_errors(merged))
        assert not errors, [e.message for e in errors]
        for name, raw in block["collections"].items():
            collection.CollectionSpec.from_config(name, raw)
            plan_sets.read(name, raw)


def test_readme_split_ids_example():
    [_, split] = own_collection_blocks()
    spec = collection.CollectionSpec.from_config("nfcorpus-dev",
                                                 split["collections"]["nfcorpus-dev"])
    assert spec.ir_datasets_id("docs") == "beir/nfcorpus"
    assert spec.ir_datasets_id("qrels") == spec.ir_datasets_id("topics") == "nfcorpus/dev/video"


def test_nfcorpus_expert_plan_sets_are_the_frozen_curations():
    """The expert plan sets read the six frozen curated files (three curators × MeSH and
    WordNet) on the 30 drawn requests of config/nfcorpus/requests.txt, each request
    curated once per thesaurus."""
    from gradedrel.plans import read_plans

    raw = yaml.safe_load((ROOT / "config/config.yaml").read_text(encoding="utf-8"))
    sets = plan_sets.read("nfcorpus", raw["collections"]["nfcorpus"])
    assert sets["expert-wordnet"].thesaurus == "wordnet" and sets["expert-mesh"].thesaurus is None
    drawn = (ROOT / "config/nfcorpus/requests.txt").read_text().split()
    for name, thesaurus in (("expert-mesh", "mesh"), ("expert-wordnet", "wordnet")):
        assert [Path(p).name for p in sets[name].curated] == [
            f"plans_{c}_{thesaurus}.yaml" for c in "HIJ"]
        qids = [plan.qid for path in sets[name].curated for plan in read_plans(ROOT / path)]
        assert sorted(qids) == sorted(drawn) and len(qids) == len(set(qids)) == 30
