"""The README's PyTerrier example runs as written (on the fixture collection's outputs)."""
import os
import re

import pytest

from conftest import ROOT, copy_project

pytestmark = pytest.mark.workflow


def readme_python_blocks():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def test_readme_pyterrier_example_runs(finished_project, tmp_path, capsys):
    tiny_workdir = copy_project(finished_project, tmp_path / "project")
    [block] = readme_python_blocks()
    code = block.replace("results/cranfield", "results/tiny").replace("/expert", "/auto")
    here = os.getcwd()
    os.chdir(tiny_workdir)
    try:
        namespace = {}
        exec(compile(code, "README.md", "exec"), namespace)
    finally:
        os.chdir(here)
    table = namespace["result"]
    assert list(table["name"]) == ["WSYN/e InQuery", "WSYN/e BM25"]
    for column in ("AvP(level=3)", "JK_DCG(b=2,profile='2+3')@10", "nDCG@10"):
        assert column in table.columns
        assert table[column].between(0, 100).all() and table[column].notna().all()
    assert "WSYN/e InQuery" in capsys.readouterr().out
