"""What a played round's bets were expected to win, under the exact odds of the rules and
settings it was played under, and what they won: for tests of the simulated floor."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from ledger.core.expectation import Expectation
from ledger.games.registry import game


def round_expectation(round_: Any) -> tuple[Expectation, Decimal]:
    """The round's expected win and its variance (jackpot bets go to the pool, not the rack;
    returned bets are in no handle), and what its bets gave the house."""
    odds = {bet.spot: bet for bet in game(round_.game).bet_odds(round_.house_settings)}
    expected, won = Expectation(), Decimal(0)
    for bet in round_.results:
        if bet.spot == "jackpot":
            continue
        won += bet.house_win
        if bet.outcome != "returned":
            profile = odds[bet.spot]
            expected += Expectation(bet.stake * profile.edge, bet.stake**2 * profile.variance)
    return expected, won


def rounds_expectation(rounds: Any) -> tuple[Expectation, Decimal]:
    expected, won = Expectation(), Decimal(0)
    for round_ in rounds:
        more, gained = round_expectation(round_)
        expected, won = expected + more, won + gained
    return expected, won
