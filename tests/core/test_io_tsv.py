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
