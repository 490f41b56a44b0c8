"""Reading an input once, as a stream: a file, a pipe (``<(cat …)``), a FIFO or ``-``
(standard input) give the same lines.

Every text reader reads through :func:`text_lines` (line by line) or :func:`read_bounded`
(the whole input, for the readers that parse it in one go): one open, one pass, no
re-reading (a pipe cannot be read twice). Both check, as they stream, that no line is
longer than a limit, so that a huge file without line ends (a sparse file, a binary) is
one short error after a bounded read, not a memory blow-up; both refuse a compressed
file they are not asked to decompress. :func:`text_lines` decodes each line on its own, so a
byte that is not UTF-8 is reported at its own line.
"""
from __future__ import annotations

import codecs
import contextlib
import gzip
import io
import logging
import sys
import zlib
from pathlib import Path
from typing import BinaryIO, Iterator

from gradedrel.core.errors import InputError

log = logging.getLogger("gradedrel")

#: The name of standard input as an input path.
STDIN = "-"
#: The longest line (bytes) of a record file: qrels, runs, topics, topic lists.
LINE_LIMIT = 1 << 20
#: The longest line (bytes) of a documents file (a JSONL line is a whole document).
DOCUMENT_LINE_LIMIT = 1 << 26
#: How compressed files start: gzip, bzip2, xz.
COMPRESSED_MAGIC = (b"\x1f\x8b", b"BZh", b"\xfd7zXZ\x00")
NOT_UTF8 = "not UTF-8 (Latin-1 or another encoding?)"


def is_compressed(head: bytes) -> bool:
    """Whether bytes start as a gzip, bzip2 or xz file does."""
    return head.startswith(COMPRESSED_MAGIC)


def compressed_error(path, expected: str) -> InputError:
    """The one line refusing a compressed file where text was expected."""
    return InputError(path, None, expected, "a compressed file (gzip, bzip2 or xz): "
                      "decompress it first")


def log_bom(path, data: bytes) -> bool:
    """Whether ``data`` starts with a UTF-8 byte-order mark; if so, logged (a warning naming
    the file, which its reader strips: the one place that says so)."""
    if not data.startswith(codecs.BOM_UTF8):
        return False
    log.warning("%s: a UTF-8 byte-order mark at the start of the file, stripped", path)
    return True


def gzipped(path: str | Path) -> bool:
    """Whether an input is read decompressed: its name ends in ``.gz``."""
    return str(path).endswith(".gz")


@contextlib.contextmanager
def open_binary(path: str | Path, gz: bool = False) -> Iterator[BinaryIO]:
    """``path`` opened once for reading bytes: ``-`` is standard input (left open); ``gz``:
    decompressed as it is read (a damaged gzip stream: one :class:`InputError`)."""
    if str(path) == STDIN:
        yield sys.stdin.buffer
        return
    try:
        with (gzip.open if gz else open)(path, "rb") as handle:
            yield handle
    except (EOFError, zlib.error, gzip.BadGzipFile) as error:
        raise InputError(path, None, "a complete gzip file", str(error)) from None


def too_long(path, line: int, limit: int, head: bytes) -> InputError:
    """The error for a line longer than ``limit`` bytes (its first 40 bytes shown)."""
    start = head[:40].decode("utf-8", "replace")
    return InputError(path, line, f"lines of at most {limit} bytes; found a longer line, "
                      f"starting {start!r}…")


def text_lines(path: str | Path, expected: str = "UTF-8 text",
               limit: int = LINE_LIMIT) -> Iterator[str]:
    """The lines of a UTF-8 text input, read once, each ending ``\\n`` but the last
    (line ends as Python's text mode reads them: ``\\r\\n`` and ``\\r`` are ``\\n``); a
    byte-order mark at the start stripped and logged; a name ending in ``.gz``
    decompressed as it is read. One :class:`InputError` naming the line for a byte that is
    not UTF-8 or a line longer than ``limit`` bytes; another compressed file is refused."""
    number, gz = 0, gzipped(path)
    with open_binary(path, gz) as handle:
        for raw in iter(lambda: handle.readline(limit + 1), b""):
            if number == 0:
                if is_compressed(raw) and not gz:
                    raise compressed_error(path, expected)
                if log_bom(path, raw):
                    raw = raw[len(codecs.BOM_UTF8):]
            if len(raw) > limit and not raw.endswith(b"\n"):
                raise too_long(path, number + 1, limit, raw)
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                before = raw[:error.start].replace(b"\r\n", b"\n").count(b"\r")
                raise InputError(path, number + 1 + before, expected,
                                 f"byte {raw[error.start:error.start + 1]!r}, {NOT_UTF8}") \
                    from None
            # a line with a CR: its lines in universal-newline mode (as Python's text mode)
            for line in io.StringIO(text, newline=None) if "\r" in text else (text,):
                number += 1
                yield line


def read_bounded(path: str | Path, expected: str, limit: int = LINE_LIMIT,
                 gz: bool = False) -> bytes:
    """The bytes of an input, read once in blocks, no line longer than ``limit`` bytes
    (checked as it streams: a huge file without line ends stops after about two blocks,
    with one :class:`InputError` naming its line); ``gz``: decompressed as read. Not decoded,
    but checked: one :class:`InputError` for a compressed file (when not decompressed, or
    compressed twice) or at the line and byte where decoding as UTF-8 fails (Latin-1 or
    another encoding)."""
    blocks: list[bytes] = []
    newlines = offset = start = 0   # line ends, bytes before this block, where the line began
    with open_binary(path, gz) as handle:
        for block in iter(lambda: handle.read(limit), b""):
            if not blocks and is_compressed(block):
                raise compressed_error(path, expected)
            blocks.append(block)
            first, count = block.find(b"\n"), 0
            if first >= 0:
                if offset + first - start > limit:
                    raise _long_line(path, blocks, newlines + 1, start, limit)
                count, start = block.count(b"\n"), offset + block.rfind(b"\n") + 1
            offset += len(block)
            if offset - start > limit:   # a line inside one block is shorter than the block
                raise _long_line(path, blocks, newlines + count + 1, start, limit)
            newlines += count
    data = b"".join(blocks)
    if not data.isascii():
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as error:
            line = data.count(b"\n", 0, error.start) + 1
            raise InputError(path, line, expected,
                             f"byte {data[error.start:error.start + 1]!r}, {NOT_UTF8}") from None
    return data


def _long_line(path, blocks: list[bytes], line: int, start: int, limit: int) -> InputError:
    """The error for the line ``line`` that starts at byte ``start`` of ``blocks``."""
    head = b"".join(blocks)[start:start + 64]
    return too_long(path, line, limit, head[len(codecs.BOM_UTF8):]
                    if start == 0 and head.startswith(codecs.BOM_UTF8) else head)


def is_regular_file(path: str | Path) -> bool:
    """Whether ``path`` is a regular file (not ``-``, a pipe or a FIFO): one that can be
    read again, e.g. for its digest."""
    return str(path) != STDIN and Path(path).is_file()
