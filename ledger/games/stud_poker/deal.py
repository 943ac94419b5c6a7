"""Stud Poker's deal (art. 7) and its irregularities (art. 11)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Final, Literal

from ledger.core.errors import InvalidInput, RuleViolation
from ledger.games.common import Consequence
from ledger.games.stud_poker.hands import (
    BOXES,
    HAND_SIZE,
)

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
