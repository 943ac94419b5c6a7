"""Stud Poker over recorded facts (DICJ 61/2004, 69/2003): deal, raise or fold, reveal, settle."""

from __future__ import annotations

from decimal import Decimal
from typing import cast

from ledger.core.errors import InvalidInput, RuleViolation
from ledger.games import jackpot
from ledger.games.common import ZERO, BetResult, Consequence, Outcome
from ledger.games.facts import (
    BetFact,
    CardFact,
    DecisionFact,
    Procedure,
    RoundFacts,
    check_shuffler_failure,
    target_number,
)
from ledger.games.stud_poker import rules as stud_poker
from ledger.games.stud_poker.game import GAME
from ledger.games.stud_poker.rules import (
    ANTE,
    DEALER,
    JACKPOT,
    DealMethod,
    Decision,
    Position,
    StudBox,
    StudPokerRound,
    StudPokerSettings,
)

SPOTS = (ANTE, JACKPOT)  # the raise is a decision, not a bet placed before the deal


def _position(target: str) -> Position:
    if target == DEALER:
        return DEALER
    box = target_number(target, "box")
    if box is None:
        raise InvalidInput(f"a Stud Poker card goes to a box or the dealer, not '{target}'.")
    return box


def _antes(facts: RoundFacts) -> dict[int, Decimal]:
    return {b.box: b.amount for b in facts.bets if b.spot == ANTE}


def _jackpots(facts: RoundFacts) -> dict[int, Decimal]:
    return {b.box: b.amount for b in facts.bets if b.spot == JACKPOT}


def _dealer_card_exposed(facts: RoundFacts) -> bool:
    return any(card.to == DEALER for card in facts.exposed)


def _method(facts: RoundFacts) -> DealMethod:
    return DealMethod.SHUFFLER if facts.dealing == DealMethod.SHUFFLER.value else DealMethod.SHOE


def _decision(facts: RoundFacts, box: int) -> DecisionFact | None:
    return next((d for d in facts.decisions if d.box == box), None)


def _playing_boxes(facts: RoundFacts) -> list[int]:
    return [box for box in sorted(_antes(facts)) if box not in facts.void_boxes]


def _check_box_without_bet(facts: RoundFacts, box: int | None) -> None:
    """Art. 11, 3) voids a box that received cards without holding a bet, and only such a box."""
    if box is None:
        raise InvalidInput("name the box that received cards without a bet (art. 11, 3)).")
    if box not in stud_poker.BOXES:
        raise InvalidInput(f"there is no box {box}: Stud Poker boxes are 1 to 7.")
    if box in _antes(facts):
        raise RuleViolation(f"box {box} holds bets: art. 11, 3) voids only a box without a bet.")


def _check_exposable(facts: RoundFacts, exposed: CardFact) -> None:
    """Only a card dealt face down can be exposed by mistake, and each counts once (art. 11)."""
    if facts.revealed:
        raise RuleViolation("the dealer's hand is revealed: no card can be exposed by mistake now.")
    if any(c.card == exposed.card and c.face_up for c in facts.cards):
        raise RuleViolation(
            f"{exposed.card} was dealt face up: only a card dealt face down can be exposed "
            "by mistake."
        )
    if any(c.card == exposed.card for c in facts.exposed):
        raise RuleViolation(f"{exposed.card} is already exposed: a card counts once.")


def study_round(facts: RoundFacts) -> StudPokerRound:
    """The engine's round: every box with an ante, its cards and decision."""
    antes, jackpots = _antes(facts), _jackpots(facts)
    boxes = []
    for box in sorted(antes):
        decision = _decision(facts, box)
        boxes.append(StudBox(
            box, antes[box], facts.hand(f"box:{box}"),
            Decision(decision.decision) if decision else Decision.FOLD, jackpots.get(box, ZERO),
        ))
    return StudPokerRound(tuple(boxes), facts.hand(DEALER), facts.void_boxes & set(antes))


