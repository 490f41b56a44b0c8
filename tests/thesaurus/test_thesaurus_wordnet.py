"""WordNet 3.0 from Debian's .deb: the reader on a tiny .deb in the real format and on the
real package; the cache; checksum and malformed-input errors.

The real package is ``.data/thesauri/wordnet/wordnet-base_3.0-37_all.deb`` (see the data
README). If it is absent the real-file tests FAIL, unless ``GRADEDREL_NO_REAL_DATA=1``
says the data is unavailable (then they are skipped, visibly).
"""
from __future__ import annotations

import hashlib
import io
import os
import tarfile
import time
from pathlib import Path

import pytest

from gradedrel.core.downloads import ChecksumError
from gradedrel.core.errors import InputError
from gradedrel.thesaurus import cache, sources, wordnet
from gradedrel.thesaurus.lookup import find

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "thesauri" / "wordnet"
REPO = Path(__file__).resolve().parents[2]
PINNED = sources.project_thesauri()["wordnet"]  # config/config.yaml, the one place
REAL = REPO / PINNED["path"]


# --- a tiny .deb, made the way Debian makes them -------------------------------------

def ar_archive(members: list[tuple[str, bytes]]) -> bytes:
    """An ``ar`` archive (the .deb container): global header, 60-byte member headers."""
    out = [b"!<arch>\n"]
    for name, data in members:
        header = (f"{name + '/':<16}{0:<12}{0:<6}{0:<6}{100644:<8}{len(data):<10}"
                  .encode("ascii") + b"`\n")
        assert len(header) == 60
        out += [header, data, b"\n" if len(data) % 2 else b""]
    return b"".join(out)


