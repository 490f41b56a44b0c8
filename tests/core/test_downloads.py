"""Downloads: fetched when absent, verified always, atomic; no network (file:// and 127.0.0.1)."""
from __future__ import annotations

import hashlib
import http.server
import threading
from functools import partial

import pytest

from gradedrel.core.downloads import ChecksumError, DownloadError, fetch, verify

PAYLOAD = b"<rdf:RDF/>\n" * 1000
DIGEST = hashlib.sha256(PAYLOAD).hexdigest()
WRONG = "0" * 64


@pytest.fixture
def served(tmp_path):
    """A file served over HTTP on 127.0.0.1; yields (url, request log)."""
    root = tmp_path / "www"
    root.mkdir()
    (root / "t.xml").write_bytes(PAYLOAD)
    requests = []

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            requests.append(self.path)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             partial(Handler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/t.xml", requests
    finally:
        server.shutdown()
        server.server_close()


def test_fetch_over_http_writes_verified_file(tmp_path, served):
    url, requests = served
    target = tmp_path / "data" / "sub" / "t.xml"
    assert fetch(url, target, DIGEST) == target
    assert target.read_bytes() == PAYLOAD
    assert len(requests) == 1
    # Present and correct: verified, not downloaded again.
    fetch(url, target, DIGEST)
    assert len(requests) == 1


def test_fetch_file_url(tmp_path):
    source = tmp_path / "mirror.xml"
    source.write_bytes(PAYLOAD)
    target = tmp_path / "copy.xml"
    fetch(source.as_uri(), target, DIGEST.upper())
    assert target.read_bytes() == PAYLOAD


def test_download_with_wrong_digest_leaves_nothing(tmp_path, served):
    url, _ = served
    target = tmp_path / "out" / "t.xml"
    with pytest.raises(ChecksumError) as caught:
        fetch(url, target, WRONG)
    message = str(caught.value)
    assert str(target) in message and WRONG in message and DIGEST in message
    assert url in message
    assert list(target.parent.iterdir()) == []  # no target, no .part file


def test_existing_copy_with_wrong_digest_is_an_error_not_replaced(tmp_path):
    target = tmp_path / "t.xml"
    target.write_bytes(PAYLOAD[:-1])  # truncated
    actual = hashlib.sha256(PAYLOAD[:-1]).hexdigest()
    # The URL is never used: an existing file is checked, not re-fetched.
    with pytest.raises(ChecksumError, match=f"expected {DIGEST}, found {actual}"):
        fetch("http://127.0.0.1:9/unreachable", target, DIGEST)
    assert target.read_bytes() == PAYLOAD[:-1]
    with pytest.raises(ChecksumError):
        verify(target, DIGEST)


def test_unreachable_url_leaves_nothing(tmp_path):
    target = tmp_path / "t.xml"
    url = (tmp_path / "absent.xml").as_uri()
    with pytest.raises(DownloadError, match=f"{target}: could not download {url}"):
        fetch(url, target, DIGEST)
    assert list(tmp_path.iterdir()) == []


def test_http_error_status_is_a_download_error(tmp_path, served):
    url, _ = served
    target = tmp_path / "out" / "t.xml"
    with pytest.raises(DownloadError, match="missing.xml: File not found"):
        fetch(url.replace("t.xml", "missing.xml"), target, DIGEST)
    assert list(target.parent.iterdir()) == []
