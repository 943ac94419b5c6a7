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
    for game in ("baccarat", "fortune-8", "q-poker", "stud-poker"):
        assert f"  {game}: " in text and " of 4 table-days (" in text, game
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
