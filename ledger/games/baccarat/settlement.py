"""Baccarat bets and settlement (arts. 12, 13, 17, 18) and irregularities."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

from ledger.core.errors import InvalidInput, RuleViolation
from ledger.games.baccarat.coup import (
    BANKER_COMMISSION,
    Coup,
    Winner,
    _parse,
)
from ledger.games.baccarat.settings import (
    TieHandling,
)
from ledger.games.common import ZERO, BetResult, Consequence, Outcome, commission_on, money, pay

# --- bets and settlement (arts. 12, 13, 17, 18) --------------------------------------------


class Spot(StrEnum):
    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"
    PLAYER_PAIR = "player_pair"
    BANKER_PAIR = "banker_pair"


ODDS: dict[Spot, Fraction] = {  # art. 17
    Spot.PLAYER: Fraction(1), Spot.BANKER: Fraction(1), Spot.TIE: Fraction(8),
    Spot.PLAYER_PAIR: Fraction(11), Spot.BANKER_PAIR: Fraction(11),
}


@dataclass(frozen=True, slots=True)
class Bet:
    """One bet of a coup: a box, a spot, a stake and, where known, the player who placed it."""

    box: int
    spot: Spot
    stake: Decimal
    player: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.box, bool) or not isinstance(self.box, int) or self.box < 1:
            raise InvalidInput(f"'{self.box}' is not a box: boxes are numbered from 1.")
        object.__setattr__(self, "spot", _parse(Spot, self.spot, "baccarat bet spot"))
        try:
            stake = money(self.stake)
        except (TypeError, ValueError, ArithmeticError):
            raise InvalidInput(f"'{self.stake}' is not a stake in patacas and avos.") from None
        if stake <= 0:
            raise InvalidInput(f"a stake of {stake} on box {self.box}: a stake must be positive.")
        object.__setattr__(self, "stake", stake)


def _wins(spot: Spot, coup: Coup) -> bool:
    if spot is Spot.PLAYER_PAIR:
        return coup.player_pair
    if spot is Spot.BANKER_PAIR:
        return coup.banker_pair
    return spot.value == coup.winner.value  # player, banker and tie name the winner


def _lost(bet: Bet) -> BetResult:
    return BetResult(
        box=bet.box, spot=bet.spot, stake=bet.stake, outcome=Outcome.LOST, player=bet.player
    )


def _settle(bet: Bet, coup: Coup) -> BetResult:
    if coup.winner is Winner.TIE and bet.spot in (Spot.PLAYER, Spot.BANKER):
        # art. 12: neither wins nor loses; what follows (withdrawn, kept, changed) is the
        # house's tie handling, applied to the next coup's bets.
        return replace(_lost(bet), outcome=Outcome.PUSHED, returned=bet.stake)
    if not _wins(bet.spot, coup):
        return _lost(bet)
    payout = pay(bet.stake, ODDS[bet.spot])
    commission = commission_on(payout, BANKER_COMMISSION) if bet.spot is Spot.BANKER else ZERO
    return replace(
        _lost(bet), outcome=Outcome.WON, returned=bet.stake, payout=payout, commission=commission
    )


def settle_coup(bets: Iterable[Bet], coup: Coup) -> tuple[BetResult, ...]:
    """Each bet's result, in the order given (arts. 12, 13, 17, 18)."""
    return tuple(_settle(bet, coup) for bet in bets)


def settle_void_coup(bets: Iterable[Bet]) -> tuple[BetResult, ...]:
    """A void coup (art. 10) returns every stake in full."""
    return tuple(replace(_lost(bet), outcome=Outcome.RETURNED, returned=bet.stake) for bet in bets)


def verify_bet_after_tie(pushed: BetResult, new: Bet | None, handling: TieHandling | str) -> None:
    """Refuse a next-coup bet that the house's tie handling (art. 12) does not allow.

    `pushed` is a player or banker bet pushed by a tie; `new` is what stands on the same box
    for the next coup (None: nothing stands). Withdrawn bets leave the player free.
    """
    option = _parse(TieHandling, handling, "tie handling")
    if option is TieHandling.WITHDRAWN:
        return
    whose = f" (player {pushed.player})" if pushed.player else ""
    was = f"box {pushed.box}'s {pushed.stake} on the {pushed.spot}{whose}"
    rule = f"this house's tie handling is '{option}' (art. 12)"
    if new is None:
        raise RuleViolation(f"{rule}: {was} stays in play for the next coup.")
    same_side, same_stake = new.spot == pushed.spot, new.stake == pushed.stake
    if option is TieHandling.KEPT and not (same_side and same_stake):
        raise RuleViolation(f"{rule}: {was} cannot be changed.")
    if option is TieHandling.CHANGED_AMOUNT and not same_side:
        raise RuleViolation(f"{rule}: {was} may change amount but not side.")
    if option is TieHandling.CHANGED_SIDE and not (
        same_stake and new.spot in (Spot.PLAYER, Spot.BANKER)
    ):
        raise RuleViolation(f"{rule}: {was} may move between player and banker, same amount.")


# --- irregularities (arts. 4, 10) --------------------------------------------------------


class Irregularity(StrEnum):
    CARD_FACE_UP = "card_face_up"  # art. 4: a card leaves the shoe or machine face up
    INITIAL_DEAL_ERROR = "initial_deal_error"  # art. 10: error in the first four cards
    THIRD_CARD_ERROR = "third_card_error"  # art. 10: error in the additional cards


def classify_irregularity(kind: Irregularity | str, correctable: bool) -> Consequence:
    """What an irregularity does to the coup.

    A card out face up is valid and play goes on (art. 4). A dealing error is corrected at
    once; when it cannot be corrected at all the coup is void (art. 10).
    """
    if _parse(Irregularity, kind, "baccarat irregularity") is Irregularity.CARD_FACE_UP:
        return Consequence.ROUND_CONTINUES
    return Consequence.CORRECTED if correctable else Consequence.ROUND_VOID
