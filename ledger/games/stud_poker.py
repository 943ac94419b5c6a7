"""Stud Poker (DICJ 61/2004, which replaced 69/2003): hand values, settlement, the deal.

Articles are numbered as in the 2004 text; the 2003 text numbers arts. 1-12 the same way and
has no art. 13. The two versions differ in one thing only, the royal flush's odds on the
additional bet (art. 9, 5), (9)): fixed at 50:1 in 2003, 50 to 100:1 set by the house with
DICJ authorisation (art. 13) in 2004. That is data in `StudPokerSettings`, not a second module.

Points the regulation leaves open, settled here (README rules section):
- Equal box and dealer hands cannot occur in one deck under art. 8's tie-breaks; were a
  recorded round to show one, both bets are returned (a push) rather than guessed.
- The cap of art. 9, 5), (7)-(9) limits the additional bet's winnings on that box; the ante's
  1:1 is not capped and lower categories are never capped.
- The jackpot bet is always collected by the table settlement (outcome LOST, spot `jackpot`):
  it buys a chance at the pool. Prizes come from `ledger.games.jackpot` as separate records,
  so accounting keeps jackpot stakes and prizes apart from table win.
- A void round returns antes and additional bets; its jackpot bets are CARRIED, recorded with
  `returned == stake` so this round's books balance and the next round books the same stake.
- With the shuffler, the dealer's "top card" (art. 7, 2)) is the first card of the dealer's five.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Final, Literal

from pydantic import Field, model_validator

from ledger.cards import DECK, Card, Rank, Suit, format_cards, parse_cards
from ledger.errors import InvalidInput, RuleViolation, SettingOutsideRegulation
from ledger.formatting import money
from ledger.games.common import MAX_AMOUNT, ZERO, BetResult, Consequence, Outcome, pay
from ledger.games.settings import HouseSettings

ANTE, RAISE, JACKPOT = "ante", "raise", "jackpot"
BOXES = range(1, 8)  # art. 2, 1): eight places including the dealer's
HAND_SIZE = 5


class HandCategory(StrEnum):
    """Art. 8, high to low. Compare categories by `strength`, never by name."""

    ROYAL_FLUSH = "royal_flush"
    STRAIGHT_FLUSH = "straight_flush"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three_of_a_kind"
    TWO_PAIRS = "two_pairs"
    ONE_PAIR = "one_pair"
    HIGH_CARD = "high_card"

    @property
    def strength(self) -> int:
        """9 for royal_flush down to 0 for high_card."""
        return len(HandCategory) - 1 - list(HandCategory).index(self)


@dataclass(frozen=True, slots=True, order=True)
class HandValue:
    """A five-card hand's place in art. 8's order; only `key` takes part in comparisons.

    `ranks` are the ranks the tie-break reads, in order; `suit` is the last tie-break (None
    where art. 8 ignores suits: four of a kind, full house, three of a kind).
    """

    key: int
    category: HandCategory = field(compare=False)
    ranks: tuple[Rank, ...] = field(compare=False)
    suit: Suit | None = field(compare=False)

    def __str__(self) -> str:
        ranks = " ".join(rank.symbol for rank in self.ranks)
        return f"{self.category} {ranks}" + ("" if self.suit is None else f" {self.suit.symbol}")


def _straight_top(ranks: tuple[int, ...]) -> int | None:
    """Top card of five distinct ranks (high to low) in sequence; 5 in 5-4-3-2-A (art. 4, 3))."""
    if ranks[0] - ranks[4] == 4:
        return ranks[0]
    return 5 if ranks == (14, 5, 4, 3, 2) else None


def _classify(ranks: tuple[int, ...], flush: bool) -> tuple[HandCategory, tuple[int, ...], int]:
    """Category, tie-break ranks, and the rank whose best suit breaks the last tie."""
    groups = sorted(Counter(ranks).items(), key=lambda item: (item[1], item[0]), reverse=True)
    shape = tuple(count for _, count in groups)
    order = tuple(rank for rank, _ in groups)
    by_shape = {(4, 1): HandCategory.FOUR_OF_A_KIND, (3, 2): HandCategory.FULL_HOUSE,
                (3, 1, 1): HandCategory.THREE_OF_A_KIND}
    if shape in by_shape:  # art. 8, 3), 4), 7): the odd cards and suits are ignored
        return by_shape[shape], order[:1], order[0]
    if shape == (2, 2, 1):
        return HandCategory.TWO_PAIRS, order, order[0]
    if shape == (2, 1, 1, 1):
        return HandCategory.ONE_PAIR, order, order[0]
    top = _straight_top(order)
    if top is not None and flush:
        royal = top == Rank.ACE
        return (HandCategory.ROYAL_FLUSH if royal else HandCategory.STRAIGHT_FLUSH), (top,), top
    if flush:
        return HandCategory.FLUSH, order, order[0]
    if top is not None:
        return HandCategory.STRAIGHT, (top,), top
    return HandCategory.HIGH_CARD, order, order[0]


def _values(ranks: tuple[int, ...], flush: bool) -> tuple[tuple[HandValue, ...], int]:
    """The four values a rank pattern can take (one per tie-break suit), and the bit shift of
    the rank whose suits decide among them."""
    category, tie_ranks, suit_rank = _classify(ranks, flush)
    key = category.strength
    for rank in tie_ranks + (0,) * (HAND_SIZE - len(tie_ranks)):
        key = key * 16 + rank
    suited = category not in (HandCategory.FOUR_OF_A_KIND, HandCategory.FULL_HOUSE,
                              HandCategory.THREE_OF_A_KIND)
    tie = tuple(Rank(rank) for rank in tie_ranks)
    values = tuple(
        HandValue(key * 4 + (suit if suited else 0), category, tie, suit if suited else None)
        for suit in Suit
    )
    return values, suit_rank * 4


# A multiset of ranks sums to a unique number in base 5 (no rank appears more than 4 times).
_WEIGHT = tuple(5 ** (rank - 2) if rank >= 2 else 0 for rank in range(15))
Patterns = dict[int, tuple[tuple[HandValue, ...], int, tuple[HandValue, ...] | None]]
_PATTERNS: Patterns = {}
_MAKING_PATTERNS = threading.Lock()


def _patterns() -> Patterns:
    """Every rank pattern's values, made on the first hand valued (a seventh of a second: not
    at import, which every `ledger` command pays, most of them never valuing a hand). Made
    whole, then published in one assignment, so no thread sees half of it; made once, so that
    a floor's tables valuing their first hands together wait for one making, not each make
    their own under the interpreter lock."""
    global _PATTERNS
    with _MAKING_PATTERNS:
        if not _PATTERNS:
            made: Patterns = {}
            for ranks in combinations_with_replacement(range(14, 1, -1), HAND_SIZE):
                if max(Counter(ranks).values()) <= 4:
                    plain, shift = _values(ranks, flush=False)
                    flush = (_values(ranks, flush=True)[0] if len(set(ranks)) == HAND_SIZE
                             else None)
                    made[sum(_WEIGHT[rank] for rank in ranks)] = (plain, shift, flush)
            _PATTERNS = made
    return _PATTERNS


def prepare() -> None:
    """Makes the rank patterns now, for a process that serves many tables (its first Stud Poker
    settlement then waits for nothing)."""
    _patterns()


# Per card (index rank * 4 + suit): its rank's weight above bit 64, its own bit below. One sum
# of five gives the rank pattern and the set of cards, four bits per rank so that a rank's
# suits are one nibble. A repeated card carries into another bit: five bits set, five cards.
_CARD_BITS = (1 << 64) - 1
_CARD = [0] * 64
for _card in DECK:
    _CARD[_card.rank * 4 + _card.suit] = _WEIGHT[_card.rank] << 64 | 1 << _card.index + 8


def evaluate(cards: Iterable[Card] | str) -> HandValue:
    """The art. 8 value of five distinct cards; a total order, suit tie-breaks included.

    >>> evaluate("AS KS QS JS TS") > evaluate("AH KH QH JH TH")
    True
    >>> str(evaluate("5D 4C 3H 2S AS"))
    'straight 5 D'
    """
    if type(cards) is not tuple:
        cards = _as_tuple(cards)
    try:
        a, b, c, d, e = cards
        suit = a.suit
        total = (_CARD[a.rank * 4 + suit] + _CARD[b.rank * 4 + b.suit]
                 + _CARD[c.rank * 4 + c.suit] + _CARD[d.rank * 4 + d.suit]
                 + _CARD[e.rank * 4 + e.suit])
        plain, shift, flush = (_PATTERNS or _patterns())[total >> 64]
    except (ValueError, TypeError, AttributeError, IndexError, KeyError):
        raise _not_a_hand(cards) from None
    mask = total & _CARD_BITS
    if mask.bit_count() != HAND_SIZE:
        raise _not_a_hand(cards)
    values = flush if flush is not None and suit == b.suit == c.suit == d.suit == e.suit else plain
    return values[((mask >> shift) & 15).bit_length() - 1]


def _as_tuple(cards: Iterable[Card] | str) -> tuple[Card, ...]:
    if isinstance(cards, str):
        return parse_cards(cards)
    try:
        return tuple(cards)
    except TypeError:
        raise InvalidInput(f"{cards!r} is not a hand: a hand is five cards, AS KH ...") from None


def _not_a_hand(cards: Sequence[object]) -> InvalidInput:
    strangers = [item for item in cards if not isinstance(item, Card)]
    if strangers:
        return InvalidInput(f"{strangers[0]!r} is not a card: a hand is five cards such as AS KH.")
    if len(cards) != HAND_SIZE:
        shown = format_cards(cards) or "none"  # type: ignore[arg-type]
        return InvalidInput(f"a Stud Poker hand has five cards, not {len(cards)}: {shown}.")
    twice = [str(card) for card, count in Counter(cards).items() if count > 1]
    if twice:
        return InvalidInput(f"{twice[0]} appears twice: a hand is five different cards.")
    shown = format_cards(cards)  # type: ignore[arg-type]
    return InvalidInput(f"{shown} is not a hand: a card has no rank or suit of a deck.")


def _qualifies(value: HandValue) -> bool:
    ace_king = value.ranks[:2] == (Rank.ACE, Rank.KING)
    return value.category is not HandCategory.HIGH_CARD or ace_king


def dealer_qualifies(cards: Iterable[Card] | str) -> bool:
    """Art. 9, 1): the dealer opens with A-K high or better.

    >>> dealer_qualifies("AS KD 7C 4H 2S"), dealer_qualifies("AS QD JC 9H 8S")
    (True, False)
    """
    return _qualifies(evaluate(cards))


class RuleVersion(StrEnum):
    V2003 = "2003"  # DICJ 69/2003
    V2004 = "2004"  # DICJ 61/2004


class StudPokerSettings(HouseSettings):
    """House settings for one Stud Poker table; `max_payout` is the cap of art. 9, 5), (7)-(9)."""

    rule_version: RuleVersion
    royal_odds: int = 50
    max_payout: Decimal = Field(gt=0, le=MAX_AMOUNT, decimal_places=2)

    @model_validator(mode="after")
    def _royal_odds_allowed(self) -> StudPokerSettings:
        odds = self.royal_odds
        if self.rule_version is RuleVersion.V2003 and odds != 50:
            raise SettingOutsideRegulation(
                f"a royal flush at {odds}:1 is outside DICJ 69/2003: "
                "art. 9, 5), (9) fixes it at 50:1."
            )
        if not 50 <= odds <= 100:
            raise SettingOutsideRegulation(
                f"a royal flush at {odds}:1 is outside DICJ 61/2004: art. 9, 5), (9) allows "
                "50:1 to 100:1, chosen by the house with DICJ authorisation (art. 13)."
            )
        return self


RAISE_ODDS: Mapping[HandCategory, int] = {  # art. 9, 5); the royal flush's odds are a setting
    HandCategory.HIGH_CARD: 1, HandCategory.ONE_PAIR: 1, HandCategory.TWO_PAIRS: 2,
    HandCategory.THREE_OF_A_KIND: 3, HandCategory.STRAIGHT: 4, HandCategory.FLUSH: 5,
    HandCategory.FULL_HOUSE: 7, HandCategory.FOUR_OF_A_KIND: 20, HandCategory.STRAIGHT_FLUSH: 50,
}
CAPPED = frozenset({HandCategory.FOUR_OF_A_KIND, HandCategory.STRAIGHT_FLUSH,
                    HandCategory.ROYAL_FLUSH})


def raise_odds(category: HandCategory, settings: StudPokerSettings) -> int:
    return settings.royal_odds if category is HandCategory.ROYAL_FLUSH else RAISE_ODDS[category]


class Decision(StrEnum):
    RAISE = "raise"  # art. 6, 5)-6): the additional bet, exactly twice the ante
    FOLD = "fold"  # art. 6, 7): the box loses its ante and its cards


def _stake(value: Decimal, what: str, *, optional: bool = False) -> Decimal:
    if not isinstance(value, Decimal | int) or isinstance(value, bool):
        raise InvalidInput(f"{what} {value!r} is not an amount: money is never a float.")
    amount = Decimal(value)
    if amount != amount.quantize(Decimal("0.01")) or amount < 0 or (amount == 0 and not optional):
        raise InvalidInput(f"{what} {value} is not a positive amount in patacas and avos.")
    return amount.quantize(Decimal("0.01"))


@dataclass(frozen=True, slots=True)
class StudBox:
    """One box as the round recorded it: ante, optional jackpot bet, cards, decision."""

    box: int
    ante: Decimal
    cards: tuple[Card, ...]
    decision: Decision
    jackpot: Decimal = ZERO  # ZERO: no jackpot bet

    def __post_init__(self) -> None:
        if self.box not in BOXES:
            raise InvalidInput(f"there is no box {self.box}: Stud Poker boxes are 1 to 7.")
        object.__setattr__(self, "ante", _stake(self.ante, f"box {self.box} ante"))
        object.__setattr__(self, "jackpot", _stake(self.jackpot, f"box {self.box} jackpot bet",
                                                   optional=True))
        object.__setattr__(self, "cards", tuple(self.cards))
        if self.decision not in tuple(Decision):
            raise InvalidInput(f"box {self.box}: '{self.decision}' is not raise or fold.")
        object.__setattr__(self, "decision", Decision(self.decision))

    @property
    def raise_stake(self) -> Decimal:
        return self.ante * 2 if self.decision is Decision.RAISE else ZERO


@dataclass(frozen=True, slots=True)
class StudPokerRound:
    """A dealt and decided round as recorded; `void_boxes` got cards with no bet (art. 11, 3))."""

    boxes: tuple[StudBox, ...]
    dealer_cards: tuple[Card, ...]
    void_boxes: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        object.__setattr__(self, "boxes", tuple(sorted(self.boxes, key=lambda box: box.box)))
        object.__setattr__(self, "dealer_cards", tuple(self.dealer_cards))
        numbers = [box.box for box in self.boxes]
        if len(set(numbers)) != len(numbers):
            raise InvalidInput(f"a box appears twice in the round: boxes {numbers}.")
        hands = [box.cards for box in self.boxes] + [self.dealer_cards]
        for hand in hands:
            evaluate(hand)  # five distinct cards each, or InvalidInput
        seen = Counter(card for hand in hands for card in hand)
        twice = [str(card) for card, count in seen.items() if count > 1]
        if twice:
            raise InvalidInput(f"{twice[0]} was dealt twice: a Stud Poker round uses one deck.")


def check_raise(box: int, ante: Decimal, raise_amount: Decimal) -> None:
    """Art. 6, 6): the additional bet is exactly twice the ante."""
    if raise_amount != ante * 2:
        raise RuleViolation(
            f"the raise must be exactly twice the ante: box {box} ante {money(ante)} "
            f"needs {money(ante * 2)}, not {money(raise_amount)}."
        )


def check_jackpot_bet(box: int, ante: Decimal, *, first_card_dealt: bool) -> None:
    """Art. 6, 3) and art. 10, 1): a jackpot bet needs an accepted ante, before the first card."""
    if not ante:
        raise RuleViolation(f"box {box} has no ante: a jackpot bet needs an accepted ante.")
    if first_card_dealt:
        raise RuleViolation(
            f"box {box}: the jackpot bet comes too late, it is only taken before the first card."
        )


def settle(round_: StudPokerRound, settings: StudPokerSettings) -> tuple[BetResult, ...]:
    """One BetResult per bet, box by box: ante, raise, jackpot (art. 9; art. 11, 3))."""
    dealer = evaluate(round_.dealer_cards)
    results: list[BetResult] = []
    for box in round_.boxes:
        if box.box in round_.void_boxes:
            stakes = ((ANTE, box.ante), (RAISE, box.raise_stake), (JACKPOT, box.jackpot))
            results += [BetResult(box.box, spot, stake, Outcome.RETURNED, returned=stake)
                        for spot, stake in stakes if stake]
            continue
        results += _settle_table_bets(box, dealer, settings)
        if box.jackpot:
            results.append(BetResult(box.box, JACKPOT, box.jackpot, Outcome.LOST))
    return tuple(results)


def _settle_table_bets(
    box: StudBox, dealer: HandValue, settings: StudPokerSettings
) -> list[BetResult]:
    n, ante, raised = box.box, box.ante, box.raise_stake
    if box.decision is Decision.FOLD:  # art. 6, 7)
        return [BetResult(n, ANTE, ante, Outcome.LOST)]
    if not _qualifies(dealer):  # art. 9, 2)
        return [BetResult(n, ANTE, ante, Outcome.WON, returned=ante, payout=ante),
                BetResult(n, RAISE, raised, Outcome.RETURNED, returned=raised)]
    hand = evaluate(box.cards)
    if hand < dealer:  # art. 9, 4)
        return [BetResult(n, ANTE, ante, Outcome.LOST), BetResult(n, RAISE, raised, Outcome.LOST)]
    if hand == dealer:  # impossible in one deck; a push rather than a guess
        return [BetResult(n, ANTE, ante, Outcome.PUSHED, returned=ante),
                BetResult(n, RAISE, raised, Outcome.PUSHED, returned=raised)]
    payout = pay(raised, Fraction(raise_odds(hand.category, settings)))  # art. 9, 5)
    capped = hand.category in CAPPED and payout > settings.max_payout
    return [BetResult(n, ANTE, ante, Outcome.WON, returned=ante, payout=ante),
            BetResult(n, RAISE, raised, Outcome.WON, returned=raised,
                      payout=settings.max_payout if capped else payout, capped=capped)]


def settle_void(
    antes: Mapping[int, Decimal],
    jackpots: Mapping[int, Decimal] | None = None,
    raises: Mapping[int, Decimal] | None = None,
) -> tuple[BetResult, ...]:
    """Art. 11, 1) and 4): a void round returns every bet but carries the jackpot bets over.
    A jackpot bet stands only beside an ante (art. 10, 1)): one on a box without an ante (a
    carried bet whose box did not ante again) is returned, not carried once more."""
    jackpots, raises = jackpots or {}, raises or {}
    results: list[BetResult] = []
    for box in sorted(set(antes) | set(jackpots) | set(raises)):
        for spot, stakes in ((ANTE, antes), (RAISE, raises)):
            if stakes.get(box):
                results.append(BetResult(box, spot, stakes[box], Outcome.RETURNED,
                                         returned=stakes[box]))
        if jackpots.get(box):
            outcome = Outcome.CARRIED if antes.get(box) else Outcome.RETURNED
            results.append(BetResult(box, JACKPOT, jackpots[box], outcome,
                                     returned=jackpots[box]))
    return tuple(results)


# --- The deal (art. 7) and its irregularities (art. 11) ---

DEALER: Final = "dealer"
Position = int | Literal["dealer"]


class DealMethod(StrEnum):
    SHOE = "shoe"  # art. 7, 1): one card at a time, dealer's last card face up
    SHUFFLER = "shuffler"  # art. 7, 2): five at a time, dealer's top card shown


class Irregularity(StrEnum):
    WRONG_ORDER = "wrong_order"  # art. 11, 1): cards dealt the wrong way
    WRONG_COUNT = "wrong_count"  # art. 11, 1): the wrong number of cards
    CARDS_EXPOSED = "cards_exposed"  # art. 11, 1) two or more; art. 11, 2) one
    CARDS_TO_BOX_WITHOUT_BET = "cards_to_box_without_bet"  # art. 11, 3)
    SHUFFLER_FAILURE = "shuffler_failure"  # art. 11, 4)


class DealError(RuleViolation):
    """A card that breaks art. 7; `kind` says which art. 11 irregularity it is."""

    def __init__(self, kind: Irregularity, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True, slots=True)
class DealStep:
    to: Position
    card_number: int  # 1..5 within that hand
    face_up: bool


def _name(position: Position) -> str:
    return "the dealer" if position == DEALER else f"box {position}"


def expected_deal(
    boxes_with_bets: Iterable[int], method: DealMethod, *, dealer_card_exposed: bool = False
) -> tuple[DealStep, ...]:
    """Every card of the deal in order (art. 7); after a dealer card was exposed by mistake
    the rest are dealt face down (art. 11, 2))."""
    boxes = tuple(sorted(set(boxes_with_bets)))
    if not boxes or any(box not in BOXES for box in boxes):
        raise InvalidInput(f"boxes with bets {list(boxes)}: a deal needs at least one of boxes 1 "
                           "to 7.")
    return _deal_plan(boxes, method, dealer_card_exposed)


@lru_cache(maxsize=1024)
def _deal_plan(boxes: tuple[int, ...], method: DealMethod,
               dealer_card_exposed: bool) -> tuple[DealStep, ...]:
    """The deal for one set of boxes (a round asks for it with every card: kept)."""
    positions: list[Position] = [*boxes, DEALER]
    numbers = range(1, HAND_SIZE + 1)
    if method is DealMethod.SHOE:
        order = [(position, n) for n in numbers for position in positions]
        shown = HAND_SIZE
    else:
        order = [(position, n) for position in positions for n in numbers]
        shown = 1
    return tuple(
        DealStep(to, n, to == DEALER and n == shown and not dealer_card_exposed) for to, n in order
    )


def check_next_card(
    boxes_with_bets: Iterable[int],
    method: DealMethod,
    dealt: Sequence[Position],
    to: Position,
    *,
    dealer_card_exposed: bool = False,
) -> DealStep:
    """The step for the next card to `to`, or DealError. `dealt` lists where the round's cards
    went so far; cards to boxes without a bet are left out (art. 11, 3): play continues)."""
    plan = expected_deal(boxes_with_bets, method, dealer_card_exposed=dealer_card_exposed)
    targets = {step.to for step in plan}
    dealt = [position for position in dealt if position in targets]
    if to not in targets:
        if to not in BOXES:
            raise InvalidInput(f"there is no box {to}: Stud Poker boxes are 1 to 7.")
        raise DealError(Irregularity.CARDS_TO_BOX_WITHOUT_BET,
                        f"a card to box {to}, which has no bet: that box is void.")
    if dealt.count(to) >= HAND_SIZE:
        raise DealError(Irregularity.WRONG_COUNT,
                        f"a sixth card to {_name(to)}: a Stud Poker hand has five cards.")
    if dealt != [step.to for step in plan[: len(dealt)]]:
        raise DealError(Irregularity.WRONG_ORDER,
                        "the cards dealt so far are out of the order of art. 7.")
    expected = plan[len(dealt)]
    if expected.to != to:
        how = ("one at a time" if method is DealMethod.SHOE else "five at a time")
        raise DealError(
            Irregularity.WRONG_ORDER,
            f"the next card goes to {_name(expected.to)}, not {_name(to)}: "
            f"cards go {how}, left to right from box 1, the dealer last.",
        )
    return expected


def classify_irregularity(
    kind: Irregularity, *, exposed: int = 0, dealer_card: bool = False
) -> Consequence:
    """What art. 11 makes of an irregularity. For exposed cards, `exposed` counts every card
    exposed by mistake in this round so far and `dealer_card` says whether the one was the
    dealer's."""
    if kind is Irregularity.CARDS_EXPOSED:
        if exposed < 1:
            raise InvalidInput("say how many cards were exposed: at least one.")
        if exposed >= 2:
            return Consequence.ROUND_VOID_JACKPOT_CARRIED
        return Consequence.DEALER_CARD_STAYS_UP if dealer_card else Consequence.ROUND_CONTINUES
    if kind is Irregularity.CARDS_TO_BOX_WITHOUT_BET:
        return Consequence.BOX_VOID
    return Consequence.ROUND_VOID_JACKPOT_CARRIED  # wrong order, wrong count, shuffler failure
