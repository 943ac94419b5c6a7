"""Q Poker house settings (arts. 1, 2), bets, the deal and the round as a frozen value."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from enum import StrEnum

from pydantic import model_validator

from ledger.core.cards import Card
from ledger.core.errors import InvalidInput, RuleViolation, SettingOutsideRegulation
from ledger.games.common import Consequence, money
from ledger.games.q_poker.hands import (
    _three_distinct_cards,
)
from ledger.games.settings import HouseSettings


class Equipment(StrEnum):
    """Art. 1 and 7: a shoe (one card at a time) or a shuffler (three at a time)."""

    SHOE = "shoe"
    SHUFFLER = "shuffler"


MIN_BOXES = 7  # art. 2(1): eight or more places, the dealer's included


class QPokerSettings(HouseSettings):
    """Table limits, the number of boxes and the usual dealing equipment. The regulation sets
    every payout itself and names no maximum payout, so the house has nothing else to choose."""

    boxes: int = MIN_BOXES
    equipment: Equipment = Equipment.SHOE

    @model_validator(mode="after")
    def _enough_boxes(self) -> QPokerSettings:
        if self.boxes < MIN_BOXES:
            raise SettingOutsideRegulation(
                f"a Q Poker table has eight or more places including the dealer (art. 2(1)), "
                f"so at least {MIN_BOXES} boxes; {self.boxes} were set."
            )
        return self

    def verify_stake(self, stake: Decimal) -> None:
        if not self.min_bet <= stake <= self.max_bet:
            raise RuleViolation(
                f"a bet of {stake} is outside the table limits {self.min_bet} to {self.max_bet}."
            )


# --- Bets and decisions (art. 2, 5, 6, 9) --------------------------------------------------


class Spot(StrEnum):
    BONUS = "bonus"  # 多宝, nearest the dealer
    PLAY = "play"  # 与庄荷博彩, the outer spot


class Decision(StrEnum):
    PLAY = "play"  # continue against the dealer
    SURRENDER = "surrender"  # art. 9(3): lose half the play bet


@dataclass(frozen=True, slots=True)
class Bet:
    """One player's bet on one spot of one box; art. 6(1) lets several players share a box."""

    box: int
    spot: Spot
    stake: Decimal
    player: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.box, int) or self.box < 1:
            raise InvalidInput(f"'{self.box}' is not a box: boxes are numbered from 1.")
        try:
            object.__setattr__(self, "spot", Spot(self.spot))
            object.__setattr__(self, "stake", money(self.stake))
        except (ValueError, TypeError):
            raise InvalidInput(
                f"a Q Poker bet is an amount in patacas on 'bonus' or 'play'; "
                f"got {self.stake!r} on {self.spot!r}."
            ) from None
        if self.stake <= 0:
            raise InvalidInput(f"a bet must be a positive amount; got {self.stake}.")


# --- Dealing (art. 7) and irregularities (art. 11) -----------------------------------------

DEALER = 0  # the dealer's hand, dealt last
HAND_SIZE = 3  # art. 7: three cards to each box with a bet and to the dealer


def deal_order(boxes: Iterable[int], equipment: Equipment) -> tuple[int, ...]:
    """Art. 7: who receives each card, left to right (box 1 first), the dealer last.

    >>> deal_order([3, 1], Equipment.SHOE)
    (1, 3, 0, 1, 3, 0, 1, 3, 0)
    >>> deal_order([3, 1], Equipment.SHUFFLER)
    (1, 1, 1, 3, 3, 3, 0, 0, 0)
    """
    with_bets = sorted(set(boxes))
    recipients = (*with_bets, DEALER) if with_bets else ()  # no bets, no deal
    if equipment == Equipment.SHUFFLER:
        return tuple(r for r in recipients for _ in range(HAND_SIZE))
    return tuple(r for _ in range(HAND_SIZE) for r in recipients)


class Irregularity(StrEnum):
    WRONG_DEAL_ORDER = "wrong_deal_order"  # art. 11(1)
    WRONG_CARD_COUNT = "wrong_card_count"  # art. 11(1)
    CARD_EXPOSED_DURING_DEAL = "card_exposed_during_deal"  # art. 11(2), a box's card
    DEALER_CARD_EXPOSED = "dealer_card_exposed"  # art. 11(3)
    CARDS_TO_BOX_WITHOUT_BET = "cards_to_box_without_bet"  # art. 11(4)
    SHUFFLER_FAILURE = "shuffler_failure"  # art. 11(5): next round, new shuffler or a shoe


