"""A corrupt cache — truncated, damaged, replaced — is one line naming the file and saying
to delete it (the workflow's), or is rebuilt (the user cache); never a traceback."""
import gzip
import json
import logging
import shutil
from pathlib import Path

import numpy as np
import pytest

from gradedrel.collection import postings
from gradedrel.core.errors import CorruptCache
from gradedrel.thesaurus import cache, load
from gradedrel.thesaurus.skos import READER_VERSION, read_skos
from posting_cases import from_postings, save

MINI_RDF = Path(__file__).parents[1] / "fixtures" / "thesaurus" / "mini_skos.rdf"


@pytest.fixture
def written(tmp_path):
    path = tmp_path / f"mini{cache.SUFFIX}"
    cache.write(path, read_skos(MINI_RDF), source_sha256="x", reader_version=READER_VERSION)
    return path


def _damaged(data: bytes, how: str) -> bytes:
    if how == "truncated":
        return data[: len(data) // 2]
    if how == "empty":
        return b""
    if how == "crc":
        return data[:-8] + bytes([data[-8] ^ 0xFF]) + data[-7:]
    return data[:20] + bytes([data[20] ^ 0x10]) + data[21:]  # the deflate stream: zlib.error


def _rows(path, change):
    document = json.loads(gzip.decompress(path.read_bytes()))
    change(document)
    path.write_bytes(gzip.compress(json.dumps(document).encode()))


@pytest.mark.parametrize("how", ["truncated", "empty", "crc", "deflate"])
def test_a_damaged_cache_is_one_corrupt_cache_error_naming_it(written, how):
    written.write_bytes(_damaged(written.read_bytes(), how))
    with pytest.raises(CorruptCache) as raised:
        cache.read(written)
    message = str(raised.value)
    assert message.startswith(f"{written}: a corrupt thesaurus cache (")
    assert message.endswith("); delete it: it is rebuilt from its source when next needed")
    assert "\n" not in message
    if how != "empty":  # a zero-length gzip stream is empty, not damaged: JSON says so
        with pytest.raises(CorruptCache):
            cache.check_integrity(written)


@pytest.mark.parametrize("change, why", [
    (lambda d: d.pop("concepts"), "no list of concepts"),
    (lambda d: d["concepts"].__setitem__(1, d["concepts"][1][:8]), "concept 2 is not"),
    (lambda d: d["concepts"][0].__setitem__(2, "a label, not a list"), "concept 1 is not"),
    (lambda d: d.update(format_version=99), "format version 99, not 2"),
    (lambda d: d.update(format="other"), 'not a JSON object with "format"'),
])
def test_a_cache_of_the_wrong_shape_is_a_corrupt_cache_too(written, change, why):
    _rows(written, change)
    with pytest.raises(CorruptCache, match=why):
        cache.read(written)


def test_the_user_cache_is_rebuilt_when_corrupt(tmp_path, caplog):
    source = tmp_path / "mini.rdf"
    shutil.copy(MINI_RDF, source)
    expected = load(source, cache_dir=tmp_path / "c").concepts
    (cached,) = (tmp_path / "c").iterdir()
    cached.write_bytes(_damaged(cached.read_bytes(), "deflate"))  # a traceback before
    with caplog.at_level(logging.WARNING, logger="gradedrel"):
        assert load(source, cache_dir=tmp_path / "c").concepts == expected
    assert "rebuilding" in caplog.text and str(cached) in caplog.text
    assert cache.read(cached).concepts == expected


def test_corrupt_posting_arrays_are_named_and_rebuilt_or_refused(tmp_path):
    arrays = from_postings({"a": [(0, [0, 2])], "b": [(1, [0])]}, [3, 1], ["d1", "d2"])
    out = tmp_path / "postings"
    save(arrays, out, "sig")
    assert postings.load(out)[1] == "sig"
    np.save(out / "tfs.npy", np.zeros(5, np.int32))  # replaced: lengths disagree
    with pytest.raises(CorruptCache, match=r"postings: a corrupt posting-array cache \(the "
                                           r"lengths of tfs, docids disagree\); delete it"):
        postings.load(out)
    (out / "positions.npy").write_bytes((out / "positions.npy").read_bytes()[:100])
    with pytest.raises(CorruptCache, match="a corrupt posting-array cache"):
        postings.load(out)
