"""Shifts through the CLI as a pit boss runs them; every refusal is one red line and exit 1."""

from __future__ import annotations

import pytest

from ledger.core import clock as ledger_clock
from ledger.domain.registry import TerminalKind
from ledger.domain.shift_schedule import ShiftSchedule
from tests.signing import GAMING_DAY, event_count, key_file

DAY = ("--day", GAMING_DAY.isoformat(), "--shift", "day")


def _events(superuser) -> int:
    return event_count(superuser)


def _open_table_and_shift(cli, *where: str) -> None:
    assert cli("table", "open", "BAC-01", "--game", "baccarat", "--min", "100",
               "--max", "50000").code == 0
    opened = cli("shift", "open", "BAC-01", *(where or DAY), "--chips", "1000=50,100=40",
                 "--dealer", "D-1", "--supervisor", "S-1", "--cosigner", key_file("S-1"))
    assert opened.code == 0, opened.err


def _refused(result) -> str:
    assert result.code == 1
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, result.err
    return lines[0]


def _count_room(as_staff) -> dict[str, str]:
    return as_staff("C-1", "count_team", terminal="COUNT-E2E", kind=TerminalKind.COUNT_ROOM)


def test_a_whole_shift_is_opened_filled_credited_dropped_closed_and_shown(cli, as_staff):
    _open_table_and_shift(cli)
    count_room = _count_room(as_staff)
    steps = [
        ("fill", "--slip", "1043", "--chips", "1000=20", "--runner", "R-1", "--supervisor", "S-1", "--cosigner", key_file("S-1")),
        ("credit", "--slip", "1044", "--chips", "5000=2", "--runner", "R-2", "--supervisor", "S-1", "--cosigner", key_file("S-1")),
        ("fill", "--slip", "1045", "--chips", "1000=99", "--runner", "R-1", "--supervisor", "S-1", "--cosigner", key_file("S-1")),
        ("void-slip", "--slip", "1045", "--reason", "keyed twice"),
        ("drop", "--cash", "30000", "--markers", "5000", "--counted-by", "C-1",
         "--counted-by", "C-2"),
        ("close", "--chips", "1000=45,100=40", "--dealer", "D-2", "--supervisor", "S-1", "--cosigner", key_file("S-1")),
    ]
    said = []
    for action, *options in steps:
        done = cli("shift", action, "BAC-01", *DAY, *options,
                   extra_env=count_room if action == "drop" else None)
        assert done.code == 0, done.err
        assert f"the day shift of BAC-01 on {GAMING_DAY}" in done.out
        said.append(done.out)
    # each write says what the money did, not only which events it recorded
    assert "fill slip 1043: MOP 20,000.00" in said[0]
    assert "credit slip 1044: MOP 10,000.00" in said[1]
    assert "slip 1045 voided: keyed twice" in said[3]
    assert "drop MOP 35,000.00 (cash MOP 30,000.00, markers MOP 5,000.00)" in said[4]
    assert "closing count MOP 49,000.00" in said[5]
    shown = cli("shift", "show", "BAC-01", *DAY)
    assert shown.code == 0, shown.err
    out = shown.out
    assert f"the day shift of BAC-01 on {GAMING_DAY}: closed" in out
    assert "1043" in out and "20,000.00" in out and "voided" in out and "keyed twice" in out
    # 49,000 closing - 54,000 opening + 10,000 credits - 20,000 fills + 35,000 drop
    assert "accounting win  MOP 20,000.00" in out


def test_the_count_room_enters_the_drop_after_the_shift_closed(cli, superuser, as_staff):
    _open_table_and_shift(cli)
    closed = cli("shift", "close", "BAC-01", *DAY, "--chips", "1000=50,100=40", "--dealer", "D-2",
                 "--supervisor", "S-1", "--cosigner", key_file("S-1"))
    assert closed.code == 0, closed.err
    pending = cli("shift", "show", "BAC-01", *DAY)
    assert "drop            not counted yet" in pending.out
    assert "accounting win  -" in pending.out
    before = _events(superuser)
    line = _refused(cli("shift", "fill", "BAC-01", *DAY, "--slip", "1", "--chips", "1000=1",
                        "--runner", "R-1", "--supervisor", "S-1", "--cosigner", key_file("S-1")))
    assert "nothing more is recorded on it but the count of its drop" in line
    assert _events(superuser) == before
    unnamed = cli("shift", "drop", "BAC-01", "--cash", "1500", "--markers", "0",
                  "--counted-by", "C-1", extra_env=_count_room(as_staff))  # the shift in force
    # now may not be the one counted
    assert "Missing option '--day'" in _refused(unnamed)  # a usage error: one line, exit 1
    assert _events(superuser) == before
    dropped = cli("shift", "drop", "BAC-01", *DAY, "--cash", "1500", "--markers", "0",
                  "--counted-by", "C-1", "--counted-by", "C-2", extra_env=_count_room(as_staff))
    assert dropped.code == 0, dropped.err
    assert "accounting win  MOP 1,500.00" in cli("shift", "show", "BAC-01", *DAY).out


