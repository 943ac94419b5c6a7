"""Q Poker over recorded facts (DICJ 89/2004): the engine's round value, replayed in order."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

from ledger.core.errors import InvalidInput, RuleViolation
from ledger.games.common import BetResult, Consequence
from ledger.games.facts import (
    BetFact,
    CardFact,
    DecisionFact,
    Procedure,
    RoundFacts,
    check_shuffler_failure,
    target_number,
)
from ledger.games.q_poker import rules as q_poker
from ledger.games.q_poker.game import GAME
from ledger.games.q_poker.rules import DEALER, QPokerRound
from ledger.games.replayer import Replayer


def _recipient(target: str) -> int:
    if target == "dealer":
        return DEALER
    box = target_number(target, "box")
    if box is None:
        raise InvalidInput(f"a Q Poker card goes to a box or the dealer, not '{target}'.")
    return box


def _spot(bet: BetFact) -> q_poker.Spot:
    """The recorded spot, as `Bet` reads it: `Bet` itself refuses a spot Q Poker has not."""
    return cast(q_poker.Spot, bet.spot)


def _equipment(facts: RoundFacts) -> q_poker.Equipment:
    shuffler = facts.dealing == q_poker.Equipment.SHUFFLER.value
    return q_poker.Equipment.SHUFFLER if shuffler else q_poker.Equipment.SHOE


def _step(round_: QPokerRound, kind: str, fact: Any) -> QPokerRound:
    if kind == "bet":
        return round_.place_bet(q_poker.Bet(fact.box, fact.spot, fact.amount, fact.player))
    if kind == "card":
        return round_.deal(_recipient(fact.to), fact.card)
    if kind == "decision":
        return round_.decide(fact.box, fact.player, fact.decision)
    if kind == "irregularity":
        return round_.record_irregularity(fact.kind, fact.box, fact.cards)
    if kind == "reveal":
        return round_.show_dealer()
    return round_


replay: Replayer[QPokerRound] = Replayer(
    lambda facts: QPokerRound(equipment=_equipment(facts)), _step)
"""The engine's round after every recorded fact, in the order recorded."""


class QPokerProcedure(Procedure):
    game = GAME.code
    game_name = GAME.name
    spots = tuple(spot.value for spot in q_poker.Spot)
    has_decisions = True
    has_reveal = True

    def check_bet(self, facts: RoundFacts, bet: BetFact) -> None:
        if bet.spot not in self.spots:
            raise InvalidInput(f"'{bet.spot}' is not a bet of {self.name}: the spots are "
                               f"{', '.join(self.spots)}.")
        boxes = cast(q_poker.QPokerSettings, facts.settings).boxes  # art. 2(1): eight or more
        if not 1 <= bet.box <= boxes:
            raise InvalidInput(f"there is no box {bet.box}: this table has boxes 1 to {boxes}.")
        replay(facts).verify_bet(q_poker.Bet(bet.box, _spot(bet), bet.amount, bet.player))
        if facts.betting_closed:
            raise RuleViolation(f"betting is closed: no bet is accepted on box {bet.box}.")

    def check_card(self, facts: RoundFacts, card: CardFact) -> CardFact:
        replay(facts).verify_card(_recipient(card.to), card.card)
        return card

    def check_decision(self, facts: RoundFacts, decision: DecisionFact) -> None:
        replay(facts).verify_decision(decision.box, decision.player, decision.decision)

    def check_reveal(self, facts: RoundFacts) -> None:
        replay(facts).verify_show_dealer()

    def classify(self, facts: RoundFacts, kind: str, box: int | None,
                 correctable: bool) -> Consequence:
        consequence = q_poker.classify_irregularity(kind)
        if kind == q_poker.Irregularity.SHUFFLER_FAILURE:
            check_shuffler_failure(facts, q_poker.HAND_SIZE, "art. 11(5)")
        if consequence is Consequence.BOX_VOID:  # check the box really holds no bet
            replay(facts).record_irregularity(kind, box, ())
        return consequence

    def classify_exposure(self, facts: RoundFacts, exposed: CardFact) -> tuple[str, Consequence]:
        if facts.revealed:  # art. 11(2)-(3) are mistakes of the deal, not of the showdown
            raise RuleViolation("the dealer's cards are shown: no card is exposed by mistake now.")
        kind = (q_poker.Irregularity.DEALER_CARD_EXPOSED if exposed.to == "dealer"
                else q_poker.Irregularity.CARD_EXPOSED_DURING_DEAL)
        return kind.value, q_poker.classify_irregularity(kind)

    def check_settle(self, facts: RoundFacts) -> None:
        round_ = replay(facts)
        if not round_.dealer_shown:
            raise RuleViolation("the dealer's cards must be shown before the round is settled.")

    def settle(self, facts: RoundFacts) -> tuple[BetResult, ...]:
        self.check_settle(facts)
        return q_poker.settle(replay(facts))

    def outcome(self, facts: RoundFacts) -> dict[str, object]:
        """What the settlement rests on: every hand and whether the dealer played (art. 9(4))."""
        round_ = replay(facts)
        return {
            "dealer": str(q_poker.evaluate(round_.dealer_hand)),
            "dealer_qualifies": q_poker.dealer_qualifies(round_.dealer_hand),
            "boxes": {str(box): str(q_poker.evaluate(round_.hand(box))) for box in round_.boxes},
        }

    def settle_void(self, facts: RoundFacts, carry_jackpot: bool) -> tuple[BetResult, ...]:
        round_ = QPokerRound(equipment=_equipment(facts))
        for bet in facts.bets:
            round_ = round_.place_bet(q_poker.Bet(bet.box, _spot(bet), bet.amount, bet.player))
        return q_poker.settle(replace(round_, void=True))


PROCEDURE = QPokerProcedure()
