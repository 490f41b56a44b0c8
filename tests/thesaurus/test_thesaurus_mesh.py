"""MeSH 2024 from jaytimm/mesh-resources' RDS data frames: the reader on tiny RDS fixtures
(written by rdata's own writer) and on the real files; the cache; checksum and
malformed-input errors.

The real files are ``.data/thesauri/mesh/data_mesh_{thesaurus,trees}.rds`` (see the data
README). If they are absent the real-file tests FAIL, unless ``GRADEDREL_NO_REAL_DATA=1``
says the data is unavailable (then they are skipped, visibly). Parsing them takes about a
minute of CPU (rdata's parser); the module reads them once.
"""
from __future__ import annotations

import gzip
import hashlib
import os
import time
import warnings
from pathlib import Path

import pandas as pd
import pytest
import rdata

from gradedrel.core.downloads import ChecksumError
from gradedrel.core.errors import InputError
from gradedrel.thesaurus import cache, mesh, sources
from gradedrel.thesaurus.lookup import find

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "thesauri" / "mesh"
DESCRIPTORS = FIXTURE / "descriptors.rds"
TREES = FIXTURE / "trees.rds"
REPO = Path(__file__).resolve().parents[2]
PINNED = sources.project_thesauri()["mesh"]  # config/config.yaml, the one place
REAL = {role: REPO / f["path"] for role, f in PINNED["files"].items()}


def test_fixture_columns_equal_rdata_read_rds():
    """Our decoding of the parsed columns gives what rdata's own conversion gives."""
    for path, columns in ((DESCRIPTORS, mesh.DESCRIPTOR_COLUMNS + ("LexicalTag",)),
                          (TREES, mesh.TREE_COLUMNS)):
        ours = mesh.frame_columns(path, columns)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            frame = rdata.read_rds(path)
        for column in columns:
            expected = [None if pd.isna(v) else v for v in frame[column]]
            assert ours[column] == expected
    assert mesh.frame_columns(DESCRIPTORS, ("TermName",))["TermName"][-3] == "Síndrome COVID-19"
    assert None in mesh.frame_columns(DESCRIPTORS, ("LexicalTag",))["LexicalTag"]


def test_fixture_descriptors_labels_and_tree_relations():
    th = mesh.read_mesh(DESCRIPTORS, TREES)
    assert len(th) == 9
    b12 = th["mesh:D014805"]
    assert b12.pref_label == "Vitamin B 12"
    # TermNames of all its concepts but the name, the permuted 'B 12, Vitamin' among them
    # (Amendment 2, B2: every entry term is a label), marked as permuted
    assert b12.alt_labels == ("B 12, Vitamin", "Vitamin B12", "Cyanocobalamin", "Cobalamins",
                              "Cobalamin", "Eritron")
    assert b12.permuted == ("B 12, Vitamin",)
    # two tree numbers -> two parents; the child from D03.633.100.221.173.200
    assert b12.broader == ("mesh:D003342", "mesh:D014803")
    assert b12.narrower == ("mesh:D003038",)
    assert th["mesh:D003342"].narrower == ("mesh:D014805",)
    # RT is empty for this source: the export has no See Also
    assert not any(c.related for c in th.concepts.values())
    assert not any(c.definitions for c in th.concepts.values())
    # a one-segment number absent from the export (C14) is restored from tree1/mesh1
    assert th["mesh:D006331"].broader == ("mesh:D002318",)
    assert th["mesh:D002318"].narrower == ("mesh:D006331",)
    # the same parent through two numbers is one link; a parent number held by no
    # descriptor (C01.925.256.466.930) gives none; C08 names no descriptor here
    assert th["mesh:D000086382"].broader == ("mesh:D012141",)
    assert th["mesh:D012141"].broader == ("mesh:D007239",)
    assert th["mesh:D000086382"].alt_labels == ("Síndrome COVID-19",)
    for c in th.concepts.values():
        for target in c.broader:
            assert c.uri in th[target].narrower


