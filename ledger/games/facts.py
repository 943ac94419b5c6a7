"""The facts of a round as recorded, in the same shape for every game."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from ledger.core.cards import Card
from ledger.core.errors import InvalidInput, RuleViolation
from ledger.games.common import BetResult, Consequence
from ledger.games.settings import HouseSettings

DEALER = "dealer"
BURN = "burn"


def box_target(box: int) -> str:
    return f"box:{box}"


def space_target(space: int) -> str:
    return f"space:{space}"


def target_number(target: str, kind: str) -> int | None:
    """3 for `box:3` when kind is `box`; None for any other target."""
    prefix, _, number = target.partition(":")
    return int(number) if prefix == kind and number.isdigit() else None


def describe_target(target: str) -> str:
    prefix, _, number = target.partition(":")
    return f"{prefix} {number}" if number else ("the dealer" if target == DEALER else target)


@dataclass(frozen=True, slots=True)
class BetFact:
    box: int
    spot: str
    amount: Decimal
    player: str | None = None
    carried_from: str | None = None  # a jackpot bet carried over from a void round


@dataclass(frozen=True, slots=True)
class CardFact:
    to: str  # box:3, space:3, dealer, player, banker, burn
    card: Card
    face_up: bool
    shoe_position: int | None = None


@dataclass(frozen=True, slots=True)
class DecisionFact:
    box: int
    player: str | None
    decision: str
    amount: Decimal = Decimal("0.00")  # the Stud Poker raise


@dataclass(frozen=True, slots=True)
class IrregularityFact:
    kind: str
    consequence: Consequence
    box: int | None = None
    cards: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class ShoeAtStart:
    """Where a table's shoe stands when a demonstration coup is asked for."""

    table: str  # the table's code: BAC-01
    coups: int  # coups dealt from this shoe so far
    demonstrations: int  # demonstration coups among them
    automatic: bool  # dealt by an automatic shuffler-dealer, whose cards go back every coup


@dataclass(frozen=True)
class RoundFacts:
    """Everything recorded so far in one round; procedures read it, never change it."""

    game: str
    rule_set: str
    settings: HouseSettings
    dealing: str  # shoe, shuffler, automatic_shuffler_dealer
    bets: tuple[BetFact, ...] = ()
    cards: tuple[CardFact, ...] = ()
    decisions: tuple[DecisionFact, ...] = ()
    exposed: tuple[CardFact, ...] = ()
    irregularities: tuple[IrregularityFact, ...] = ()
    void_boxes: frozenset[int] = frozenset()
    mode: str | None = None  # Fortune 8: the deal mode the dealer announced
    betting_closed: bool = False
    revealed: bool = False
    log: tuple[tuple[str, Any], ...] = ()  # every fact in the order it was recorded

    @property
    def dealt(self) -> tuple[CardFact, ...]:
        return tuple(card for card in self.cards if card.to != BURN)

    def hand(self, target: str) -> tuple[Card, ...]:
        return tuple(card.card for card in self.cards if card.to == target)

    def boxes_with_bets(self) -> tuple[int, ...]:
        return tuple(sorted({bet.box for bet in self.bets}))

    def bets_on(self, box: int, spot: str | None = None) -> tuple[BetFact, ...]:
        return tuple(b for b in self.bets if b.box == box and (spot is None or b.spot == spot))


def check_shuffler_failure(facts: RoundFacts, dealer_cards: int, article: str) -> None:
    """A shuffler fails during the deal of a round it deals: not in a round dealt from a
    hand-shuffled shoe, and not once the dealer (dealt last) holds a full hand."""
    if facts.dealing != "shuffler":
        raise RuleViolation(
            f"this round is dealt from a hand-shuffled shoe: there is no shuffler to fail "
            f"({article})."
        )
    if len(facts.hand(DEALER)) >= dealer_cards:
        raise RuleViolation(
            f"the deal is over: a shuffler failure voids a round during its deal ({article}); "
            "after it, a supervisor voids the round if play cannot go on."
        )


