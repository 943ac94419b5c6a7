"""A gaming day close locks the day: it closes only once every shift of it has closed, then
nothing more is recorded for it but the late drop and a supervisor's adjustment, each shown as
after the close."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ledger.commands.round import AdjustRound, DealCard, OpenRound, PlaceBet, SettleRound
from ledger.commands.shift import CloseGamingDay, EnterDrop
from ledger.commands.shoe import BurnCards, CutShoe, ShuffleShoe
from ledger.commands.table import SignInDealer
from ledger.core.errors import WrongState
from ledger.domain.base import Actor, Role
from projections.engine.runner import ProjectionRunner
from projections.shifts.read import shift_report
from projections.shifts.report import ShiftReport
from tests.integration.helpers import DEALER, PIT_BOSS, open_table
from tests.integration.test_rounds_in_the_books import WHERE, closing, opening
from tests.signing import GAMING_DAY, event_count, open_ledger

COUNT = Actor(staff_id="C-1", role=Role.COUNT_TEAM)
AT_TABLE = {"table": "BAC-01", "actor": DEALER, "terminal": "BAC-01-DT"}


@pytest.fixture
def ledger(settings):
    """BAC-01 with its day shift open and one coup the player won with a natural 9."""
    with open_ledger(settings) as rt:
        ledger = rt.ledger
        ledger.execute(open_table())
        ledger.execute(opening("day"))
        ledger.execute(SignInDealer(table="BAC-01", dealer_id=DEALER.staff_id, actor=PIT_BOSS,
                                    terminal="pit-1"))
        ledger.execute(ShuffleShoe(**AT_TABLE))
        ledger.execute(CutShoe(**AT_TABLE, cut_by="dealer", cut_card_position=404))
        ledger.execute(BurnCards(**AT_TABLE, count=8))
        ledger.execute(OpenRound(**AT_TABLE))
        ledger.execute(PlaceBet(**AT_TABLE, box=1, spot="banker", amount=Decimal(1000)))
        for to, card in (("player", "9H"), ("banker", "2C"), ("player", "KD"), ("banker", "5S")):
            ledger.execute(DealCard(**AT_TABLE, to=to, card=card))
        ledger.execute(SettleRound(**AT_TABLE))
        yield ledger


def close_day() -> CloseGamingDay:
    return CloseGamingDay(gaming_day=GAMING_DAY, actor=PIT_BOSS, terminal="pit-1")


def test_a_gaming_day_does_not_close_while_a_shift_of_it_is_open(ledger, superuser):
    before = event_count(superuser)
    with pytest.raises(WrongState, match=f"gaming day {GAMING_DAY} cannot close while the day "
                                         f"shift of BAC-01 on {GAMING_DAY} is open"):
        ledger.execute(close_day())
    assert event_count(superuser) == before


def test_a_closed_gaming_day_refuses_a_new_shift_and_a_second_close(ledger, superuser):
    ledger.execute(closing("day"))
    ledger.execute(close_day())
    before = event_count(superuser)
    with pytest.raises(WrongState, match=f"gaming day {GAMING_DAY} was closed by PB-7 at .* "
                                         "Macau time: opening a shift is not recorded on it"):
        ledger.execute(opening("swing"))
    with pytest.raises(WrongState, match="closing it again is not recorded on it"):
        ledger.execute(close_day())
    assert event_count(superuser) == before


def test_a_late_drop_and_an_adjustment_after_the_close_are_recorded_and_shown_after_close(
        ledger, database, superuser):
    ledger.execute(closing("day"))
    ledger.execute(close_day())
    ledger.execute(EnterDrop(**{**WHERE, "actor": COUNT}, shift="day", cash="4000",
                             markers="0", counted_by=("C-1", "C-2")))
    ledger.execute(AdjustRound(table="BAC-01", round=1, box=1, spot="banker",
                               amount=Decimal(100), reason="dispute: misread",
                               dispute="D-2026-7", actor=PIT_BOSS, terminal="pit-1"))
    late = superuser.execute(
        "SELECT split_part(topic, ':', 2), convert_from(state, 'UTF8')::jsonb->'after_close' "
        "FROM ledger_events WHERE topic LIKE '%%:Shift.DropEntered' "
        "OR topic LIKE '%%:Round.Adjusted' ORDER BY notification_id").fetchall()
    assert late == [("Shift.DropEntered", True), ("Round.Adjusted", True)]
    with ProjectionRunner(database, [ShiftReport]) as runner:
        runner.catch_up()
    with database.connect() as conn:
        day = shift_report(conn, GAMING_DAY, "day").tables[0]
    assert day.adjustments_after_close == Decimal("100.00")
    assert "after close: the drop was counted or adjusted after the gaming day closed" in day.flags
    assert "after close: MOP 100.00 of adjustments recorded after the gaming day closed" in day.flags


def test_a_drop_counted_before_the_close_is_not_after_close(ledger, database):
    ledger.execute(closing("day"))
    ledger.execute(EnterDrop(**{**WHERE, "actor": COUNT}, shift="day", cash="4000",
                             markers="0", counted_by=("C-1", "C-2")))
    ledger.execute(close_day())
    with ProjectionRunner(database, [ShiftReport]) as runner:
        runner.catch_up()
    with database.connect() as conn:
        day = shift_report(conn, GAMING_DAY, "day").tables[0]
    assert not [flag for flag in day.flags if flag.startswith("after close")]
