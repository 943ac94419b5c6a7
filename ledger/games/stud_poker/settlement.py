"""Stud Poker boxes, the round, and its settlement (arts. 6, 9, 11)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

from ledger.core.cards import Card
from ledger.core.errors import InvalidInput, RuleViolation
from ledger.core.formatting import money
from ledger.games.common import ZERO, BetResult, Outcome, pay
from ledger.games.stud_poker.hands import (
    ANTE,
    BOXES,
    JACKPOT,
    RAISE,
    HandValue,
    _qualifies,
    evaluate,
)
from ledger.games.stud_poker.settings import (
    CAPPED,
    StudPokerSettings,
    raise_odds,
)


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


