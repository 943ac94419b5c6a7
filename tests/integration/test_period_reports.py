"""The gaming-day report and the month to date: a day's shifts added up, what is not
counted yet said rather than left blank, and whether the day is closed."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest

from ledger.commands.shift import CloseGamingDay, CloseShift, EnterDrop, OpenShift
from ledger.core.errors import NotFound
from projections.engine.runner import ProjectionRunner
from projections.registry import select
from projections.shifts.period_reports import gaming_day_report, month_to_date
from projections.shifts.read import shift_report
from tests.integration.helpers import PIT_BOSS
from tests.integration.test_shift_reconciliation import COUNT, DAY, SUPERVISOR, _shift_with
from tests.signing import open_ledger

SWING = {"table": "BAC-R1", "gaming_day": DAY, "shift": "swing"}
SCHEDULE = ("day", "swing", "graveyard")


def _swing_opened(rt) -> None:
    """After the reconciled day shift (ledger and accounting win 50.00 on a drop of 4,000.00),
    the swing shift opens with the chips the day shift closed with; no round, no count yet."""
    rt.ledger.execute(OpenShift(**SWING, chips={"1000": 51, "25": 2}, dealer_id="D-1",
                                supervisor=SUPERVISOR, actor=SUPERVISOR))


def _views(rt):
    with ProjectionRunner(rt.database, select(["shift_report"])) as runner:
        runner.catch_up()
    with rt.database.connect() as conn:
        return gaming_day_report(conn, DAY, SCHEDULE), month_to_date(conn, DAY)


def test_a_gaming_day_adds_up_its_shifts_and_says_which_are_not_counted_yet(settings):
    _shift_with(settings, record_fill=True)
    with open_ledger(settings) as rt:
        _swing_opened(rt)
        day, month = _views(rt)
    assert [line.name for line in day.by_shift] == ["day", "swing"]  # the schedule's order
    counted, running = day.by_shift
    assert (counted.accounting_win, counted.drop, counted.hold_pct, counted.uncounted) == (
        Decimal("50.00"), Decimal("4000.00"), Decimal("1.25"), 0)
    assert (running.accounting_win, running.drop, running.uncounted) == (
        Decimal("0.00"), Decimal("0.00"), 1)
    # the floor's accounting figures are the counted shift's, and say one shift is missing
    floor = day.floor
    assert (floor.ledger_win, floor.accounting_win, floor.drop, floor.hold_pct,
            floor.uncounted, floor.tables) == (
        Decimal("50.00"), Decimal("50.00"), Decimal("4000.00"), Decimal("1.25"), 1, 1)
    assert [line.name for line in day.by_table] == ["BAC-R1"]
    assert [(line.name, line.rounds_played) for line in day.by_game] == [("baccarat", 2)]
    assert day.closed is None
    # the month to date: one gaming day so far, the same figures
    assert [line.name for line in month.by_day] == [DAY.isoformat()]
    assert (month.floor.accounting_win, month.floor.uncounted, month.closed_days) == (
        Decimal("50.00"), 1, [])


def test_a_closed_gaming_day_says_when_and_by_whom(settings):
    _shift_with(settings, record_fill=True)
    with open_ledger(settings) as rt:
        _swing_opened(rt)
        rt.ledger.execute(EnterDrop(**SWING, cash="0", markers="0", counted_by=("C-1", "C-2"),
                                    actor=COUNT))
        rt.ledger.execute(CloseShift(**SWING, chips={"1000": 51, "25": 2}, dealer_id="D-1",
                                     supervisor=SUPERVISOR, actor=SUPERVISOR))
        rt.ledger.execute(CloseGamingDay(gaming_day=DAY, actor=PIT_BOSS, terminal="pit-1"))
        day, month = _views(rt)
    assert day.closed is not None and day.closed.by == PIT_BOSS.staff_id
    assert day.floor.uncounted == 0 and day.floor.accounting_win == Decimal("50.00")
    assert [close.gaming_day for close in month.closed_days] == [DAY]
    with rt.database.connect() as conn:  # the shift report's header says so too
        assert shift_report(conn, DAY, "day").day_closed == day.closed


def test_a_day_or_a_month_with_no_shift_is_one_sentence(settings):
    with open_ledger(settings) as rt, rt.database.connect() as conn:
        with pytest.raises(NotFound, match=f"no shift of gaming day {DAY} is in the ledger"):
            gaming_day_report(conn, DAY)
        before = DAY.replace(day=1) - timedelta(days=1)
        with pytest.raises(NotFound, match=f"no shift from {before.replace(day=1)} to {before}"):
            month_to_date(conn, before)