def test_lookup_vitamin_b_12_on_fixture():
    th = mesh.read_mesh(DESCRIPTORS, TREES)
    matches = find(th, "vitamin b 12")
    assert [(m.uri, m.level) for m in matches][:2] == [("mesh:D014805", "label"),
                                                       ("mesh:D003038", "prefix")]
    assert [m.uri for m in find(th, "cobalamin", ("label",))] == ["mesh:D014805"]


# --- cache, config and checksum -------------------------------------------------------

def _config(descriptors=DESCRIPTORS, trees=TREES, sha=None) -> dict:
    def file(path, role):
        digest = (sha or {}).get(role) or hashlib.sha256(Path(path).read_bytes()).hexdigest()
        return {"url": Path(path).as_uri(), "sha256": digest, "path": str(path)}
    return {"thesauri": {"m": {"source": "mesh", "files": {
        "descriptors": file(descriptors, "descriptors"), "trees": file(trees, "trees")}}}}


def test_cache_is_written_and_reused(tmp_path, monkeypatch):
    config = _config()
    first = sources.load("m", config, cache_dir=tmp_path)
    (cached,) = tmp_path.glob("*" + cache.SUFFIX)
    header, again = cache.read_header_and_concepts(cached)
    assert again.concepts == first.concepts
    provenance = header["provenance"]
    assert provenance["source"] == "mesh"
    assert provenance["mapping"]["RT"].startswith("none: this export")
    assert provenance["files"]["trees"]["sha256"] == config["thesauri"]["m"]["files"][
        "trees"]["sha256"]

    def no_parse(*args, **kwargs):
        raise AssertionError("parsed although the cache is fresh")
    monkeypatch.setattr(mesh, "read_mesh", no_parse)
    assert sources.load("m", config, cache_dir=tmp_path).concepts == first.concepts


def test_checksum_mismatch_names_the_file(tmp_path):
    config = _config(sha={"trees": "f" * 64})
    with pytest.raises(ChecksumError) as error:
        sources.load("m", config, cache_dir=tmp_path)
    assert str(TREES) in str(error.value) and "expected " + "f" * 64 in str(error.value)


def test_downloaded_when_absent(tmp_path):
    config = _config()
    files = config["thesauri"]["m"]["files"]
    for role in files:
        files[role]["path"] = str(tmp_path / "copy" / f"{role}.rds")
    assert len(sources.load("m", config, cache_dir=tmp_path / "cache")) == 9
    assert (tmp_path / "copy" / "trees.rds").read_bytes() == TREES.read_bytes()


def test_config_needs_both_files():
    config = _config()
    del config["thesauri"]["m"]["files"]["trees"]
    with pytest.raises(ValueError, match=r"needs files \['descriptors', 'trees'\]"):
        sources.ensure_files("m", config)


# --- malformed input ----------------------------------------------------------------

def test_not_an_rds_file(tmp_path):
    bad = tmp_path / "bad.rds"
    bad.write_bytes(gzip.compress(b"this is not R data"))
    with pytest.raises(InputError) as error:
        mesh.read_mesh(bad, TREES)
    assert str(bad) in str(error.value) and "expected an RDS file" in str(error.value)


def test_not_a_data_frame(tmp_path):
    bad = tmp_path / "vector.rds"
    rdata.write_rds(bad, ["D000001", "D000002"])
    with pytest.raises(InputError) as error:
        mesh.read_mesh(bad, TREES)
    assert str(bad) in str(error.value) and "an R data frame" in str(error.value)


def test_missing_column_is_named(tmp_path):
    bad = tmp_path / "trees.rds"
    rdata.write_rds(bad, pd.DataFrame({"DescriptorUI": ["D1"], "TreeNumber": ["C01"]})
                    .astype("string"))
    with pytest.raises(InputError) as error:
        mesh.read_mesh(DESCRIPTORS, bad)
    message = str(error.value)
    assert str(bad) in message and "missing ['tree_location', 'tree1', 'mesh1']" in message


