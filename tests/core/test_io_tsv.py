"""write_tsv formats floats itself: the bytes must be those of pandas' own float_format."""
import io

import numpy as np
import pandas as pd
import pytest

from gradedrel.core.io import write_tsv


@pytest.mark.parametrize("float_format", ["%.6f", "%.6g", "%.10g"])
def test_write_tsv_bytes_equal_pandas_float_format(tmp_path, float_format):
    rng = np.random.default_rng(7)
    values = np.concatenate([rng.normal(0, 1, 500), rng.normal(0, 1e-9, 100),
                             rng.normal(0, 1e12, 100),
                             [np.nan, np.inf, -np.inf, -0.0, 0.0, 0.5, 1.0000005, 2.5e-7]])
    frame = pd.DataFrame({"run": ["a\tb", "x"] * (len(values) // 2), "value": values,
                          "count": np.arange(len(values)), "flag": True,
                          "empty": np.nan, "text": "q",
                          "single": np.float32(0.1), "nullable": pd.array([1.5] * len(values), dtype="Float64")})
    expected = io.StringIO()
    frame.to_csv(expected, sep="\t", index=False, float_format=float_format,
                 lineterminator="\n")
    write_tsv(frame, tmp_path / "t.tsv", float_format=float_format)
    assert (tmp_path / "t.tsv").read_text() == expected.getvalue()
    assert frame["value"].dtype == np.float64  # the caller's frame is left as it was


def _pandas_bytes(frame, float_format):
    buffer = io.StringIO()
    frame.to_csv(buffer, sep="\t", index=False, float_format=float_format, lineterminator="\n")
    return buffer.getvalue().encode()


FRAMES = {
    "mixed": pd.DataFrame({"run": ["SUM/u", "WSYN/e", "x'y"], "k": [1, -2, 3],
                           "ok": [True, False, True], "v": [0.5, np.nan, 1e-9],
                           "w": np.array([1, 2, 3], dtype=np.uint8)}),
    "string dtype": pd.DataFrame({"qid": pd.array(["1", "NA", ""], dtype="string"),
                                  "v": [1.0, 2.0, 3.0]}),
    "empty": pd.DataFrame({"qid": pd.Series([], dtype=object), "v": pd.Series([], dtype=float)}),
    "quote": pd.DataFrame({"run": ['a"b', "c"], "v": [1.0, 2.0]}),
    "tab": pd.DataFrame({"run": ["a\tb", "c"], "v": [1.0, 2.0]}),
    "newline": pd.DataFrame({"run": ["a\nb", "c"], "v": [1.0, 2.0]}),
    "missing text": pd.DataFrame({"run": ["a", None], "v": [1.0, 2.0]}),
    "missing string": pd.DataFrame({"run": pd.array(["a", pd.NA], dtype="string"),
                                    "v": [1.0, 2.0]}),
    "number as object": pd.DataFrame({"run": ["a", 1.5], "v": [1.0, 2.0]}),
    "float32": pd.DataFrame({"run": ["a", "b"], "v": np.array([1.0, 2.5], np.float32)}),
    "one column": pd.DataFrame({"run": ["", "b"]}),
}


@pytest.mark.parametrize("name", list(FRAMES))
@pytest.mark.parametrize("float_format", ["%.6f", "%.6g"])
def test_write_tsv_bytes_equal_pandas_for_every_kind_of_column(tmp_path, name, float_format):
    """Tables are joined as text by write_tsv where it can (tsv_text) and left to pandas
    where it would quote or format otherwise: the bytes are pandas' either way."""
    path = tmp_path / "t.tsv"
    write_tsv(FRAMES[name], path, float_format=float_format)
    assert path.read_bytes() == _pandas_bytes(FRAMES[name], float_format)


def test_the_joined_path_is_taken_for_plain_tables_only():
    from gradedrel.core.io import tsv_text

    for name in ("mixed", "string dtype", "empty"):
        assert tsv_text(FRAMES[name], "%.6f") is not None, name
    for name in ("quote", "tab", "newline", "missing text", "missing string",
                 "number as object", "float32", "one column"):
        assert tsv_text(FRAMES[name], "%.6f") is None, name
