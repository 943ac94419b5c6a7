"""An exhaustive enumeration is skipped only while every file it depends on is byte for byte
the one it last held for: a changed rule, script or stored datum runs it again."""

from __future__ import annotations

import pytest

from tests import enumerations


@pytest.fixture
def recorded(tmp_path, monkeypatch):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "evaluate.py").write_text("RANKS = 13\n")
    (tmp_path / "data.py").write_text("COUNTS = (4, 36)\n")
    monkeypatch.setattr(enumerations, "ROOT", tmp_path)
    monkeypatch.setattr(enumerations, "RECORD", tmp_path / "record.json")
    monkeypatch.setattr(enumerations, "ENUMERATIONS", {"hands": ("rules", "data.py")})
    monkeypatch.setenv("LEDGER_TEST_ENUMERATE", "record")
    enumerations.held("hands")
    monkeypatch.delenv("LEDGER_TEST_ENUMERATE")
    return tmp_path


def test_an_enumeration_whose_files_are_unchanged_is_skipped_saying_so(recorded):
    with pytest.raises(pytest.skip.Exception, match="hands: its code and data are those"):
        enumerations.enumerate_again("hands")


@pytest.mark.parametrize("changed", ["rules/evaluate.py", "data.py", "rules/new.py"])
def test_a_changed_or_added_file_runs_the_enumeration_again(recorded, changed):
    (recorded / changed).write_text("RANKS = 14\n")
    enumerations.enumerate_again("hands")  # no skip: it runs


def test_asked_for_all_it_runs_whatever_the_record_says(recorded, monkeypatch):
    monkeypatch.setenv("LEDGER_TEST_ENUMERATE", "all")
    enumerations.enumerate_again("hands")


def test_a_digest_is_recorded_only_when_asked(recorded):
    before = (recorded / "record.json").read_text()
    (recorded / "data.py").write_text("COUNTS = (4, 37)\n")
    enumerations.held("hands")
    assert (recorded / "record.json").read_text() == before
