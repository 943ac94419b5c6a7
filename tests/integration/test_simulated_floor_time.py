"""A simulated shift in force is played only as far as the ledger's clock has gone."""

from __future__ import annotations

from datetime import timedelta

from ledger.cli.simulate import play_window, rounds_that_fit
from ledger.core import clock as ledger_clock
from ledger.core.clock import FixedClock
from ledger.simulation.floor import floor_plan, run_floor
from tests.signing import floor_staff, open_ledger


def test_a_shift_ten_minutes_old_is_played_and_closed_without_a_command_dated_after_now(
        settings, database):
    schedule = settings.shift_schedule
    day_before = schedule.locate(ledger_clock.now() - timedelta(days=1))
    slot = schedule.slot(day_before.gaming_day, "swing")
    now = slot.starts_at + timedelta(minutes=10)  # the ledger's clock: the shift 10 min old
    plan = floor_plan(4)
    with open_ledger(settings, clock=FixedClock(now)) as rt:
        rounds = rounds_that_fit(slot, 200, now)
        result = run_floor(rt.ledger, floor_staff(rt.ledger), plan, rounds=rounds, seed=3,
                           day=slot.gaming_day, shift=slot.shift, starts_at=slot.starts_at,
                           play_seconds=play_window(slot, now), until=now)
    assert not result.errors, result.errors
    assert 0 < rounds < 200 and all(t.rounds + t.voids == rounds for t in result.tables.values())
    with database.connect() as conn:
        (latest, closed) = conn.execute(
            "SELECT max((body -> 'command' ->> 'at')::timestamptz), "
            "count(*) FILTER (WHERE body ->> 'command_type' = 'CloseTable') "
            "FROM ledger_event_log WHERE event_type = 'CommandReceipt.Accepted' "
            "AND body -> 'command' ? 'table'").fetchone()
    assert closed == len(plan)  # every table's shift played through its closing
    assert latest <= now, (latest, now)
