"""Fetching data files: download when absent, always verify the sha256, write atomically.

A local copy is trusted only after its digest matches: a file that is present but
different (a truncated download, another version) is an error, not silently
used. A download goes to a temporary file beside the target and is renamed onto
it only after its digest matched, so an interrupted or wrong download leaves
nothing behind.
"""
from __future__ import annotations

import hashlib
import logging
import urllib.request
from pathlib import Path

from gradedrel.core.io import atomic_open, sha256_of
from gradedrel.core.progress import progress
from gradedrel.core.steps import logged

log = logging.getLogger("gradedrel")

class ChecksumError(ValueError):
    """A file whose sha256 is not the expected one: names the file and both digests."""

    def __init__(self, path: str | Path, expected: str, actual: str, source: str | None = None):
        origin = f" (downloaded from {source})" if source else ""
        super().__init__(f"{path}{origin}: sha256 mismatch: expected {expected}, "
                         f"found {actual}")


class DownloadError(ValueError):
    """A download that failed (network, HTTP status, missing file): names URL and target."""


def verify(path: str | Path, sha256: str) -> None:
    """Raise :class:`ChecksumError` unless ``path`` has digest ``sha256``."""
    actual = sha256_of(path)
    if actual != sha256.lower():
        raise ChecksumError(path, sha256.lower(), actual)


def fetch(url: str, path: str | Path, sha256: str, timeout: float = 60.0) -> Path:
    """Make sure ``path`` holds the file at ``url`` with digest ``sha256``: an existing
    ``path`` is verified and kept (no network); else ``url`` (``https://``, ``http://``,
    ``file://``) is streamed into a temporary file beside it (:func:`atomic_open`), hashed,
    and renamed onto ``path`` only if the digest matches. Returns ``path``."""
    path = Path(path)
    if path.exists():
        verify(path, sha256)
        return path
    log.info("downloading %s -> %s", url, path)
    digest = hashlib.sha256()
    with atomic_open(path, "wb") as out:
        try:
            with urllib.request.urlopen(url, timeout=timeout) as response, \
                    progress(desc=f"downloading {path.name}", unit="B", unit_scale=True,
                             total=getattr(response, "length", None)) as bar:
                for block in iter(lambda: response.read(1 << 20), b""):
                    digest.update(block)
                    out.write(block)
                    bar.update(len(block))
        except OSError as error:  # URLError, HTTPError, timeouts are OSErrors
            reason = getattr(error, "reason", None) or error
            raise DownloadError(f"{path}: could not download {url}: {reason}") from None
        actual = digest.hexdigest()
        if actual != sha256.lower():
            raise ChecksumError(path, sha256.lower(), actual, source=url)
    return path


def fetch_logged(url: str, path: str | Path, sha256: str, log_path: str | Path) -> Path:
    """:func:`fetch`, with what happened written to ``log_path`` in the package's log format
    (it runs inside Snakemake's own process: the package's log records only)."""
    with logged(log_path, None, [str(path)]):  # an error is logged there, then raised
        done = fetch(url, path, sha256)
        log.info("%s: sha256 %s", done, sha256)
    return done
