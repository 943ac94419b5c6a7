"""Q Poker (DICJ 89/2004): three-card hands, a bonus bet and a play bet against the dealer.

Article numbers are those of the regulation annexed to the order (`q-poker-2004_*`, Chinese).
The round is a frozen value: each table action has a `verify_*` check that raises a typed
error with a sentence, and a method that returns the round with the action applied.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

from pydantic import model_validator

from ledger.cards import Card, Rank, format_cards, parse_cards
from ledger.errors import InvalidInput, RuleViolation, SettingOutsideRegulation
from ledger.games.common import BetResult, Consequence, Outcome, money, pay
from ledger.games.settings import HouseSettings

# --- Hand values (art. 4 and 8) ------------------------------------------------------------


class Category(StrEnum):
    """Art. 8, high to low; the position in this list is the category's strength."""

    STRAIGHT_FLUSH = "straight_flush"
    THREE_OF_A_KIND = "three_of_a_kind"
    STRAIGHT = "straight"
    FLUSH = "flush"
    ONE_PAIR = "one_pair"
    HIGH_CARD = "high_card"

    @property
    def strength(self) -> int:
        return len(Category) - 1 - list(Category).index(self)


@dataclass(frozen=True, order=True, slots=True)
class HandValue:
    """What three cards are worth. Compared by `key` alone: category strength, then art. 8's
    tie-breaks, so `==` means a tie, not the same cards. Two hands that share no card never
    tie (checked over all 22,100 hands), so a box and the dealer always have a winner."""

    key: tuple[int, ...]
    category: Category = field(compare=False)
    cards: tuple[Card, ...] = field(compare=False)  # high to low, for display only

    def __str__(self) -> str:
        return f"{self.category} ({format_cards(self.cards)})"


def _three_distinct_cards(cards: Iterable[Card] | str) -> tuple[Card, ...]:
    not_cards = InvalidInput("a Q Poker hand is made of cards: use Card values or codes like 'AS'.")
    try:
        hand = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
    except TypeError:
        raise not_cards from None
    if not all(isinstance(card, Card) for card in hand):
        raise not_cards
    if len(hand) != 3 or len(set(hand)) != 3:
        raise InvalidInput(f"a Q Poker hand is three different cards; got '{format_cards(hand)}'.")
    return hand


def _straight_top(cards: Sequence[Card]) -> Card | None:
    """The top card of a straight, or None. A-2-3 is the lowest straight: its top card is the 3."""
    ranks = sorted(card.rank for card in cards)
    if ranks == [Rank.TWO, Rank.THREE, Rank.ACE]:
        return next(card for card in cards if card.rank == Rank.THREE)
    if len(set(ranks)) == 3 and ranks[2] - ranks[0] == 2:
        return cards[0]
    return None


def evaluate(cards: Iterable[Card] | str) -> HandValue:
    """Value of three distinct cards, totally ordered as art. 4 and 8 rank them.

    >>> evaluate("AS KS QS") > evaluate("2D 2C 2H")
    True
    >>> evaluate("AD 2C 3H") < evaluate("4C 3D 2H")  # A-2-3 is the lowest straight
    True
    """
    hand = tuple(sorted(_three_distinct_cards(cards), key=lambda c: (c.rank, c.suit), reverse=True))
    high = hand[0]
    ranks = tuple(card.rank.value for card in hand)
    flush = len({card.suit for card in hand}) == 1
    top = _straight_top(hand)
    ties: tuple[int, ...]
    if top is not None and flush:
        category, ties = Category.STRAIGHT_FLUSH, (top.rank, top.suit)
    elif ranks[0] == ranks[2]:
        category, ties = Category.THREE_OF_A_KIND, (ranks[0],)
    elif top is not None:
        category, ties = Category.STRAIGHT, (top.rank, top.suit)
    elif flush:
        category, ties = Category.FLUSH, (*ranks, high.suit)
    elif ranks[0] == ranks[1] or ranks[1] == ranks[2]:
        odd = hand[2] if ranks[0] == ranks[1] else hand[0]
        category, ties = Category.ONE_PAIR, (ranks[1], odd.rank, odd.suit)
    else:
        category, ties = Category.HIGH_CARD, (*ranks, high.suit)
    key = (category.strength, *(int(tie) for tie in ties))
    return HandValue(key=key, category=category, cards=hand)


QUEEN_HIGH = (Category.HIGH_CARD.strength, Rank.QUEEN.value)


def dealer_qualifies(cards: Iterable[Card] | str) -> bool:
    """Art. 9(4): the dealer plays only with Q-high or better."""
    return evaluate(cards).key[:2] >= QUEEN_HIGH


# --- House settings (art. 1, 2) ------------------------------------------------------------


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