class StudPokerProcedure(Procedure):
    game = GAME.code
    game_name = GAME.name
    spots = SPOTS
    has_decisions = True
    has_reveal = True

    def check_bet(self, facts: RoundFacts, bet: BetFact) -> None:
        super().check_bet(facts, bet)
        if bet.amount <= 0:  # the jackpot bet has no table minimum to catch this
            raise InvalidInput(f"box {bet.box} {bet.spot}: a bet is above zero, not {bet.amount}.")
        if facts.bets_on(bet.box, bet.spot) and bet.carried_from is None:
            raise RuleViolation(f"box {bet.box} already has its {bet.spot}: one player per box.")
        if bet.spot == JACKPOT and bet.carried_from is None:
            stud_poker.check_jackpot_bet(bet.box, _antes(facts).get(bet.box, ZERO),
                                         first_card_dealt=bool(facts.cards))

    def check_card(self, facts: RoundFacts, card: CardFact) -> CardFact:
        positions = [_position(c.to) for c in facts.dealt]
        step = stud_poker.check_next_card(
            _antes(facts), _method(facts), positions, _position(card.to),
            dealer_card_exposed=_dealer_card_exposed(facts),
        )
        if card.card in {c.card for c in facts.cards}:
            raise InvalidInput(f"{card.card} is already dealt: Stud Poker uses one deck.")
        return CardFact(card.to, card.card, step.face_up, card.shoe_position)

    def check_decision(self, facts: RoundFacts, decision: DecisionFact) -> None:
        if decision.decision not in tuple(Decision):
            raise InvalidInput(f"'{decision.decision}' is not a decision: use raise or fold.")
        if decision.decision == Decision.FOLD and decision.amount:
            raise InvalidInput(f"box {decision.box} folds: a fold puts no amount on the table.")
        box, ante = decision.box, _antes(facts).get(decision.box)
        if ante is None or box in facts.void_boxes:
            raise RuleViolation(f"box {box} has no hand in play: there is nothing to decide.")
        if len(facts.hand(f"box:{box}")) < 5 or len(facts.hand(DEALER)) < 5:
            raise RuleViolation(f"box {box} decides once every hand has its five cards (art. 6).")
        if facts.revealed:
            raise RuleViolation("the dealer's hand is already revealed: decisions come before.")
        if _decision(facts, box) is not None:
            raise RuleViolation(f"box {box} already decided: a decision cannot be undone.")
        if decision.decision == Decision.RAISE:
            stud_poker.check_raise(box, ante, decision.amount)

    def check_reveal(self, facts: RoundFacts) -> None:
        if facts.revealed:
            raise RuleViolation("the dealer's hand is already revealed.")
        waiting = [box for box in _playing_boxes(facts) if _decision(facts, box) is None]
        if waiting:
            names = ", ".join(f"box {box}" for box in waiting)
            raise RuleViolation(f"{names} must raise or fold before the dealer reveals.")
        if len(facts.hand(DEALER)) < 5:
            raise RuleViolation("the dealer's hand is not complete: the deal is not finished.")

    def classify(self, facts: RoundFacts, kind: str, box: int | None,
                 correctable: bool) -> Consequence:
        try:
            irregularity = stud_poker.Irregularity(kind)
        except ValueError:
            known = ", ".join(stud_poker.Irregularity)
            raise InvalidInput(f"'{kind}' is not a Stud Poker irregularity: use one of {known}.") from None
        if irregularity is stud_poker.Irregularity.CARDS_EXPOSED:
            raise InvalidInput("record an exposed card with `expose`, naming the card.")
        if irregularity is stud_poker.Irregularity.CARDS_TO_BOX_WITHOUT_BET:
            _check_box_without_bet(facts, box)
        if irregularity is stud_poker.Irregularity.SHUFFLER_FAILURE:
            check_shuffler_failure(facts, stud_poker.HAND_SIZE, "art. 11, 4)")
        return stud_poker.classify_irregularity(irregularity)

    def classify_exposure(self, facts: RoundFacts, exposed: CardFact) -> tuple[str, Consequence]:
        _check_exposable(facts, exposed)
        kind = stud_poker.Irregularity.CARDS_EXPOSED
        consequence = stud_poker.classify_irregularity(
            kind, exposed=len(facts.exposed) + 1, dealer_card=exposed.to == DEALER
        )
        return kind.value, consequence

    def check_settle(self, facts: RoundFacts) -> None:
        if not facts.revealed:
            raise RuleViolation("the dealer's hand must be revealed before the round is settled.")

    def settle(self, facts: RoundFacts) -> tuple[BetResult, ...]:
        self.check_settle(facts)
        settings = cast(StudPokerSettings, facts.settings)
        antes = _antes(facts)
        carried = [jackpot.CarriedJackpotBet(b.box, b.amount) for b in facts.bets
                   if b.spot == JACKPOT and b.box not in antes]
        _, returned = jackpot.admit_carried(carried, antes)
        return stud_poker.settle(study_round(facts), settings) + returned

    def settle_void(self, facts: RoundFacts, carry_jackpot: bool) -> tuple[BetResult, ...]:
        raises = {d.box: d.amount for d in facts.decisions if d.decision == Decision.RAISE}
        results = stud_poker.settle_void(_antes(facts), _jackpots(facts), raises)
        if carry_jackpot:
            return results
        return tuple(
            BetResult(r.box, r.spot, r.stake, Outcome.RETURNED, returned=r.stake)
            if r.spot == JACKPOT else r for r in results
        )

    def jackpot_claims(self, facts: RoundFacts) -> tuple[jackpot.JackpotClaim, ...]:
        return jackpot.claims_from_round(study_round(facts))

    def jackpot_stakes(self, facts: RoundFacts) -> list[Decimal]:
        """The jackpot bets that play this round: on a box with an ante that is not void."""
        antes = _antes(facts)
        return [b.amount for b in facts.bets
                if b.spot == JACKPOT and b.box in antes and b.box not in facts.void_boxes]


PROCEDURE = StudPokerProcedure()
