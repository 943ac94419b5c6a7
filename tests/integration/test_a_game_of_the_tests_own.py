"""A fifth game, written only in the tests (High Card, `tests.toy_game`) and registered through
the registry, plays through the whole ledger with nothing of the product changed: a simulated
shift on PostgreSQL, then every report, the replay of a round, a verification and the floor.
Whatever a game had to be named for outside its package would fail here."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime, time
from decimal import Decimal

import pytest

from ledger.audit.protection.report import protection_report
from ledger.audit.replay.recall import recall
from ledger.audit.replay.round import replay_round
from ledger.audit.verification.verify import verify_ledger
from ledger.core.formatting import MACAU
from ledger.domain.shift_schedule import DEFAULT_SCHEDULE, ShiftSchedule
from ledger.pages.floor import floor_page
from ledger.reports.hold import hold_report
from ledger.reports.statistics import statistics
from ledger.simulation.floor import floor_plan, run_floor
from ledger.web.floor import floor_view
from projections.engine.runner import ProjectionRunner
from projections.registry import select
from projections.shifts.period_reports import gaming_day_report
from projections.shifts.read import shift_report
from tests import toy_game
from tests.signing import floor_staff, open_ledger, playing_other_days

DAY = date(2026, 11, 22)
ROUNDS = 12
SCHEDULE = ShiftSchedule.parse(DEFAULT_SCHEDULE)


@pytest.fixture
def high_card() -> Iterator[str]:
    toy_game.register()
    try:
        yield toy_game.CODE
    finally:
        toy_game.unregister()


def test_a_game_registered_by_the_tests_plays_through_every_report_replay_and_the_floor(
    settings, high_card
):
    plan = floor_plan(1, (high_card,))
    table = plan[0].code
    with open_ledger(settings) as rt:
        playing_other_days(rt.ledger)
        result = run_floor(rt.ledger, floor_staff(rt.ledger), plan, rounds=ROUNDS, seed=7,
                           day=DAY)
        assert not result.errors, result.errors
        with ProjectionRunner(rt.database, select()) as runner:
            runner.catch_up()
        with rt.database.connect() as conn:
            shift = {line.table: line for line in shift_report(conn, DAY, "day").tables}
            day = gaming_day_report(conn, DAY, SCHEDULE.names)
            month = statistics(conn, "month", DAY)
            hold = hold_report(conn, DAY)
            protection = protection_report(conn, "day", DAY, "day", SCHEDULE,
                                           now=datetime.combine(DAY, time(23), tzinfo=MACAU))
            recalled = recall(conn, table, last=100).rounds
            replayed = replay_round(conn, recalled[0].round_id)
            verified = verify_ledger(conn, ask_witnesses=False)
            floor = floor_view(conn, SCHEDULE, now=datetime.combine(DAY, time(12), tzinfo=MACAU))
    line = shift[table]
    assert line.rounds_played == ROUNDS and line.handle > 0
    assert sum((r.win.table_win for r in recalled if r.win), Decimal(0)) == line.ledger_win

    assert [t.table for t in day.tables] == [table]  # the day's report, by table and by game
    assert [(g.name, g.ledger_win) for g in day.by_game] == [("high-card", line.ledger_win)]

    by_game = {(l.level, l.name): l for l in month.lines}
    figures = by_game["game", "high-card"].figures
    assert figures.theoretical_hold_pct == Decimal("5.88")  # the edge, 1/17, from its odds module
    assert {(l.level, l.name) for l in hold.lines if l.period == "day"} >= {("game", "high-card")}

    assert protection.played == ROUNDS

    assert not replayed.check.differences, replayed.check  # settled again to the same bets
    assert replayed.outcome["dealer_card"] and replayed.game == "high-card"

    assert verified.ok, verified

    page = floor_page(floor, "Test Casino", "S-1")
    assert "High Card" in page and table in page
    assert "bead plate" not in page  # a game with no roads draws none
