"""Writing outputs atomically, so that a failed job leaves nothing half-written."""
from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, TextIO

from gradedrel.core.streams import DOCUMENT_LINE_LIMIT, log_bom, read_bounded

if TYPE_CHECKING:  # pandas and numpy are imported where a table is written, not on import
    import pandas as pd


def _ordinary_mode(path: str | Path, mode: int) -> None:
    """Give ``path`` the permissions of an ordinary new file or folder (``mode`` less the umask)."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(path, mode & ~umask)


@contextlib.contextmanager
def atomic_open(path: str | Path, mode: str = "w") -> Iterator[TextIO]:
    """Open a temporary file beside ``path``; rename it onto ``path`` only on success."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, mode, encoding=None if "b" in mode else "utf-8",
                       newline=None if "b" in mode else "\n") as handle:
            yield handle
        _ordinary_mode(tmp, 0o666)  # mkstemp creates 0600
        os.replace(tmp, path)
    except BaseException as error:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(error, OSError) and error.filename is None and error.errno:
            # a write that failed (a full disk): the error names the file it was for
            raise OSError(error.errno, error.strerror, str(path)) from error
        raise


@contextlib.contextmanager
def atomic_folder(path: str | Path) -> Iterator[Path]:
    """A temporary folder beside ``path`` to write into; on success it replaces ``path``, on
    failure it is removed: ``path`` is the old folder or the whole new one."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent))
    try:
        yield staging
        _ordinary_mode(staging, 0o777)   # mkdtemp creates 0700
        old = None
        if path.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".old",
                                        dir=path.parent))
            os.replace(path, old / path.name)
        try:
            os.replace(staging, path)
        except BaseException:
            if old is not None:                 # put the previous folder back
                os.replace(old / path.name, path)
            raise
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def write_tsv(frame: pd.DataFrame, path: str | Path, float_format: str = "%.6f") -> None:
    """Write a table deterministically: fixed float format, LF line ends, no index
    (joined by :func:`tsv_text` where it can, else pandas' own writer: the same bytes)."""
    text = tsv_text(frame, float_format)
    with atomic_open(path) as handle:
        if text is None:
            frame.to_csv(handle, sep="\t", index=False, float_format=float_format,
                         lineterminator="\n")
        else:
            handle.write(text)


#: What makes pandas' writer quote a field (tab separator, ``"`` quote, LF/CR lines).
_QUOTED = ("\t", '"', "\n", "\r")


def tsv_text(frame: pd.DataFrame, float_format: str) -> str | None:
    """The text pandas' ``to_csv`` (tab, no index, ``float_format``, LF) writes for ``frame``,
    joined here (about twice as fast), or None when pandas' writer is needed: another
    column type, a value or name it would quote, a single column."""
    import numpy as np
    import pandas as pd

    names = [str(name) for name in frame.columns]
    if len(names) < 2 or any(c in name for name in names for c in _QUOTED):
        return None
    columns = []
    for i, dtype in enumerate(frame.dtypes):
        values = frame.iloc[:, i]
        if dtype == np.float64:
            array = values.to_numpy()
            text = [float_format % v for v in array.tolist()]
            for row in np.flatnonzero(np.isnan(array)).tolist():
                text[row] = ""
        elif dtype.kind in "iub" and isinstance(dtype, np.dtype):
            text = [str(v) for v in values.tolist()]
        elif dtype == object or isinstance(dtype, pd.StringDtype):
            # only text, no missing value or number (pandas writes those its own way)
            if len(values) and (pd.api.types.infer_dtype(values, skipna=False) != "string"
                                or values.isna().any()):
                return None
            text = values.tolist()
            joined = "\t".join(text)  # a tab inside a value adds one: counted below
            if any(c in joined for c in _QUOTED[1:]) or \
                    (text and joined.count("\t") != len(text) - 1):
                return None
        else:
            return None
        columns.append(text)
    return "\t".join(names) + "\n" + "".join("\t".join(row) + "\n" for row in zip(*columns))


#: Columns that hold identifiers: always read as the text written (``NA``, ``null``,
#: ``None``, ``nan``, ``0001`` and ``1.0`` stay themselves, never missing or numbers).
ID_COLUMNS = ("qid", "docno")
#: A character no id may hold: whitespace (it separates the fields of TREC run and qrels
#: lines, as ``str.split`` and trec_eval read them) or a control character.
NOT_IN_ID = re.compile(r"[\s\x00-\x1f\x7f-\x9f]")
#: pandas' default missing-value strings, kept for the other (numeric) columns.
NA_STRINGS = ("", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan",
              "1.#IND", "1.#QNAN", "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan",
              "null")


def read_tsv(path: str | Path, text_columns: tuple[str, ...] = ID_COLUMNS,
             exact_floats: bool = False) -> "pd.DataFrame":
    """A TSV with a header, its id columns (``text_columns``) read as text exactly as
    written, the others as pandas reads them (``exact_floats``: parsed to the double their
    text names, for ``%.17g`` values). The one reader of the workflow's tables."""
    import pandas as pd

    with open(path, encoding="utf-8") as handle:
        header = handle.readline().rstrip("\r\n").split("\t")
    return pd.read_csv(path, sep="\t", dtype={c: str for c in header if c in text_columns},
                       keep_default_na=False,
                       na_values={c: list(NA_STRINGS) for c in header
                                  if c not in text_columns},
                       **({"float_precision": "round_trip"}
                          if exact_floats and int(pd.__version__.split(".")[0]) < 3 else {}))


def write_text(text: str, path: str | Path) -> None:
    """Write ``text`` to ``path`` atomically (a temporary file renamed into place)."""
    with atomic_open(path) as handle:
        handle.write(text)


def sha256_of(path: str | Path) -> str:
    """The sha256 of a file (hex): the one file digest of the project."""
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def file_in_the_way(path: str | Path) -> Path | None:
    """The file that keeps ``path`` from being (or becoming) a folder: ``path`` itself or
    the nearest existing parent, when that is not a folder (or is a symbolic link to
    nothing); None when nothing is in the way."""
    path = Path(path)
    for folder in (path, *path.parents):
        if folder.exists():
            return None if folder.is_dir() else folder
        if folder.is_symlink():  # a dangling link: mkdir would say only "File exists"
            return folder
    return None


def what_is_in_the_way(path: str | Path) -> str:
    """What :func:`file_in_the_way` found at ``path``, and what to do about it."""
    path = Path(path)
    if path.is_symlink() and not path.exists():
        return (f"a symbolic link to {os.readlink(path)!r}, which does not exist: remove "
                "the link, or make the folder it names")
    return "a file"


def read_text(path: str | Path, expected: str, note_bom: bool = False) -> str:
    """A UTF-8 text file's text, read once (it may be a pipe), a byte-order mark stripped
    (``note_bom``: and logged): one :class:`InputError` for a file that is not UTF-8 text
    (:func:`~gradedrel.core.streams.read_bounded`)."""
    data = read_bounded(path, expected, DOCUMENT_LINE_LIMIT)
    if note_bom:
        log_bom(path, data)
    return data.decode("utf-8-sig")