_CONSEQUENCES = {
    Irregularity.WRONG_DEAL_ORDER: Consequence.ROUND_VOID,
    Irregularity.WRONG_CARD_COUNT: Consequence.ROUND_VOID,
    Irregularity.CARD_EXPOSED_DURING_DEAL: Consequence.ROUND_CONTINUES,
    Irregularity.DEALER_CARD_EXPOSED: Consequence.ROUND_VOID,
    Irregularity.CARDS_TO_BOX_WITHOUT_BET: Consequence.BOX_VOID,
    Irregularity.SHUFFLER_FAILURE: Consequence.ROUND_VOID,
}


def classify_irregularity(kind: Irregularity | str) -> Consequence:
    """What art. 11 does to the round for each kind of irregularity."""
    try:
        return _CONSEQUENCES[Irregularity(kind)]
    except ValueError:
        known = ", ".join(Irregularity)
        raise InvalidInput(f"'{kind}' is not a Q Poker irregularity: use one of {known}.") from None


# --- The round -----------------------------------------------------------------------------


def _who(box: int, player: str | None = None) -> str:
    if box == DEALER:
        return "the dealer"
    return f"box {box}" if player is None else f"player {player} on box {box}"


@dataclass(frozen=True, slots=True)
class QPokerRound:
    """One round as the table saw it. Build it action by action (`place_bet`, `deal`, `decide`,
    `show_dealer`, `record_irregularity`), each checked first, or with `after_deal`."""

    equipment: Equipment = Equipment.SHOE
    bets: tuple[Bet, ...] = ()
    dealt: tuple[tuple[int, Card], ...] = ()  # (box or DEALER, card) in the order dealt
    set_aside: tuple[Card, ...] = ()  # art. 11(4): cards dealt by mistake to a box without bets
    decisions: tuple[tuple[int, str | None, Decision], ...] = ()  # (box, player, decision)
    dealer_shown: bool = False
    void_boxes: frozenset[int] = frozenset()
    void: bool = False

    @classmethod
    def after_deal(
        cls,
        bets: Iterable[Bet],
        hands: Mapping[int, Iterable[Card] | str],
        dealer: Iterable[Card] | str,
        equipment: Equipment = Equipment.SHOE,
    ) -> QPokerRound:
        """The bets placed, then the given hands dealt card by card in art. 7's order."""
        round_ = cls(equipment=equipment)
        for bet in bets:
            round_ = round_.place_bet(bet)
        cards = {box: _three_distinct_cards(hand) for box, hand in hands.items()}
        cards[DEALER] = _three_distinct_cards(dealer)
        if set(cards) != {*round_.boxes, DEALER}:
            raise InvalidInput(
                f"hands were given for boxes {sorted(set(cards) - {DEALER})} "
                f"but the bets are on boxes {list(round_.boxes)}."
            )
        while (recipient := round_.next_recipient()) is not None:
            round_ = round_.deal(recipient, cards[recipient][len(round_.hand(recipient))])
        return round_

    @property
    def boxes(self) -> tuple[int, ...]:
        """Boxes holding bets, left to right: the boxes that receive cards (art. 7)."""
        return tuple(sorted({bet.box for bet in self.bets}))

    def hand(self, box: int) -> tuple[Card, ...]:
        return tuple(card for recipient, card in self.dealt if recipient == box)

    @property
    def dealer_hand(self) -> tuple[Card, ...]:
        return self.hand(DEALER)

    def next_recipient(self) -> int | None:
        """Who art. 7 says gets the next card; None once every hand has three."""
        order = deal_order(self.boxes, self.equipment)
        return order[len(self.dealt)] if len(self.dealt) < len(order) else None

    @property
    def deal_complete(self) -> bool:
        return bool(self.bets) and self.next_recipient() is None

    def decision(self, box: int, player: str | None = None) -> Decision | None:
        return next((d for b, p, d in self.decisions if (b, p) == (box, player)), None)

    def undecided(self) -> tuple[tuple[int, str | None], ...]:
        """(box, player) of every play bet still waiting for its art. 9(2) decision."""
        waiting = ((b.box, b.player) for b in self.bets if b.spot == Spot.PLAY)
        return tuple(key for key in dict.fromkeys(waiting) if self.decision(*key) is None)

    def _verify_not_void(self) -> None:
        if self.void:
            raise RuleViolation("this round is void: every bet is returned, nothing else happens.")

    def verify_bet(self, bet: Bet) -> None:
        self._verify_not_void()
        if self.dealt or self.set_aside:
            raise RuleViolation(
                f"bets are closed for {_who(bet.box, bet.player)}: "
                "no bet is accepted once the first card is dealt (art. 6(2))."
            )

    def place_bet(self, bet: Bet) -> QPokerRound:
        self.verify_bet(bet)
        return replace(self, bets=(*self.bets, bet))

    def verify_card(self, recipient: int, card: Card) -> None:
        self._verify_not_void()
        if not self.bets:
            raise RuleViolation("no box holds a bet, so there is nothing to deal (art. 7).")
        if card in {c for _, c in self.dealt} or card in self.set_aside:
            raise InvalidInput(f"{card} is already dealt: Q Poker uses a single deck (art. 1).")
        if recipient != DEALER and recipient not in self.boxes:
            raise RuleViolation(
                f"box {recipient} holds no bet: cards dealt to it by mistake make that box void "
                "and play goes on (art. 11(4)); record that irregularity instead."
            )
        if len(self.hand(recipient)) >= 3:
            raise RuleViolation(
                f"{_who(recipient)} already holds three cards: a fourth card is a wrong count, "
                "which voids the round (art. 11(1))."
            )
        expected = self.next_recipient()
        if recipient != expected:
            raise RuleViolation(
                f"the next card goes to {_who(expected or DEALER)}, not {_who(recipient)} "
                "(art. 7): a wrong deal order voids the round (art. 11(1))."
            )

    def deal(self, recipient: int, card: Card) -> QPokerRound:
        self.verify_card(recipient, card)
        return replace(self, dealt=(*self.dealt, (recipient, card)))

    def verify_decision(self, box: int, player: str | None, decision: Decision | str) -> None:
        self._verify_not_void()
        who = _who(box, player)
        if decision not in set(Decision):
            raise InvalidInput(f"'{decision}' is not a decision: use 'play' or 'surrender'.")
        if self.dealer_shown:
            raise RuleViolation(
                f"the dealer's cards are already shown: {who} had to decide before (art. 9(3))."
            )
        if not self.deal_complete:
            raise RuleViolation(
                f"the deal is not complete: {who} decides once the cards are opened (art. 9(2))."
            )
        if not any(b.box == box and b.player == player and b.spot == Spot.PLAY for b in self.bets):
            raise RuleViolation(f"{who} has no play bet: there is nothing to play or surrender.")
        if (previous := self.decision(box, player)) is not None:
            raise RuleViolation(
                f"{who} already chose to {previous}: a decision cannot be undone (art. 9(3))."
            )

    def decide(self, box: int, player: str | None, decision: Decision | str) -> QPokerRound:
        """Art. 9(2)-(3) give the choice to each player over his own bet, and the box's cards are
        open by then, so every player on a box decides for himself, not the seated player."""
        self.verify_decision(box, player, decision)
        return replace(self, decisions=(*self.decisions, (box, player, Decision(decision))))

    def verify_show_dealer(self) -> None:
        self._verify_not_void()
        if not self.deal_complete:
            raise RuleViolation("the dealer's cards are shown only once the deal is complete.")
        if self.dealer_shown:
            raise RuleViolation("the dealer's cards are already shown.")
        if waiting := self.undecided():
            names = ", ".join(_who(box, player) for box, player in waiting)
            raise RuleViolation(
                f"{names} must play or surrender before the dealer's cards are shown (art. 9(3))."
            )

    def show_dealer(self) -> QPokerRound:
        self.verify_show_dealer()
        return replace(self, dealer_shown=True)

    def record_irregularity(
        self, kind: Irregularity | str, box: int | None = None, cards: Iterable[Card] = ()
    ) -> QPokerRound:
        """Apply art. 11; for cards dealt to a box without bets, name the box and its cards."""
        consequence = classify_irregularity(kind)
        if consequence == Consequence.ROUND_VOID:
            return replace(self, void=True)
        if consequence == Consequence.BOX_VOID:
            strays = tuple(cards)
            void_box = self._verify_box_without_bet(box, strays)
            return replace(
                self, void_boxes=self.void_boxes | {void_box}, set_aside=(*self.set_aside, *strays)
            )
        return self

    def _verify_box_without_bet(self, box: int | None, strays: tuple[Card, ...]) -> int:
        self._verify_not_void()
        if box is None or box < 1:
            raise InvalidInput("name the box that received cards without a bet (art. 11(4)).")
        if box in self.boxes:
            raise RuleViolation(f"box {box} holds bets: art. 11(4) voids only a box without bets.")
        out = {c for _, c in self.dealt} | set(self.set_aside)
        if repeated := [str(card) for card in strays if card in out]:
            raise InvalidInput(f"{' '.join(repeated)} already dealt: Q Poker uses a single deck.")
        return box