class Procedure:
    """A game's rules over RoundFacts. Each `check_*` raises a LedgerError with a sentence."""

    game: str = ""
    game_name: str = ""  # the game's `Game.name`
    spots: tuple[str, ...] = ()
    box_name: str = "box"
    boxes: range = range(1, 8)
    has_decisions: bool = False
    has_reveal: bool = False

    @property
    def name(self) -> str:
        """The game by its name in words, as its messages say it (`Stud Poker`), never by
        its code: its `Game`'s name (`game_name`), the code where a procedure names none."""
        return self.game_name or self.game

    def check_bet(self, facts: RoundFacts, bet: BetFact) -> None:
        if bet.spot not in self.spots:
            raise InvalidInput(
                f"'{bet.spot}' is not a bet of {self.name}: the spots are {', '.join(self.spots)}."
            )
        if bet.box not in self.boxes:
            raise InvalidInput(
                f"there is no {self.box_name} {bet.box}: {self.name} has "
                f"{self.box_name}es {self.boxes.start} to {self.boxes.stop - 1}."
            )
        if facts.cards or facts.betting_closed:
            raise RuleViolation(
                f"bets are closed: no bet is accepted on {self.box_name} {bet.box} "
                "once betting has closed or the first card is out."
            )

    def check_standing_bet(self, facts: RoundFacts, bet: BetFact) -> None:
        """A standing player's bet (`PlaceBet(standing=True)`): where a game reserves boxes for
        its seated players, it refuses a standing player's bet there; by default any box is
        anyone's."""

    def check_demonstration(self, settings: HouseSettings, shoe: ShoeAtStart) -> None:
        """A demonstration coup opened at a table of the game (dealt without bets at the
        start of a shoe, in no result): refused unless the game's regulation has them."""
        raise RuleViolation(f"{self.name} plays no demonstration coups: a round opened at its "
                            "tables takes bets.")

    def check_bets_standing(self, previous: HouseSettings, pushed: Sequence[BetResult],
                            facts: RoundFacts) -> None:
        """As betting closes: the bets a tie pushed in the round before (settled under
        `previous`, not adjusted since, inside this round's limits) that the game's rules make
        stand on this one; none by default (`Game.pushed_bets_stand` says whether to ask)."""

    def check_announce(self, facts: RoundFacts, mode: str) -> None:
        """A deal mode the dealer announces before the deal; a game without one refuses it."""
        raise RuleViolation(f"{self.name} has no deal mode to announce.")

    def check_card(self, facts: RoundFacts, card: CardFact) -> CardFact:
        """The card as it must be recorded (a procedure may fix face up or down)."""
        raise NotImplementedError

    def check_decision(self, facts: RoundFacts, decision: DecisionFact) -> None:
        raise RuleViolation(f"{self.name} has no player decisions.")

    def check_reveal(self, facts: RoundFacts) -> None:
        raise RuleViolation(f"{self.name} has no dealer's reveal.")

    def classify(self, facts: RoundFacts, kind: str, box: int | None,
                 correctable: bool) -> Consequence:
        raise NotImplementedError

    def classify_exposure(self, facts: RoundFacts, exposed: CardFact) -> tuple[str, Consequence]:
        """The irregularity kind and consequence of a card exposed by mistake."""
        raise NotImplementedError

    def check_settle(self, facts: RoundFacts) -> None:
        raise NotImplementedError

    def settle(self, facts: RoundFacts) -> tuple[BetResult, ...]:
        raise NotImplementedError

    def settle_void(self, facts: RoundFacts, carry_jackpot: bool) -> tuple[BetResult, ...]:
        raise NotImplementedError

    def outcome(self, facts: RoundFacts) -> dict[str, object]:
        """What a settled round came to beyond its bets (a coup's winner and totals), as the
        round's `Settled` event keeps it and the floor and the replay show it; by default
        nothing."""
        return {}