def test_tree_number_of_two_descriptors(tmp_path):
    bad = tmp_path / "trees.rds"
    rdata.write_rds(bad, pd.DataFrame({
        "DescriptorUI": ["D014805", "D003038"], "tree_location": ["D03.1", "D03.1"],
        "tree1": ["D03", "D03"], "mesh1": ["X", "X"]}).astype("string"))
    with pytest.raises(InputError, match=r"one descriptor per tree number \(D03.1\)"):
        mesh.read_mesh(DESCRIPTORS, bad)


def test_a_string_not_in_its_marked_encoding_names_the_file(tmp_path):
    """rdata keeps the bytes of a string it cannot decode (with a warning): the reader
    stops with one error naming the file instead of a label of bytes."""
    bad = tmp_path / "trees.rds"
    rdata.write_rds(bad, pd.DataFrame({
        "DescriptorUI": ["D014805"], "tree_location": ["D03.1"], "tree1": ["D03"],
        "mesh1": ["Caf\u00e9"]}).astype("string"), compression=None)
    raw = bad.read_bytes()
    assert raw.count("é".encode()) == 1
    bad.write_bytes(raw.replace("é".encode(), b"\xc3\x28"))  # not UTF-8, marked UTF-8
    with pytest.raises(InputError) as error:
        mesh.read_mesh(DESCRIPTORS, bad)
    message = str(error.value)
    assert str(bad) in message and "encoded as R marks them" in message


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        mesh.read_mesh(tmp_path / "absent.rds", TREES)


# --- the real files -------------------------------------------------------------------

@pytest.fixture(scope="module")
def real():
    missing = [str(p) for p in REAL.values() if not p.exists()]
    if missing:
        if os.environ.get("GRADEDREL_NO_REAL_DATA") == "1":
            pytest.skip(f"GRADEDREL_NO_REAL_DATA=1: {missing} not available")
        pytest.fail(f"{missing} missing: copy them from the shared data (see the data README, "
                    "thesauri/mesh/) or set GRADEDREL_NO_REAL_DATA=1 to declare the data "
                    "unavailable")
    paths = sources.ensure_files("mesh", {"thesauri": sources.project_thesauri()},
                                 root=REPO)  # sha256 verified
    start = time.process_time()
    thesaurus = mesh.read_mesh(paths["descriptors"], paths["trees"])
    return thesaurus, time.process_time() - start


def test_real_counts_match_the_data_readme(real):
    th, _ = real
    values = list(th.concepts.values())
    assert len(th) == 30_764                                     # README: 30,764 descriptors
    # README: about 102k entry terms, besides NLM's permuted forms (IsPermutedTermYN = Y)
    assert sum(len(c.alt_labels) - len(c.permuted) for c in values) == 102_038
    assert sum(len(c.permuted) for c in values) == 131_129
    # README: about 40k broader/narrower pairs from the tree numbers (39,982 measured),
    # plus 2,039 through the 115 restored one-segment numbers (2,057 two-segment
    # numbers; 18 repeat a pair)
    assert sum(len(c.broader) for c in values) == 42_021
    assert sum(len(c.narrower) for c in values) == 42_021
    assert sum(1 for c in values if len(c.broader) > 1) == 9_224
    assert max(len(c.broader) for c in values) == 6
    assert not any(c.related for c in values)                    # no See Also
    # the headings without other numbers (112 of the 115 restored) have no BT
    assert sum(1 for c in values if not c.broader) == 112


def test_real_vitamin_b_12(real):
    th, _ = real
    b12 = th["mesh:D014805"]
    assert b12.pref_label == "Vitamin B 12"
    assert set(b12.alt_labels) == {"Vitamin B12", "Cyanocobalamin", "Cobalamins",
                                   "Cobalamin", "Eritron", "B 12, Vitamin", "B12, Vitamin"}
    assert set(b12.permuted) == {"B 12, Vitamin", "B12, Vitamin"}
    assert [th.label(u) for u in b12.broader] == ["Corrinoids"]
    assert {th.label(u) for u in b12.narrower} == {"Cobamides", "Hydroxocobalamin"}
    assert find(th, "vitamin b 12", ("label",))[0].uri == "mesh:D014805"
    assert [th.label(u) for u in th["mesh:D006331"].broader] == ["Cardiovascular Diseases"]


