"""Q Poker settlement (arts. 9 and 10)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from ledger.core.errors import RuleViolation
from ledger.games.common import BetResult, Outcome, pay
from ledger.games.q_poker.hands import (
    QUEEN_HIGH,
    Category,
    HandValue,
    evaluate,
)
from ledger.games.q_poker.table import (
    Bet,
    Decision,
    QPokerRound,
    Spot,
)

# --- Settlement (art. 9 and 10) ------------------------------------------------------------

BONUS_ODDS = {  # art. 10; a high card loses the bonus (art. 9(1))
    Category.STRAIGHT_FLUSH: Fraction(40),
    Category.THREE_OF_A_KIND: Fraction(30),
    Category.STRAIGHT: Fraction(6),
    Category.FLUSH: Fraction(4),
    Category.ONE_PAIR: Fraction(1),
}
PLAY_ODDS = {  # art. 9(7); any other winning hand pays 1:1
    Category.STRAIGHT_FLUSH: Fraction(3),
    Category.THREE_OF_A_KIND: Fraction(2),
    Category.STRAIGHT: Fraction(3, 2),
}
DEALER_NOT_QUALIFIED_ODDS = Fraction(1, 2)  # art. 9(5): the player wins half his bet
SURRENDER_KEEPS = Fraction(1, 2)  # art. 9(3): the player loses half his bet


def _result(bet: Bet, outcome: Outcome, returned: Decimal, payout: Decimal) -> BetResult:
    return BetResult(
        box=bet.box,
        spot=str(bet.spot),
        stake=bet.stake,
        outcome=outcome,
        returned=returned,
        payout=payout,
        player=bet.player,
    )


def _returned(bet: Bet) -> BetResult:
    return _result(bet, Outcome.RETURNED, bet.stake, Decimal("0.00"))


def _lost(bet: Bet) -> BetResult:
    return _result(bet, Outcome.LOST, Decimal("0.00"), Decimal("0.00"))


def _won(bet: Bet, odds: Fraction) -> BetResult:
    return _result(bet, Outcome.WON, bet.stake, pay(bet.stake, odds))


def _bets_on(round_: QPokerRound, spot: Spot) -> list[Bet]:
    return sorted((bet for bet in round_.bets if bet.spot == spot), key=lambda bet: bet.box)


def settle_bonus(round_: QPokerRound) -> tuple[BetResult, ...]:
    """Art. 9(1) and 10: settled first, as soon as the boxes' cards are opened."""
    bets = _bets_on(round_, Spot.BONUS)
    if round_.void:
        return tuple(_returned(bet) for bet in bets)
    if not round_.deal_complete:
        raise RuleViolation("bonus bets are settled once every box holds three cards (art. 9(1)).")
    results = []
    for bet in bets:
        odds = BONUS_ODDS.get(evaluate(round_.hand(bet.box)).category)
        results.append(_lost(bet) if odds is None else _won(bet, odds))
    return tuple(results)


def _settle_play_bet(round_: QPokerRound, bet: Bet, dealer: HandValue) -> BetResult:
    if round_.decision(bet.box, bet.player) == Decision.SURRENDER:
        kept = pay(bet.stake, SURRENDER_KEEPS)  # rounded up: the player's favour
        return _result(bet, Outcome.SURRENDERED, kept, Decimal("0.00"))
    if dealer.key[:2] < QUEEN_HIGH:
        return _won(bet, DEALER_NOT_QUALIFIED_ODDS)
    box = evaluate(round_.hand(bet.box))
    if dealer > box:  # hands from one deck never tie: checked over all 22,100 hands
        return _lost(bet)
    return _won(bet, PLAY_ODDS.get(box.category, Fraction(1)))


def settle_play(round_: QPokerRound) -> tuple[BetResult, ...]:
    """Art. 9(3)-(7): after every decision and the dealer's cards shown."""
    bets = _bets_on(round_, Spot.PLAY)
    if round_.void:
        return tuple(_returned(bet) for bet in bets)
    if not round_.dealer_shown:
        raise RuleViolation("play bets are settled once the dealer's cards are shown (art. 9(4)).")
    dealer = evaluate(round_.dealer_hand)
    return tuple(_settle_play_bet(round_, bet, dealer) for bet in bets)


def settle(round_: QPokerRound) -> tuple[BetResult, ...]:
    """Every bet of the round, in art. 9's order: bonus bets first, then play bets, box by box."""
    return settle_bonus(round_) + settle_play(round_)
