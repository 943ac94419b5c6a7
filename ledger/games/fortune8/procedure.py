"""Fortune 8 over recorded facts (DICJ 71/2009): announce, burn, one card per space."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

from ledger.core.errors import InvalidInput, RuleViolation
from ledger.games.common import BetResult, Consequence
from ledger.games.facts import BURN, BetFact, CardFact, Procedure, RoundFacts, target_number
from ledger.games.fortune8 import rules as fortune8
from ledger.games.fortune8.game import GAME
from ledger.games.fortune8.rules import Fortune8Round, Fortune8Settings
from ledger.games.replayer import Replayer


def _bet(fact: BetFact) -> fortune8.Bet:
    return fortune8.Bet(fact.box, fortune8.Box(fact.spot), fact.amount, fact.player)


def _step(round_: Fortune8Round, kind: str, fact: Any) -> Fortune8Round:
    if kind == "bet":
        return round_.place_bet(_bet(fact))
    if kind == "announce":
        return round_.announce(fact)
    if kind == "card" and fact.to == BURN:
        return round_.burn(fact.card)
    if kind == "card":
        return round_.deal(_space(fact.to), fact.card)
    if kind == "irregularity":
        return round_.record_irregularity(fact.kind, fact.consequence is not
                                          Consequence.ROUND_VOID)
    return round_


replay: Replayer[Fortune8Round] = Replayer(
    lambda facts: Fortune8Round.open(cast(Fortune8Settings, facts.settings)), _step)
"""The engine's round after every recorded fact, in the order recorded."""


def _space(target: str) -> int:
    space = target_number(target, "space")
    if space is None:
        raise InvalidInput(f"a Fortune 8 card goes to a space (space:1 to space:7), not '{target}'.")
    return space


class Fortune8Procedure(Procedure):
    game = GAME.code
    game_name = GAME.name
    spots = tuple(box.value for box in fortune8.Box)
    box_name = "space"

    def check_bet(self, facts: RoundFacts, bet: BetFact) -> None:
        super().check_bet(facts, bet)
        replay(facts).verify_bet(_bet(bet))

    def check_announce(self, facts: RoundFacts, mode: str) -> None:
        replay(facts).verify_announce(mode)

    def check_card(self, facts: RoundFacts, card: CardFact) -> CardFact:
        round_ = replay(facts)
        if card.to == BURN:
            round_.verify_burn(card.card)
            return replace(card, face_up=False)
        round_.verify_card(_space(card.to), card.card)
        return replace(card, face_up=True)  # art. 4(6): one card face up on each space

    def classify(self, facts: RoundFacts, kind: str, box: int | None,
                 correctable: bool) -> Consequence:
        return fortune8.classify_irregularity(kind, correctable)

    def classify_exposure(self, facts: RoundFacts, exposed: CardFact) -> tuple[str, Consequence]:
        kind = fortune8.Irregularity.CARD_LEFT_SHOE_FACE_UP
        return kind.value, fortune8.classify_irregularity(kind)

    def check_settle(self, facts: RoundFacts) -> None:
        round_ = replay(facts)
        if not round_.deal_complete:
            waiting = ", ".join(map(str, round_.spaces_waiting)) or "the burn"
            raise RuleViolation(f"the deal is not complete: waiting for {waiting}.")

    def settle(self, facts: RoundFacts) -> tuple[BetResult, ...]:
        self.check_settle(facts)
        return fortune8.settle(replay(facts))

    def outcome(self, facts: RoundFacts) -> dict[str, object]:
        """The announced mode and each space's card with the box it makes win (art. 6, 7)."""
        round_ = replay(facts)
        return {
            "mode": round_.mode.value if round_.mode else None,
            "spaces": {str(space): {"card": str(card), "wins": fortune8.winning_box(card)}
                       for space, card in sorted(round_.cards, key=lambda dealt: dealt[0])},
        }

    def settle_void(self, facts: RoundFacts, carry_jackpot: bool) -> tuple[BetResult, ...]:
        round_ = Fortune8Round.open(cast(Fortune8Settings, facts.settings))
        return fortune8.settle(replace(round_, bets=tuple(_bet(b) for b in facts.bets), void=True))


PROCEDURE = Fortune8Procedure()
