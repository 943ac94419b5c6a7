"""What a played round's bets were expected to win, under the exact odds of the rules and
settings it was played under, and what they won: for tests of the simulated floor."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from ledger.core.expectation import Expectation
from ledger.games.odds import Stake
from ledger.games.registry import game


def round_expectation(round_: Any) -> tuple[Expectation, Decimal]:
    """The round's expected win and its variance, its bets taken together (jackpot bets go to
    the pool, not the rack; returned bets are in no handle), and what its bets gave the
    house."""
    on_layout = [bet for bet in round_.results if bet.spot != "jackpot"]
    counted = [Stake(bet.box, str(bet.spot), bet.stake) for bet in on_layout
               if bet.outcome != "returned"]
    mean, variance = game(round_.game).round_moments(round_.house_settings, counted)
    return Expectation(mean, variance), sum((bet.house_win for bet in on_layout), Decimal(0))


def rounds_expectation(rounds: Any) -> tuple[Expectation, Decimal]:
    expected, won = Expectation(), Decimal(0)
    for round_ in rounds:
        more, gained = round_expectation(round_)
        expected, won = expected + more, won + gained
    return expected, won
