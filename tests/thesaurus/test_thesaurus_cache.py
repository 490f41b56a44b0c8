"""The cached form: same model back, keyed by source digest and reader version, deterministic."""
from __future__ import annotations

import gzip
import json
import logging
import shutil
from pathlib import Path

import pytest

import gradedrel.thesaurus as thesaurus_pkg
from gradedrel.core.errors import InputError
from gradedrel.thesaurus import cache, load
from gradedrel.thesaurus.skos import READER_VERSION, read_skos

MINI_RDF = Path(__file__).parents[1] / "fixtures" / "thesaurus" / "mini_skos.rdf"


@pytest.fixture
def source(tmp_path):
    target = tmp_path / "src" / "mini.rdf"
    target.parent.mkdir()
    shutil.copy(MINI_RDF, target)
    return target


def _forbid_parsing(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("parsed the source although a fresh cache exists")
    monkeypatch.setattr(thesaurus_pkg, "read_skos", refuse)


def test_load_writes_then_reuses_the_cache(tmp_path, source, monkeypatch):
    cache_dir = tmp_path / "cache"
    first = load(source, cache_dir=cache_dir)
    files = list(cache_dir.iterdir())
    assert len(files) == 1 and files[0].name.endswith(cache.SUFFIX)
    _forbid_parsing(monkeypatch)
    second = load(source, cache_dir=cache_dir)
    assert second.concepts == first.concepts == read_skos(MINI_RDF).concepts
    assert list(second.concepts) == list(first.concepts)  # order kept too


def test_changed_source_is_reparsed(tmp_path, source):
    cache_dir = tmp_path / "cache"
    load(source, cache_dir=cache_dir)
    source.write_text(source.read_text().replace(">flutter<", ">flutter (vibration)<"))
    changed = load(source, cache_dir=cache_dir)
    assert changed["#200"].pref_label == "flutter (vibration)"
    assert len(list(cache_dir.iterdir())) == 2


def test_stale_header_and_corrupt_cache_are_rebuilt(tmp_path, source, caplog):
    cache_dir = tmp_path / "cache"
    expected = load(source, cache_dir=cache_dir).concepts
    (cached,) = cache_dir.iterdir()
    # A cache whose header names another reader version is not trusted.
    document = json.loads(gzip.decompress(cached.read_bytes()))
    document["reader_version"] = READER_VERSION + 1
    document["concepts"] = []
    cached.write_bytes(gzip.compress(json.dumps(document).encode()))
    assert load(source, cache_dir=cache_dir).concepts == expected
    cached.write_bytes(b"not gzip")
    with caplog.at_level(logging.WARNING, logger="gradedrel"):
        assert load(source, cache_dir=cache_dir).concepts == expected
    assert "unreadable" in caplog.text
    assert cache.read(cached).concepts == expected  # rewritten


def test_cache_bytes_are_deterministic(tmp_path, source):
    a = load(source, cache_dir=tmp_path / "a")
    load(source, cache_dir=tmp_path / "b")
    (fa,), (fb,) = (tmp_path / "a").iterdir(), (tmp_path / "b").iterdir()
    assert fa.name == fb.name and fa.read_bytes() == fb.read_bytes()
    header = dict(source_sha256=cache.sha256_of(source), reader_version=READER_VERSION)
    assert cache.encode(a, **header) == cache.encode(read_skos(source), **header)


def test_cache_file_loads_directly_and_rejects_other_files(tmp_path, source):
    thesaurus = read_skos(source)
    target = tmp_path / f"nasa{cache.SUFFIX}"
    cache.write(target, thesaurus, source_sha256="x", reader_version=READER_VERSION)
    assert load(target).concepts == thesaurus.concepts
    other = tmp_path / f"other{cache.SUFFIX}"
    other.write_bytes(gzip.compress(b'{"format": "something else"}'))
    with pytest.raises(InputError, match="gradedrel-thesaurus"):
        load(other)


def test_unwritable_cache_dir_still_loads(tmp_path, source, caplog):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache directory should be")
    with caplog.at_level(logging.WARNING, logger="gradedrel"):
        thesaurus = load(source, cache_dir=blocker / "cache")
    assert thesaurus.concepts == read_skos(MINI_RDF).concepts
    assert "could not write thesaurus cache" in caplog.text


def test_default_cache_dir_follows_environment(tmp_path, source, monkeypatch):
    monkeypatch.setenv("GRADEDREL_CACHE_DIR", str(tmp_path / "envcache"))
    load(source)
    assert len(list((tmp_path / "envcache").iterdir())) == 1
