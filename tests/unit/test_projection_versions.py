"""A projection's version: its number and a digest of its tables' DDL, so that a table changed
without a bump still shows; and what `ledger_tracking.version` may hold."""

from __future__ import annotations

from typing import ClassVar

from projections.engine.versions import Version, code_version
from projections.shifts.report import ShiftReport
from projections.tables.state import TableState


def test_a_table_definition_changed_without_a_bump_changes_the_version():
    class Wider(TableState):
        tables: ClassVar[dict[str, str]] = {
            **TableState.tables, "table_state": TableState.tables["table_state"].replace(
                "version bigint NOT NULL,", "version bigint NOT NULL, extra text,")}

    class Reflowed(TableState):
        tables: ClassVar[dict[str, str]] = {
            name: "  " + ddl.replace(" ", "\n ") for name, ddl in TableState.tables.items()}

    assert Wider.version == TableState.version
    assert code_version(Wider) != code_version(TableState)
    assert code_version(Reflowed) == code_version(TableState)  # whitespace is no change


def test_a_version_an_insider_writes_by_hand_is_no_version_of_the_code():
    for written in ("1", "1:ABCDEF00", "x:00000000", "1:00000000; DROP", None, ""):
        assert Version.parse(written) is None
    assert Version.parse("7:0fa02cd1") == Version(7, "0fa02cd1")


def test_each_projection_has_a_version_of_its_own_tables():
    assert code_version(TableState) != code_version(ShiftReport)
    assert Version.parse(code_version(TableState).stored) == code_version(TableState)
