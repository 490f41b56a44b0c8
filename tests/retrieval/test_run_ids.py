"""Run files and ids: a run line holds six fields separated by spaces or tabs, so an id
with other whitespace or a control character is refused at its line when read, and is
never written."""
import pandas as pd
import pytest

from gradedrel.core.errors import InputError
from gradedrel.retrieval.runs import has_foreign_bytes, read_run, write_run


@pytest.mark.parametrize("char", ["\u00a0", "\x0c", "\x0b", "\x85", "\u2003", "\u3000",
                                  "\x1f", "\x00", "\x7f"])
def test_a_run_id_with_foreign_whitespace_or_a_control_character_is_refused_at_its_line(
        tmp_path, char):
    path = tmp_path / "r.run"
    path.write_text(f"1 Q0 d1 1 2.0 t\n1 Q0 d{char}2 2 1.0 t\n", encoding="utf-8")
    assert has_foreign_bytes(path.read_bytes())
    with pytest.raises(InputError) as raised:
        read_run(path)
    assert str(raised.value).startswith(
        f"{path}:2: expected a TREC run line of fields separated by spaces or tabs, without "
        f"other whitespace or control characters (found U+{ord(char):04X})")


def test_tabs_crlf_and_non_ascii_ids_are_still_read(tmp_path):
    path = tmp_path / "r.run"
    path.write_bytes("1\tQ0\tdé1\t1\t2.0\tt\r\n1 Q0  d2 2 1.0 t\r\n".encode("utf-8"))
    assert not has_foreign_bytes(path.read_bytes())
    assert read_run(path).to_frame()["docno"].tolist() == ["dé1", "d2"]


def test_an_id_that_cannot_be_one_field_is_never_written(tmp_path):
    run = pd.DataFrame({"qid": ["1", "1"], "docno": ["d1", "AERO 00184"], "rank": [1, 2],
                        "score": [2.0, 1.0]})
    path = tmp_path / "r.run"
    with pytest.raises(ValueError, match=r"r\.run: a docno with whitespace or a control "
                                         r"character cannot be written as a TREC run field: "
                                         r"'AERO 00184'"):
        write_run(run, path, "t", ["1"])
    assert list(tmp_path.iterdir()) == []  # nothing written, nothing half-written