@pytest.mark.parametrize("term, descriptor", [
    ("aphthous ulcer", "mesh:D013281"), ("preschool children", "mesh:D002675"),
    ("atopic dermatitis", "mesh:D003876"), ("heart disease", "mesh:D006331")])
def test_real_entry_terms_in_natural_order_lead_to_their_descriptor(real, term, descriptor):
    """Issue 30: NLM's permuted entry terms are the natural-order and singular forms; the
    lookup leads with their descriptor, matched on the label itself."""
    th, _ = real
    first = find(th, term)[0]
    assert (first.uri, first.level) == (descriptor, "label")
    assert first.label in th[descriptor].permuted


# --- the command line and the workflow rule --------------------------------------------

def test_cli_lookup_from_config(tmp_path, monkeypatch, capsys):
    import yaml

    from gradedrel.cli import main

    monkeypatch.setenv("GRADEDREL_CACHE_DIR", str(tmp_path / "cache"))
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump(_config()))
    assert main(["thesaurus", "lookup", "--thesaurus", "m", "--config", str(config),
                 "--limit", "1", "vitamin b 12"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[:4] == [
        "Vitamin B 12  [mesh:D014805]  label match on 'Vitamin B 12'",
        "  UF  Cobalamin; Cobalamins; Cyanocobalamin; Eritron; Vitamin B12",
        "  UF  (permuted forms) B 12, Vitamin",
        "  BT  Corrinoids; Vitamin B Complex"]


@pytest.mark.workflow
def test_workflow_rule_reads_mesh(tmp_path):
    import yaml

    from conftest import run_snakemake
    from gradedrel.thesaurus import load

    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump(_config()))
    result = run_snakemake(tmp_path, "results/thesauri/m/summary.tsv", configfile=config)
    assert result.returncode == 0, result.stderr[-3000:]
    out = tmp_path / "results" / "thesauri" / "m"
    values = dict(pd.read_csv(out / "summary.tsv", sep="\t")[["statistic", "value"]].values)
    assert values["concepts"] == 9 and values["RT_links"] == 0 and values["BT_links"] == 6
    assert load(out / "m.thesaurus.json.gz").concepts == mesh.read_mesh(DESCRIPTORS,
                                                                         TREES).concepts
    assert '"RT": "none: this export' in (out / "provenance.json").read_text()


def test_config_pins_every_thesaurus_and_the_schema_checks_them():
    """The thesauri are pinned in config/config.yaml only (the schema's default is empty and
    the code has no pins); the schema requires `files` for mesh and url/sha256/path otherwise."""
    import copy

    import jsonschema
    import yaml

    schema = yaml.safe_load((REPO / "config/schema/config.schema.yaml").read_text())
    config = yaml.safe_load((REPO / "config/config.yaml").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    validator.validate(config)
    assert schema["properties"]["thesauri"]["default"] == {}
    assert not any(hasattr(sources, name) for name in ("NASA", "MESH", "WORDNET", "DEFAULTS"))
    assert {sources.source_of(config["thesauri"][n]).name for n in ("nasa", "mesh", "wordnet")
            } == {"skos", "mesh", "wordnet"}
    bad = copy.deepcopy(config)
    del bad["thesauri"]["mesh"]["files"]
    assert any("'files' is a required property" in e.message for e in validator.iter_errors(bad))
    bad = copy.deepcopy(config)
    bad["thesauri"]["wordnet"]["pos"] = ["q"]
    assert not validator.is_valid(bad)


def test_parsing_is_logged_with_rows_and_rate(caplog):
    caplog.set_level("INFO", logger="gradedrel.thesaurus.mesh")
    columns = mesh.frame_columns(DESCRIPTORS, mesh.DESCRIPTOR_COLUMNS)
    lines = [r.getMessage() for r in caplog.records if r.name == "gradedrel.thesaurus.mesh"]
    assert lines[0].startswith(f"parsing {Path(DESCRIPTORS).name} (")
    assert lines[1].startswith(f"parsed {Path(DESCRIPTORS).name}: "
                               f"{len(columns['DescriptorUI'])} rows in ")
    assert lines[1].endswith("rows/s)")
