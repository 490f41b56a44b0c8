"""Libraries imported on first use (gradedrel.core.lazy): a module is not run until one of
its attributes is read; a missing one says so, only then."""
from __future__ import annotations

import json
import sys

import pytest

from gradedrel.core import lazy


@pytest.fixture
def a_library(tmp_path, monkeypatch):
    """A made-up library on sys.path whose import leaves a mark (a file) when it runs."""
    mark = tmp_path / "imported"
    (tmp_path / "heavy_library_for_test.py").write_text(
        f"open({str(mark)!r}, 'a').write('run\\n')\nANSWER = 42\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "heavy_library_for_test", raising=False)
    yield "heavy_library_for_test", mark
    sys.modules.pop("heavy_library_for_test", None)


def test_the_library_runs_on_first_attribute_read_and_once(a_library):
    name, mark = a_library
    module = lazy.module(name)
    assert not mark.exists()  # named, not run
    assert module.ANSWER == 42
    assert mark.read_text() == "run\n"
    assert module.ANSWER == 42 and lazy.module(name).ANSWER == 42
    assert mark.read_text() == "run\n"  # run once: the second name is the same module


def test_an_imported_library_is_returned_as_it_is():
    assert lazy.module("json") is json


def test_a_missing_library_is_named_on_use():
    module = lazy.module("no_such_library_for_test")  # no error yet
    with pytest.raises(ModuleNotFoundError) as raised:
        module.anything
    assert raised.value.name == "no_such_library_for_test"
    assert "'no_such_library_for_test'" in str(raised.value)
    assert "install gradedrel)" in str(raised.value)


def test_a_library_made_unimportable_is_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "json_blocked_for_test", None)  # as `import` refuses it
    with pytest.raises(ModuleNotFoundError):
        lazy.module("json_blocked_for_test").loads


def test_realise_runs_every_library_left_to_first_use_now(a_library):
    """The workflow calls realise() at the end of parsing: the library runs then, in this
    thread, not on a job thread's first attribute read (where Python 3.11's LazyLoader
    races)."""
    name, mark = a_library
    module = lazy.module(name)
    assert not mark.exists()
    assert name in lazy.realise()
    assert mark.read_text() == "run\n"
    assert type(module).__name__ == "module" and module.ANSWER == 42
    assert lazy.realise() == []          # nothing left
    assert mark.read_text() == "run\n"
