"""The vocabulary every game's settlement speaks: outcomes, bet results, money rounding.

Money is `Decimal` in patacas with two places (avos). A payout that is not a whole number of
avos (3:2 or 1:2 on an odd stake) is rounded in the player's favour; so is commission (the
house takes the fraction down). That is the ledger's rule, written in the README.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_UP, Decimal
from enum import StrEnum
from fractions import Fraction

AVO = Decimal("0.01")
MAX_AMOUNT = Decimal("999999999.99")
"""The largest amount the ledger records in one place: a bet, a prize, a pool, a setting."""
ZERO = Decimal("0.00")


def money(value: Decimal | int | str) -> Decimal:
    """An exact amount in patacas with two places; refuses floats and sub-avo amounts."""
    if isinstance(value, float):
        raise TypeError("money is never a float: pass a Decimal, an int or a string")
    amount = Decimal(value)
    if amount != amount.quantize(AVO):
        raise ValueError(f"{value} has more than two decimal places")
    return amount.quantize(AVO)


def pay(stake: Decimal, odds: Fraction) -> Decimal:
    """Winnings on `stake` at `odds` (Fraction(3, 2) for 3:2), rounded up to the avo."""
    exact = Fraction(stake) * odds
    return (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(AVO, ROUND_UP)


def commission_on(win: Decimal, rate: Fraction) -> Decimal:
    """Commission the house takes from a win, rounded down to the avo."""
    exact = Fraction(win) * rate
    return (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(AVO, ROUND_DOWN)


class Outcome(StrEnum):
    WON = "won"
    LOST = "lost"
    RETURNED = "returned"  # void: the stake goes back, nothing won or lost
    PUSHED = "pushed"  # baccarat tie on player/banker: neither wins nor loses
    SURRENDERED = "surrendered"  # Q Poker: half the play bet lost, half returned
    CARRIED = "carried"  # Stud Poker jackpot bet carried to the next round after a void


@dataclass(frozen=True, slots=True)
class BetResult:
    """What happened to one bet.

    `returned` is the part of the stake handed back, `payout` the winnings the house pays on
    top, `commission` what the house keeps out of the winnings. For every bet,
    house_win = stake - returned - payout + commission, so a round conserves money.
    """

    box: int
    spot: str
    stake: Decimal
    outcome: Outcome
    returned: Decimal = ZERO
    payout: Decimal = ZERO
    commission: Decimal = ZERO
    capped: bool = False  # the payout was cut to the house maximum
    player: str | None = None  # for games where several players bet on one box

    @property
    def house_win(self) -> Decimal:
        """What the house gained on this bet (negative when it paid out)."""
        return self.stake - self.returned - self.payout + self.commission


class Consequence(StrEnum):
    """What an irregularity does to the round, as each regulation's article orders."""

    ROUND_CONTINUES = "round_continues"
    DEALER_CARD_STAYS_UP = "dealer_card_stays_up"  # Stud art. 11: rest of dealer's down
    BOX_VOID = "box_void"
    ROUND_VOID = "round_void"  # every bet returned
    ROUND_VOID_JACKPOT_CARRIED = "round_void_jackpot_carried"  # Stud Poker: jackpot bets carry
    CORRECTED = "corrected"  # Fortune 8 / baccarat: error corrected at once, play goes on
