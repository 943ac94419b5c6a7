"""Baccarat over recorded facts: P-B-P-B then the tableau (DICJ 55/2004)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import cast

from ledger.core.cards import Card
from ledger.core.errors import InvalidInput, RuleViolation, WrongState
from ledger.core.formatting import counted
from ledger.games.baccarat import rules as baccarat
from ledger.games.baccarat.game import GAME
from ledger.games.baccarat.rules import BaccaratSettings, Side
from ledger.games.common import BetResult, Consequence
from ledger.games.facts import BURN, BetFact, CardFact, Procedure, RoundFacts, ShoeAtStart
from ledger.games.settings import HouseSettings

SIDES = (Side.PLAYER.value, Side.BANKER.value)


def _bet(fact: BetFact) -> baccarat.Bet:
    return baccarat.Bet(fact.box, baccarat.Spot(fact.spot), fact.amount, fact.player)


def _bets(facts: RoundFacts) -> list[baccarat.Bet]:
    return [_bet(fact) for fact in facts.bets]


def _coup_cards(facts: RoundFacts) -> list[Card]:
    return [card.card for card in facts.cards if card.to in SIDES]


def check_tie_bets_stand(tied: list[BetResult], facts: RoundFacts,
                         handling: baccarat.TieHandling | str) -> None:
    """Art. 12: each player or banker bet that a tie pushed in the previous coup must stand, on
    its box and for the same player, as the house's tie handling allows; checked as betting
    closes on this coup. A bet beside it on the same box is a new bet."""
    unmatched = [bet for bet in facts.bets if bet.spot in SIDES]
    missing = []
    for pushed in tied:
        standing = next((bet for bet in _candidates(pushed, unmatched)
                         if _allowed_after_tie(pushed, bet, handling)), None)
        if standing is None:
            missing.append(pushed)
        else:
            unmatched.remove(standing)
    for pushed in missing:  # the refusal names what is wrong with the likeliest bet left
        left = _candidates(pushed, unmatched)
        baccarat.verify_bet_after_tie(pushed, _bet(left[0]) if left else None, handling)


def _candidates(pushed: BetResult, bets: list[BetFact]) -> list[BetFact]:
    """The bets on the pushed bet's box that may be it, the likeliest first."""
    return sorted(
        (bet for bet in bets if bet.box == pushed.box and _same_player(bet.player, pushed.player)),
        key=lambda bet: (bet.spot != pushed.spot, bet.amount != pushed.stake,
                         bet.player != pushed.player),
    )


def _same_player(placed: str | None, pushed: str | None) -> bool:
    """A player named on both bets must be the same; a bet without a name (the terminal did
    not record who) may be anybody's."""
    return placed is None or pushed is None or placed == pushed


def _allowed_after_tie(pushed: BetResult, fact: BetFact,
                       handling: baccarat.TieHandling | str) -> bool:
    try:
        baccarat.verify_bet_after_tie(pushed, _bet(fact), handling)
    except RuleViolation:
        return False
    return True


class BaccaratProcedure(Procedure):
    game = GAME.code
    game_name = GAME.name
    spots = tuple(spot.value for spot in baccarat.Spot)
    boxes = range(1, baccarat.MAX_BOXES + 1)  # one or two layouts of seven (art. 1(5))

    def check_bet(self, facts: RoundFacts, bet: BetFact) -> None:
        super().check_bet(facts, bet)
        _bet(bet)

    def check_standing_bet(self, facts: RoundFacts, bet: BetFact) -> None:
        baccarat.check_standing_bet(bet.box, cast(BaccaratSettings, facts.settings).seats)

    def check_demonstration(self, settings: HouseSettings, shoe: ShoeAtStart) -> None:
        """Art. 2(2): the house may play up to three demonstration coups at the start of each
        shoe; how many is a house setting (`demonstration_coups`, DICJ authorised). None with
        the automatic shuffler-dealer (art. 2(3)), where no shoe starts."""
        if shoe.automatic:
            raise RuleViolation("no demonstration coup with the automatic shuffler-dealer: its "
                                "cards go back after every coup, no shoe starts (art. 2(3)).")
        if shoe.coups:
            raise WrongState(f"a demonstration coup is played only at the start of a shoe (art. "
                             f"2(2)): table {shoe.table} has dealt {counted(shoe.coups, 'coup')} from "
                             "this one.")
        allowed = cast(BaccaratSettings, settings).demonstration_coups
        if shoe.demonstrations >= allowed:
            raise RuleViolation(
                f"table {shoe.table}'s house settings allow {counted(allowed, 'demonstration coup')} "
                f"a shoe (art. 2(2) allows up to 3), and this shoe has had {shoe.demonstrations}.")

    def check_bets_standing(self, previous: HouseSettings, pushed: Sequence[BetResult],
                            facts: RoundFacts) -> None:
        """Art. 12: the player and banker bets a tie pushed stand as the house's tie handling
        of the coup before says; nothing stands where it withdraws them."""
        handling = cast(BaccaratSettings, previous).tie_handling
        if handling is not baccarat.TieHandling.WITHDRAWN:
            check_tie_bets_stand(list(pushed), facts, handling)

    def check_card(self, facts: RoundFacts, card: CardFact) -> CardFact:
        if card.to == BURN:
            settings = cast(BaccaratSettings, facts.settings)
            if not settings.burn_card_each_coup:
                raise RuleViolation(
                    "this table burns no card before a coup: the house did not choose that "
                    "option (art. 8)."
                )
            if _coup_cards(facts) or any(c.to == BURN for c in facts.cards):
                raise RuleViolation("the card before the coup is burned once, before the deal.")
            return card
        if card.to not in SIDES:
            raise InvalidInput(f"a baccarat card goes to the player or the banker, not '{card.to}'.")
        baccarat.verify_deal(_coup_cards(facts), card.to)
        if facts.dealing == baccarat.Equipment.AUTOMATIC_SHUFFLER_DEALER.value:
            return replace(card, face_up=True)  # art. 7(2): the machine deals face up
        return card

    def classify(self, facts: RoundFacts, kind: str, box: int | None,
                 correctable: bool) -> Consequence:
        return baccarat.classify_irregularity(kind, correctable)

    def classify_exposure(self, facts: RoundFacts, exposed: CardFact) -> tuple[str, Consequence]:
        kind = baccarat.Irregularity.CARD_FACE_UP
        return kind.value, baccarat.classify_irregularity(kind, True)

    def check_settle(self, facts: RoundFacts) -> None:
        cards = _coup_cards(facts)
        due = baccarat.next_card_to(cards)
        if len(cards) < 4 or due is not None:
            side = due.value if due is not None else ("player" if len(cards) % 2 == 0 else "banker")
            raise RuleViolation(f"the coup is not complete: the next card goes to the {side}.")

    def settle(self, facts: RoundFacts) -> tuple[BetResult, ...]:
        self.check_settle(facts)
        return baccarat.settle_coup(_bets(facts), baccarat.play_coup(_coup_cards(facts)))

    def settle_void(self, facts: RoundFacts, carry_jackpot: bool) -> tuple[BetResult, ...]:
        return baccarat.settle_void_coup(_bets(facts))

    def outcome(self, facts: RoundFacts) -> dict[str, object]:
        coup = baccarat.play_coup(_coup_cards(facts))
        return {"winner": coup.winner.value, "player_total": coup.player_total,
                "banker_total": coup.banker_total, "player_pair": coup.player_pair,
                "banker_pair": coup.banker_pair}


PROCEDURE = BaccaratProcedure()

