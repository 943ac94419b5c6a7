"""A whole test run does not straddle a gaming-day change: the ledger's clock is the real one,
and a shift opened at 05:59 Macau time belongs to the day before the round played at 06:01."""

from __future__ import annotations

from datetime import datetime

from ledger.domain.shift_schedule import MACAU
from tests.signing import wait_out_a_gaming_day_change


def _waited(now: datetime, margin: str, monkeypatch) -> list[float]:
    slept: list[float] = []
    monkeypatch.setenv("LEDGER_TEST_DAY_MARGIN_MINUTES", margin)
    wait_out_a_gaming_day_change(now, slept.append)
    return slept


def test_a_run_starting_within_its_margin_of_06_00_macau_waits_for_the_new_gaming_day(monkeypatch):
    assert _waited(datetime(2026, 11, 25, 5, 40, tzinfo=MACAU), "35", monkeypatch) == [20 * 60 + 5]


def test_a_run_that_ends_before_the_change_or_sets_no_margin_starts_at_once(monkeypatch):
    assert _waited(datetime(2026, 11, 25, 5, 20, tzinfo=MACAU), "35", monkeypatch) == []
    assert _waited(datetime(2026, 11, 25, 6, 1, tzinfo=MACAU), "35", monkeypatch) == []
    assert _waited(datetime(2026, 11, 25, 5, 59, tzinfo=MACAU), "0", monkeypatch) == []


def test_the_processes_a_run_starts_do_not_wait_again(monkeypatch):
    import os

    _waited(datetime(2026, 11, 25, 5, 20, tzinfo=MACAU), "35", monkeypatch)
    assert "LEDGER_TEST_DAY_MARGIN_MINUTES" not in os.environ
