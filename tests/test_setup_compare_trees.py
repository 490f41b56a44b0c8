"""tools/compare_trees.py: the byte-for-byte comparison of two projects' outputs."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

import compare_trees  # noqa: E402


def _project(root: Path, files: dict[str, bytes]) -> Path:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
    return root


def test_same_different_and_missing_files_are_told_apart(tmp_path):
    before = _project(tmp_path / "a", {"results/x.tsv": b"1\n", "results/y.tsv": b"2\n",
                                       "figures/f.png": b"png", "results/logs/j.log": b"t1"})
    after = _project(tmp_path / "b", {"results/x.tsv": b"1\n", "results/y.tsv": b"3\n",
                                      "figures/g.png": b"png", "results/logs/j.log": b"t2"})
    result = compare_trees.compare(before, after)
    assert result["same"] == ["results/x.tsv"]
    assert result["different"] == ["results/y.tsv"]
    assert result["only_before"] == ["figures/f.png"]
    assert result["only_after"] == ["figures/g.png"]  # logs are never compared
    assert compare_trees.main([str(before), str(after)]) == 1
    assert compare_trees.main([str(before), str(after), "--ignore", "results/y.tsv",
                               "--ignore", "figures/*"]) == 0
