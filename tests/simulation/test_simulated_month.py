"""`scripts/simulate-month` end to end at a tiny size, in process: a floor of eight tables
plays two gaming days of a few rounds on an in-memory ledger, and the script prints each of its
sections. What the month shows at full size is in docs/reports.md ("Game protection")."""

from __future__ import annotations

import io
from collections import defaultdict
from decimal import Decimal

import pytest
from rich.console import Console

from ledger.audit.protection.coups import round_moments
from ledger.simulation.month import MonthPlan, play_month
from scripts.simulate_month import main

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("simulated-month")]


def test_the_month_script_prints_the_band_per_game_and_the_protection_report():
    out = io.StringIO()
    code = main(["--tables", "8", "--days", "2", "--rounds", "4", "--seed", "7"],
                Console(file=out, width=200))
    text = out.getvalue()
    assert code == 0, text
    assert "2026-11-01: 32 rounds" in text and "2026-11-02: 32 rounds" in text
    assert "A simulated month: 8 tables, 2 gaming days from 2026-11-01" in text
    assert "rounds/s" in text
    assert "Table-days outside their 95% band" in text
    for game, days in (("Fortune 8", 4), ("Q Poker", 4), ("Stud Poker", 2)):  # fair tables
        assert f"  {game}: " in text and f" of {days} table-days (" in text, game
    assert "  Baccarat: " not in text  # both its tables are the planted cases'
    for table in ("BAC-01", "BAC-02", "SP-01"):
        assert f"  {table} (planted): " in text, table
    assert "Game protection, month to date 2026-11-02: " in text
    for case in ("informed-bettor at BAC-01", "misdealer at SP-01", "lucky-streak at BAC-02",
                 "fair players, boxes, tables and dealers: "):
        assert case in text, case


def test_a_table_days_band_is_its_rounds_moments_added_up():
    """The band drawn as the statistics report draws it (from the day's stakes and their
    pairs) is centred and spread as the sum of its rounds' joint moments, which game
    protection reads (`Game.round_moments`)."""
    month = play_month(MonthPlan(tables=8, days=1, rounds=6, seed=11))
    summed: dict[str, list[Decimal]] = defaultdict(lambda: [Decimal(0), Decimal(0)])
    for coup in month.coups:
        mean, variance = round_moments(coup.game, coup.settings, coup.wagers)
        summed[coup.table][0] -= mean  # the house's side of the players' mean
        summed[coup.table][1] += variance
    assert len(month.days) == 8
    for day in month.days:
        mean, variance = summed[day.table]
        assert abs(day.theoretical_win - mean) < Decimal("0.01"), day  # edges' last digits
        assert abs(day.win_variance - variance) <= variance * Decimal("1e-6"), day


def test_a_shuffler_that_failed_at_a_shifts_end_stays_out_of_the_next_shift():
    """Table QP-05 of a month's floor (seed 20261101): its shuffler fails in the last round of
    gaming day 11, so day 12 starts on the next unit; the ledger refuses the failed one (art.
    11), and once did at the next shift's first shuffle."""
    from datetime import date, timedelta

    from ledger.core.clock import FixedClock, running
    from ledger.simulation.floor import floor_plan, run_floor, shift_start

    first = date(2026, 11, 1)
    ledger, staff = _a_floor_in_memory(first)
    floor = floor_plan(1, ("q-poker",), after=4)
    failures = 0
    for n in range(12):
        day = first + timedelta(days=n)
        with running(FixedClock(shift_start(day) + timedelta(hours=8))):
            result = run_floor(ledger, staff, floor, rounds=46, seed=20261101 * 1000 + n,
                               day=day, irregularity_rate=0.05)
        assert not result.errors, (day, result.errors)
        failures += result.tables["QP-05"].shuffler_failures
    assert failures


def test_jackpot_bets_a_void_carried_at_a_shifts_end_stand_in_the_next_shift():
    """A Stud Poker table whose last round of a gaming day is voided carries its jackpot bets
    to its next round (art. 11, 4)), the next day's first: the next shift's simulated table
    takes them as standing and bets no second jackpot on their boxes, which the ledger refuses
    ("one player per box") and once stopped the table for the day."""
    from datetime import date, timedelta

    from ledger.core.clock import FixedClock, running
    from ledger.domain.table import Table, table_id
    from ledger.simulation.floor import floor_plan, run_floor, shift_start

    first = date(2026, 11, 1)
    ledger, staff = _a_floor_in_memory(first)
    floor = floor_plan(2, ("stud-poker",))
    carried_over = 0
    for n in range(20):
        day = first + timedelta(days=n)
        with running(FixedClock(shift_start(day) + timedelta(hours=8))):
            result = run_floor(ledger, staff, floor, rounds=6, seed=7000 + n, day=day,
                               irregularity_rate=0.6)
        assert not result.errors, (day, result.errors)
        carried_over += sum(bool(ledger.load(Table, table_id(spec.code), "table")
                                 .carried_jackpot_bets) for spec in floor)
        if carried_over >= 2:
            break
    assert carried_over >= 2


def _a_floor_in_memory(first):
    """An in-memory ledger with its registry set up the evening before `first`, and the
    simulated floor's staff enrolled: what a month's floor starts from."""
    from datetime import timedelta

    from ledger.application.administration import bootstrap_registry
    from ledger.core.clock import FixedClock, running
    from ledger.identity.keyring import Keyring
    from ledger.simulation.floor import shift_start
    from ledger.simulation.month import in_memory_ledger
    from ledger.simulation.staffing import FloorStaff

    ledger, keyring = in_memory_ledger(), Keyring(None)
    admin, console = keyring.credential("staff", "A"), keyring.credential("terminal", "C")
    with running(FixedClock(shift_start(first) - timedelta(hours=16))):
        bootstrap_registry(ledger, admin, console, "Administrator")
    return ledger, FloorStaff.under(ledger, admin, console, None)