def test_the_gaming_day_closes_after_its_shifts_and_then_takes_only_the_late_drop(
        cli, superuser, as_staff):
    _open_table_and_shift(cli)
    day = ("--day", GAMING_DAY.isoformat())
    before = _events(superuser)
    line = _refused(cli("shift", "close-day", *day))
    assert line == (f"error: gaming day {GAMING_DAY} cannot close while the day shift of BAC-01 "
                    f"on {GAMING_DAY} is open: close each shift with its count first.")
    assert _events(superuser) == before
    assert cli("shift", "close", "BAC-01", *DAY, "--chips", "1000=50,100=40", "--dealer", "D-2",
               "--supervisor", "S-1", "--cosigner", key_file("S-1")).code == 0
    closed = cli("shift", "close-day", *day)
    assert closed.code == 0, closed.err
    assert closed.out.strip() == f"gaming day {GAMING_DAY}: recorded: gaming day closed"
    refused = _refused(cli("shift", "open", "BAC-01", *DAY[:2], "--shift", "swing", "--chips",
                           "1000=50", "--dealer", "D-1", "--supervisor", "S-1", "--cosigner",
                           key_file("S-1")))
    assert "opening a shift is not recorded on it" in refused
    dropped = cli("shift", "drop", "BAC-01", *DAY, "--cash", "1500", "--markers", "0",
                  "--counted-by", "C-1", "--counted-by", "C-2", extra_env=_count_room(as_staff))
    assert dropped.code == 0, dropped.err


def test_an_unknown_denomination_is_one_line_exit_1_and_nothing_recorded(cli, superuser):
    cli("table", "open", "BAC-01", "--game", "baccarat", "--min", "100", "--max", "50000")
    before = _events(superuser)
    result = cli("shift", "open", "BAC-01", *DAY, "--chips", "100=40,7=3",
                 "--dealer", "D-1", "--supervisor", "S-1", "--cosigner", key_file("S-1"))
    assert _refused(result) == (
        "error: denomination 7.00 is not a chip of this casino: chips are 1, 5, 10, 25, 100, "
        "500, 1000, 5000, 10000, 25000, 50000, 100000."
    )
    assert _events(superuser) == before


def test_a_reused_slip_number_is_one_line_exit_1_and_nothing_recorded(cli, superuser):
    _open_table_and_shift(cli)
    slip = ("--slip", "1043", "--chips", "1000=20", "--runner", "R-1", "--supervisor", "S-1", "--cosigner", key_file("S-1"))
    assert cli("shift", "fill", "BAC-01", *DAY, *slip).code == 0
    before = _events(superuser)
    line = _refused(cli("shift", "fill", "BAC-01", *DAY, *slip))
    assert line.startswith("error: slip 1043 was already recorded in this shift")
    assert _events(superuser) == before


def test_closing_an_unopened_shift_is_one_line_exit_1_and_nothing_recorded(cli, superuser):
    cli("table", "open", "BAC-01", "--game", "baccarat", "--min", "100", "--max", "50000")
    before = _events(superuser)
    result = cli("shift", "close", "BAC-01", *DAY, "--chips", "1000=45",
                 "--dealer", "D-2", "--supervisor", "S-1", "--cosigner", key_file("S-1"))
    assert _refused(result) == f"error: the day shift of BAC-01 on {GAMING_DAY} was never opened."
    assert _events(superuser) == before


def test_a_dealer_cannot_void_a_slip(cli, superuser, as_staff):
    _open_table_and_shift(cli)
    cli("shift", "fill", "BAC-01", *DAY, "--slip", "1", "--chips", "100=1", "--runner", "R-1",
        "--supervisor", "S-1", "--cosigner", key_file("S-1"))
    before = _events(superuser)
    line = _refused(cli("shift", "void-slip", "BAC-01", *DAY, "--slip", "1", "--reason", "oops",
                        extra_env=as_staff("D-1", "dealer")))
    assert line == "error: voiding a slip needs a supervisor or pit boss: dealer D-1 cannot."
    assert _events(superuser) == before


def test_the_shifts_come_from_the_configured_schedule(cli):
    schedule = {"LEDGER_SHIFT_SCHEDULE": "early=07:00,late=19:00"}
    result = cli("shift", "show", "BAC-01", "--day", GAMING_DAY.isoformat(), "--shift", "day",
                 extra_env=schedule)
    assert _refused(result) == (
        "error: there is no 'day' shift: the shifts are early (from 07:00), late (from 19:00)."
    )


def test_show_without_day_or_shift_finds_the_shift_in_force_now(cli):
    schedule = ShiftSchedule.parse("day=06:00,swing=14:00,graveyard=22:00")
    now = schedule.locate(ledger_clock.now())
    _open_table_and_shift(cli, "--day", now.gaming_day.isoformat(), "--shift", now.shift)
    shown = cli("shift", "show", "BAC-01")
    if schedule.locate(ledger_clock.now()) != now:
        pytest.skip("a shift changed while the test ran")
    assert shown.code == 0, shown.err
    assert f"the {now.shift} shift of BAC-01 on {now.gaming_day.isoformat()}: open" in shown.out
