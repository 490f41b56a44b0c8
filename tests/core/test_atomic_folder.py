"""atomic_folder: the folder is the old one or the whole new one, never half-written."""
import pytest

from gradedrel.core.io import atomic_folder


def test_the_folder_appears_whole_and_replaces_an_earlier_one(tmp_path):
    out = tmp_path / "out"
    with atomic_folder(out) as staging:
        (staging / "a.txt").write_text("first")
        assert not out.exists() and staging.parent == tmp_path
    assert (out / "a.txt").read_text() == "first"
    with atomic_folder(out) as staging:
        (staging / "b.txt").write_text("second")
        assert (out / "a.txt").exists()          # the earlier one stays until the end
    assert sorted(p.name for p in out.iterdir()) == ["b.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]   # no staging left


def test_a_failure_leaves_the_earlier_folder_and_no_staging(tmp_path):
    out = tmp_path / "out"
    with pytest.raises(RuntimeError):
        with atomic_folder(out) as staging:
            (staging / "half.txt").write_text("x")
            raise RuntimeError("stopped")
    assert list(tmp_path.iterdir()) == []
    out.mkdir()
    (out / "kept.txt").write_text("earlier")
    with pytest.raises(RuntimeError):
        with atomic_folder(out) as staging:
            raise RuntimeError("stopped")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
    assert (out / "kept.txt").read_text() == "earlier"