def tar_xz(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:xz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(f"./{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def make_deb(path: Path, data_files: dict[str, bytes] | None = None) -> Path:
    """A .deb holding ``usr/share/wordnet/data.*`` (default: the fixture's four files)."""
    if data_files is None:
        data_files = {f"data.{p}": (FIXTURE / f"data.{p}").read_bytes()
                      for p in ("noun", "verb", "adj", "adv")}
    payload = tar_xz({f"{wordnet.DATA_DIR}/{name}": data for name, data in data_files.items()})
    path.write_bytes(ar_archive([("debian-binary", b"2.0\n"),
                                 ("control.tar.xz", tar_xz({"control": b"Package: x\n"})),
                                 ("data.tar.xz", payload)]))
    return path


@pytest.fixture
def deb(tmp_path) -> Path:
    return make_deb(tmp_path / "wordnet-base_tiny.deb")


# --- the reader on the fixture ----------------------------------------------------------

def test_fixture_synsets_labels_relations(deb):
    th = wordnet.read_wordnet(deb)
    assert len(th) == 16
    car = th["wn:n:02958343"]
    assert car.pref_label == "car"
    assert car.alt_labels == ("auto", "automobile", "machine", "motorcar")
    assert car.broader == ("wn:n:03791235",)            # @ motor vehicle
    assert car.narrower == ("wn:n:02701002",)           # ~ ambulance
    assert car.related == ()
    assert car.definition.startswith("a motor vehicle with four wheels;")
    assert th["wn:n:03791235"].labels() == ("motor vehicle", "automotive vehicle")
    # instance hypernym / hyponym: @i is BT, ~i is NT
    assert th["wn:n:00060548"].broader == ("wn:n:00058743",)
    assert "wn:n:00060548" in th["wn:n:00058743"].narrower
    assert th["wn:n:00060548"].labels() == ("Hegira", "Hejira")  # case kept
    # adjectives: markers (p), (ip) removed; similar-to & and also-see ^ are RT;
    # satellites (ss_type s) live in data.adj and are wn:a:...
    afraid = th["wn:a:00077645"]
    assert afraid.pref_label == "afraid"
    assert set(afraid.related) == {"wn:a:00264776", "wn:a:00078329"}
    assert th["wn:a:00014358"].labels() == ("abounding", "galore")
    assert th["wn:a:00014358"].related == ("wn:a:00013887",)
    assert th["wn:a:00081671"].related == ()            # ! antonym is not mapped
    # verbs: lexical also-see (source/target 0103) links the synsets; @/~ hierarchy
    breathe = th["wn:v:00001740"]
    assert breathe.labels() == ("breathe", "take a breath", "respire", "suspire")
    assert set(breathe.related) == {"wn:v:00004227", "wn:v:00005041"}
    assert set(breathe.narrower) == {"wn:v:00004227", "wn:v:00005041"}
    assert th["wn:v:00004227"].broader == ("wn:v:00001740",)
    # every link resolves; BT/NT reciprocal in the fixture
    for c in th.concepts.values():
        for target in c.broader:
            assert c.uri in th[target].narrower
        assert all(t in th for t in c.broader + c.narrower + c.related)


def test_pos_option_reads_nouns_only_and_drops_cross_pos_links(deb):
    th = wordnet.read_wordnet(deb, pos=["n"])
    assert {uri.split(":")[1] for uri in th.concepts} == {"n"}
    assert len(th) == 6
    with pytest.raises(InputError, match="parts of speech"):
        wordnet.read_wordnet(deb, pos=["x"])


def test_lookup_finds_a_lemma(deb):
    th = wordnet.read_wordnet(deb)
    assert [m.uri for m in find(th, "automobile", ("label",))] == ["wn:n:02958343"]
    assert [m.uri for m in find(th, "galore", ("label",))] == ["wn:a:00014358"]


# --- cache, config and checksum -------------------------------------------------------

def _config(deb: Path, sha256: str | None = None, **extra) -> dict:
    digest = sha256 or hashlib.sha256(deb.read_bytes()).hexdigest()
    return {"thesauri": {"wn": {"source": "wordnet", "url": deb.as_uri(), "sha256": digest,
                                "path": str(deb), **extra}}}


def test_cache_is_written_and_reused(deb, tmp_path, monkeypatch):
    config = _config(deb)
    first = sources.load("wn", config, cache_dir=tmp_path / "c")
    (cached,) = (tmp_path / "c").glob("*" + cache.SUFFIX)
    header, again = cache.read_header_and_concepts(cached)
    assert again.concepts == first.concepts
    assert header["provenance"]["source"] == "wordnet"
    assert header["provenance"]["mapping"]["RT"].startswith("similar-to &, also-see ^")
    assert header["provenance"]["options"] == {"pos": ["n", "v", "a", "r"]}

    def no_parse(*args, **kwargs):
        raise AssertionError("parsed although the cache is fresh")
    monkeypatch.setattr(wordnet, "read_wordnet", no_parse)
    assert sources.load("wn", config, cache_dir=tmp_path / "c").concepts == first.concepts
    # another POS choice is another cache entry (options key the cache)
    monkeypatch.undo()
    nouns = sources.load("wn", _config(deb, pos=["n"]), cache_dir=tmp_path / "c")
    assert len(nouns) == 6 and len(list((tmp_path / "c").glob("*" + cache.SUFFIX))) == 2


def test_checksum_mismatch_names_the_file(deb, tmp_path):
    config = _config(deb, sha256="0" * 64)
    with pytest.raises(ChecksumError) as error:
        sources.load("wn", config, cache_dir=tmp_path / "c")
    assert str(deb) in str(error.value) and "expected " + "0" * 64 in str(error.value)


def test_download_from_url_when_absent(deb, tmp_path):
    target = tmp_path / "copy" / "wordnet.deb"
    config = _config(deb)
    config["thesauri"]["wn"]["path"] = str(target)
    assert len(sources.load("wn", config, cache_dir=tmp_path / "c")) == 16
    assert target.read_bytes() == deb.read_bytes()


# --- malformed input: one clear error naming the file and what was expected -----------

def test_not_an_ar_archive(tmp_path):
    bad = tmp_path / "bad.deb"
    bad.write_bytes(b"PK\x03\x04 not a deb")
    with pytest.raises(InputError) as error:
        wordnet.read_wordnet(bad)
    assert str(bad) in str(error.value) and "ar archive" in str(error.value)


def test_deb_without_data_tar_or_data_files(tmp_path):
    bad = tmp_path / "empty.deb"
    bad.write_bytes(ar_archive([("debian-binary", b"2.0\n")]))
    with pytest.raises(InputError, match="expected a data.tar"):
        wordnet.read_wordnet(bad)
    partial = make_deb(tmp_path / "partial.deb", {"data.noun": b""})
    with pytest.raises(InputError, match=r"missing \['usr/share/wordnet/data.verb'"):
        wordnet.read_wordnet(partial)


def test_truncated_deb(deb, tmp_path):
    bad = tmp_path / "truncated.deb"
    bad.write_bytes(deb.read_bytes()[:2000])
    with pytest.raises(InputError) as error:
        wordnet.read_wordnet(bad)
    assert str(bad) in str(error.value) and "truncated" in str(error.value)


def test_malformed_synset_line_names_file_and_line(tmp_path):
    files = {f"data.{p}": (FIXTURE / f"data.{p}").read_bytes()
             for p in ("noun", "verb", "adj", "adv")}
    lines = files["data.noun"].decode().splitlines()
    header = sum(1 for line in lines if line.startswith("  "))
    lines[header] = lines[header].replace(" 001 ~ ", " 0x1 ~ ", 1)  # bad pointer count
    files["data.noun"] = ("\n".join(lines) + "\n").encode()
    bad = make_deb(tmp_path / "bad.deb", files)
    with pytest.raises(InputError) as error:
        wordnet.read_wordnet(bad)
    message = str(error.value)
    assert message.startswith(f"{bad}!usr/share/wordnet/data.noun:{header + 1}: expected a WNDB")


def test_dangling_pointer_is_an_error(tmp_path):
    files = {f"data.{p}": (FIXTURE / f"data.{p}").read_bytes()
             for p in ("noun", "verb", "adj", "adv")}
    files["data.noun"] = files["data.noun"].replace(b"~ 02701002 n", b"~ 09999999 n", 1)
    with pytest.raises(InputError, match="unknown targets, e.g. \\['wn:n:09999999'\\]"):
        wordnet.read_wordnet(make_deb(tmp_path / "dangling.deb", files))


# --- the real package -----------------------------------------------------------------

@pytest.fixture(scope="module")
def real():
    if not REAL.exists():
        if os.environ.get("GRADEDREL_NO_REAL_DATA") == "1":
            pytest.skip(f"GRADEDREL_NO_REAL_DATA=1: {REAL} not available")
        pytest.fail(f"{REAL} is missing: copy it from the shared data (see the data README: "
                    f"{PINNED['url']}, sha256 {PINNED['sha256']}) or set "
                    "GRADEDREL_NO_REAL_DATA=1 to declare the data unavailable")
    start = time.process_time()
    thesaurus = wordnet.read_wordnet(  # sha256 verified
        sources.ensure_files("wordnet", {"thesauri": {"wordnet": PINNED}}, root=REPO)["file"])
    return thesaurus, time.process_time() - start


def test_real_counts_match_the_data_readme(real):
    th, _ = real
    values = list(th.concepts.values())
    by_pos = {p: sum(1 for uri in th.concepts if uri[3] == p) for p in "nvar"}
    assert len(th) == 117_659                               # README: 117,659 synsets
    assert by_pos == {"n": 82_115, "v": 13_767, "a": 18_156, "r": 3_621}
    assert sum(len(c.labels()) for c in values) == 206_978  # README: 206,978 senses
    assert sum(len(c.alt_labels) for c in values) == 89_319
    # BT = @ + @i (75,850 + 8,577 nouns, 13,239 verbs); NT the same, reciprocal
    assert sum(len(c.broader) for c in values) == 97_666
    assert sum(len(c.narrower) for c in values) == 97_666
    # README: ~89k hyponym (~) links = 75,850 nouns + 13,239 verbs; + 8,577 ~i = 97,666
    # RT: similar-to 21,386 + also-see 3,272 pointers (README) = 24,658; 55 of them
    # repeat a link between the same two synsets (lexical ^ from different words)
    assert sum(len(c.related) for c in values) == 24_603
    assert not any(c.related for c in values if c.uri.startswith(("wn:n:", "wn:r:")))


def test_real_car(real):
    th, _ = real
    car = th["wn:n:02958343"]
    assert car.labels() == ("car", "auto", "automobile", "machine", "motorcar")
    assert [th.label(u) for u in car.broader] == ["motor vehicle"]
    assert len(car.narrower) == 31
    assert "wn:n:02958343" in {m.uri for m in find(th, "car", ("label",))}


# --- the command line and the workflow rule --------------------------------------------

def test_cli_lookup_several_terms_from_config(deb, tmp_path, monkeypatch, capsys):
    import yaml

    from gradedrel.cli import main

    monkeypatch.setenv("GRADEDREL_CACHE_DIR", str(tmp_path / "cache"))
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump(_config(deb)))
    assert main(["thesaurus", "lookup", "--thesaurus", "wn", "--config", str(config),
                 "--match", "label", "car", "galore"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("== car ==\ncar  [wn:n:02958343]  label match on 'car'\n")
    assert "  UF  auto; automobile; machine; motorcar\n  BT  motor vehicle\n" in out
    assert "\n== galore ==\nabounding  [wn:a:00014358]  label match on 'galore'\n" in out
    assert list((tmp_path / "cache").glob("*" + cache.SUFFIX))  # answered via the cache


@pytest.mark.workflow
def test_workflow_rule_reads_wordnet(deb, tmp_path):
    import pandas as pd
    import yaml

    from conftest import run_snakemake
    from gradedrel.thesaurus import load

    config = tmp_path / "config.yaml"
    spec = _config(deb)
    spec["thesauri"]["wn"]["path"] = ".data/thesauri/wn/tiny.deb"  # downloaded (file://)
    config.write_text(yaml.safe_dump(spec))
    result = run_snakemake(tmp_path, "results/thesauri/wn/summary.tsv", configfile=config)
    assert result.returncode == 0, result.stderr[-3000:]
    out = tmp_path / "results" / "thesauri" / "wn"
    values = dict(pd.read_csv(out / "summary.tsv", sep="\t")[["statistic", "value"]].values)
    assert values["concepts"] == 16 and values["RT_links"] == 8
    assert load(out / "wn.thesaurus.json.gz").concepts == wordnet.read_wordnet(deb).concepts
    provenance = (out / "provenance.json").read_text()
    assert '"RT": "similar-to &, also-see ^' in provenance


@pytest.mark.parametrize("term", ["car", "cars", "motor", "Breathes", "galore", "a", "é",
                                  "inhal", "fearful", "hegiras", "take a", "cowardlies"])
def test_lookup_prefilter_changes_no_answer(deb, term):
    """find() skips labels without the first word's S-stem less its last letter; the
    answers equal a scan of every label."""
    from gradedrel.thesaurus import lookup
    from gradedrel.thesaurus.model import normalise_label

    th = wordnet.read_wordnet(deb)
    key, words = normalise_label(term), lookup._words(term)
    expected = set()
    for concept in th.concepts.values():
        for label in concept.labels():
            level = lookup._level(key, words, label)
            if level is not None:
                expected.add(concept.uri)
    assert {m.uri for m in find(th, term)} == expected


def test_reading_logs_synsets_per_data_file_with_a_rate(deb, caplog):
    caplog.set_level("INFO", logger="gradedrel.progress")
    th = wordnet.read_wordnet(deb, pos=["n", "v"])
    lines = [r.getMessage() for r in caplog.records if r.name == "gradedrel.progress"]
    nouns = sum(1 for uri in th.concepts if uri.startswith("wn:n:"))
    assert any(f"!data.noun: {nouns} synsets" in line and "synsets/s" in line for line in lines)
    assert any("!data.verb:" in line for line in lines)
    assert not any("!data.adj" in line for line in lines)  # not read
