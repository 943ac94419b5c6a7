"""High Card over recorded facts: one card to each box with a bet, in box order, then the
dealer's; every card face up."""

from __future__ import annotations

from dataclasses import replace

from ledger.core.errors import InvalidInput, RuleViolation
from ledger.games.common import BetResult, Consequence, Outcome
from ledger.games.facts import DEALER, CardFact, Procedure, RoundFacts, box_target, target_number
from tests.toy_game.rules import SPOT, settle


def _due(facts: RoundFacts) -> str | None:
    """Where the next card goes: the first box with a bet and no card, then the dealer."""
    for box in facts.boxes_with_bets():
        if not facts.hand(box_target(box)):
            return box_target(box)
    return None if facts.hand(DEALER) else DEALER


class HighCardProcedure(Procedure):
    game = "high-card"
    spots = (SPOT,)

    def check_card(self, facts: RoundFacts, card: CardFact) -> CardFact:
        due = _due(facts)
        if card.to != DEALER and target_number(card.to, "box") is None:
            raise InvalidInput(f"a High Card card goes to a box or the dealer, not '{card.to}'.")
        if due is None:
            raise RuleViolation("every box with a bet and the dealer have their card.")
        if card.to != due:
            raise RuleViolation(f"the next card goes to {due}, not {card.to}.")
        return replace(card, face_up=True)

    def classify(self, facts: RoundFacts, kind: str, box: int | None,
                 correctable: bool) -> Consequence:
        return Consequence.ROUND_VOID

    def classify_exposure(self, facts: RoundFacts, exposed: CardFact) -> tuple[str, Consequence]:
        return "card_exposed", Consequence.ROUND_CONTINUES  # every card is dealt face up

    def check_settle(self, facts: RoundFacts) -> None:
        due = _due(facts)
        if due is not None:
            raise RuleViolation(f"the deal is not complete: the next card goes to {due}.")

    def settle(self, facts: RoundFacts) -> tuple[BetResult, ...]:
        self.check_settle(facts)
        dealer = facts.hand(DEALER)[0]
        return tuple(settle(bet.amount, facts.hand(box_target(bet.box))[0], dealer, bet.box,
                            bet.player) for bet in facts.bets)

    def settle_void(self, facts: RoundFacts, carry_jackpot: bool) -> tuple[BetResult, ...]:
        return tuple(BetResult(bet.box, bet.spot, bet.amount, Outcome.RETURNED,
                               returned=bet.amount, player=bet.player) for bet in facts.bets)

    def outcome(self, facts: RoundFacts) -> dict[str, object]:
        return {"dealer_card": str(facts.hand(DEALER)[0])}


PROCEDURE = HighCardProcedure()
