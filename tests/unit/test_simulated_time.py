"""A simulated floor dates nothing after the moment the ledger records it."""

from __future__ import annotations

from datetime import timedelta

import pytest

from ledger.cli.simulate import CLOSING_RESERVE, play_window, rounds_that_fit
from ledger.core.errors import WrongState
from ledger.domain.shift_schedule import DEFAULT_SCHEDULE, ShiftSchedule
from ledger.simulation.floor import pace
from tests.signing import GAMING_DAY

SCHEDULE = ShiftSchedule.parse(DEFAULT_SCHEDULE)
SWING = SCHEDULE.slot(GAMING_DAY, "swing")


def test_a_shift_that_has_not_begun_is_refused_with_the_time_it_starts_in_macau_time():
    with pytest.raises(WrongState, match=r"has not begun: it starts at \S+ 14:00 Macau time"):
        play_window(SWING, SWING.starts_at - timedelta(hours=6))


def test_the_shift_in_force_is_played_only_as_far_as_it_has_gone_less_its_closing():
    now = SWING.starts_at + timedelta(hours=2)
    assert play_window(SWING, now) == 2 * 3600 - CLOSING_RESERVE


def test_a_shift_minutes_old_plays_the_rounds_its_minutes_hold_and_one_just_begun_none():
    assert rounds_that_fit(SWING, 15, SWING.starts_at + timedelta(minutes=5)) == 6
    assert rounds_that_fit(SWING, 15, SWING.starts_at + timedelta(hours=3)) == 15
    with pytest.raises(WrongState, match="not yet time for a round"):
        rounds_that_fit(SWING, 15, SWING.starts_at + timedelta(seconds=90))


def test_a_past_shift_is_played_whole_but_its_closing():
    assert play_window(SWING, SWING.ends_at + timedelta(hours=1)) == 8 * 3600 - 1800


def test_a_round_given_less_than_its_game_takes_shares_its_time_with_its_commands():
    round_seconds, step = pace(55, 20.0)
    assert round_seconds + 40 * step <= 20.0
    assert pace(55, 3600.0) == (55, 1.0)
