"""Stud Poker's progressive jackpot (art. 10) and jackpot bets carried over (art. 11).

Pure: a pool amount and the round's claims in, prizes out. The caller applies them to the
pool's stream; a pool linked to several tables applies rounds one at a time, in the order it
recorded them, so near-simultaneous hits are settled deterministically.

Points art. 10 leaves open, settled here (README rules section):
- Payment order: straight flushes first (art. 10, 7)), left to right; then royal flushes;
  then the fixed-sum prizes (four of a kind, full house, flush), left to right (art. 10, 4)).
  Fixed prizes come after the royals so a royal's 100% is of the pool the straight flushes
  left; a fixed prize the emptied pool cannot cover is paid by the house.
- 10% of the pool is rounded up to the avo (the ledger's rule: in the player's favour).
- Royal flushes share max(fixed sum, what the pool holds) in equal shares rounded down to the
  avo; the indivisible remainder (fewer avos than there are royals) goes one avo each to the
  royal boxes from the left, so the pool is paid out exactly and never keeps a stray avo.
- Where a prize exceeds what the pool holds, the pool pays all it has and the house the rest;
  each prize records both amounts and the pool before and after it.
- The pool restarts at the seed only when the round's payments leave it at exactly zero
  (art. 10, 8)); the seed is funded from outside the pool (house or seed reserve).
- Only a box with an ante and a jackpot bet that did not fold can win (art. 10, 1)); a
  folded hand's cards are gone (RULES.md).
- Jackpot bets feed the pool when the round that plays them settles, before its prizes, so a
  bet carried over from a void round feeds the pool once; contributions are rounded up to the
  avo, the seed reserve's part down.
- A carried jackpot bet whose box places no ante in the next round is returned to the player.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_DOWN, ROUND_UP, Decimal
from fractions import Fraction
from typing import Annotated, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from ledger.core.errors import InvalidInput
from ledger.games.common import AVO, MAX_AMOUNT, ZERO, BetResult, Outcome
from ledger.games.facts import RoundFacts
from ledger.games.stud_poker.rules import (
    JACKPOT,
    Decision,
    HandCategory,
    StudPokerRound,
    evaluate,
)

POOL_SHARE: Mapping[HandCategory, Fraction] = {  # art. 10, 2), (1) and (2): fixed by regulation
    HandCategory.ROYAL_FLUSH: Fraction(1),
    HandCategory.STRAIGHT_FLUSH: Fraction(1, 10),
}
PRIZE_CATEGORIES = (
    HandCategory.ROYAL_FLUSH,
    HandCategory.STRAIGHT_FLUSH,
    HandCategory.FOUR_OF_A_KIND,
    HandCategory.FULL_HOUSE,
    HandCategory.FLUSH,
)
Amount = Annotated[Decimal, Field(ge=0, le=MAX_AMOUNT, decimal_places=2)]


class JackpotPoolSettings(BaseModel):
    """A pool's posted fixed sums (art. 10, 3)), its seed (art. 10, 8)) and how bets feed it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    effective_from: date
    seed: Amount
    royal_flush: Amount
    straight_flush: Amount
    four_of_a_kind: Amount
    full_house: Amount
    flush: Amount
    contribution_rate: Decimal = Field(ge=0, le=1, description="share of each bet to the pool")
    reserve_rate: Decimal = Field(
        default=Decimal(0), ge=0, le=1, description="share of the contribution kept for the seed"
    )
    cap: Decimal | None = Field(default=None, gt=0, le=MAX_AMOUNT, decimal_places=2)

    def fixed_sum(self, category: HandCategory) -> Decimal:
        if category not in PRIZE_CATEGORIES:
            raise InvalidInput(f"a {category} wins no jackpot prize: art. 10, 2) lists five.")
        return Decimal(getattr(self, category.value))


def _rate(amount: Decimal, rate: Fraction | Decimal, rounding: str) -> Decimal:
    exact = Fraction(amount) * Fraction(rate)
    return (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(AVO, rounding)


@dataclass(frozen=True, slots=True)
class Contribution:
    """Where a round's jackpot stakes go: the pool, the seed reserve, the house."""

    stakes: Decimal
    to_pool: Decimal
    to_reserve: Decimal

    @property
    def retained(self) -> Decimal:
        return self.stakes - self.to_pool - self.to_reserve


def contribute(
    pool: Decimal, stakes: Iterable[Decimal], settings: JackpotPoolSettings
) -> Contribution:
    """What a settled round's jackpot stakes add to the pool; above the cap, to the reserve."""
    total = sum(stakes, ZERO)
    share = _rate(total, settings.contribution_rate, ROUND_UP)
    reserve = _rate(share, settings.reserve_rate, ROUND_DOWN)
    to_pool = share - reserve
    if settings.cap is not None:
        overflow = min(to_pool, max(pool + to_pool - settings.cap, ZERO))
        to_pool, reserve = to_pool - overflow, reserve + overflow
    return Contribution(total, to_pool, reserve)


@dataclass(frozen=True, slots=True)
class JackpotClaim:
    """A box's hand as art. 10 sees it; `eligible` applies art. 10, 1) and the fold rule."""

    box: int
    category: HandCategory
    has_jackpot_bet: bool
    folded: bool

    @property
    def eligible(self) -> bool:
        return self.has_jackpot_bet and not self.folded and self.category in PRIZE_CATEGORIES


@runtime_checkable
class JackpotProcedure(Protocol):
    """A game's procedure whose rounds feed a jackpot pool: the stakes that play, the claims."""

    def jackpot_stakes(self, facts: RoundFacts) -> list[Decimal]: ...

    def jackpot_claims(self, facts: RoundFacts) -> tuple[JackpotClaim, ...]: ...


@dataclass(frozen=True, slots=True)
class JackpotPrize:
    box: int
    category: HandCategory
    amount: Decimal
    pool_before: Decimal
    paid_by_pool: Decimal
    paid_by_house: Decimal
    pool_after: Decimal


@dataclass(frozen=True, slots=True)
class JackpotPayout:
    """A round's prizes in payment order and the pool they leave for the next round."""

    pool_before: Decimal
    prizes: tuple[JackpotPrize, ...]
    pool_after_payments: Decimal
    reset_to_seed: bool
    pool_after: Decimal  # the seed when reset, else pool_after_payments

    @property
    def paid_by_pool(self) -> Decimal:
        return sum((prize.paid_by_pool for prize in self.prizes), ZERO)

    @property
    def paid_by_house(self) -> Decimal:
        return sum((prize.paid_by_house for prize in self.prizes), ZERO)


def claims_from_round(round_: StudPokerRound) -> tuple[JackpotClaim, ...]:
    """Every box that is not void, with its hand's category, left to right."""
    return tuple(
        JackpotClaim(box.box, evaluate(box.cards).category, box.jackpot > 0,
                     box.decision is Decision.FOLD)
        for box in round_.boxes
        if box.box not in round_.void_boxes
    )


def split_equally(total: Decimal, shares: int) -> tuple[Decimal, ...]:
    """`total` in `shares` equal parts to the avo; leftover avos one each from the left."""
    base = (total / shares).quantize(AVO, ROUND_DOWN)
    leftover = int((total - base * shares) / AVO)
    return tuple(base + (AVO if index < leftover else ZERO) for index in range(shares))


def _prize_amounts(
    pool: Decimal, winners: Sequence[JackpotClaim], settings: JackpotPoolSettings
) -> list[tuple[JackpotClaim, Decimal]]:
    """Each winner's prize, in payment order (see the module docstring)."""
    def of(category: HandCategory) -> list[JackpotClaim]:
        return [claim for claim in winners if claim.category is category]

    tenth = _rate(pool, POOL_SHARE[HandCategory.STRAIGHT_FLUSH], ROUND_UP)
    straight = max(settings.straight_flush, tenth)  # art. 10, 6): of the pool before the round
    amounts = [(claim, straight) for claim in of(HandCategory.STRAIGHT_FLUSH)]
    royals = of(HandCategory.ROYAL_FLUSH)
    if royals:  # art. 10, 5) and 7): they share what the straight flushes left
        left = max(pool - straight * len(amounts), ZERO)
        everything = _rate(left, POOL_SHARE[HandCategory.ROYAL_FLUSH], ROUND_UP)
        total = max(settings.royal_flush, everything)
        amounts += zip(royals, split_equally(total, len(royals)), strict=True)
    fixed = (HandCategory.FOUR_OF_A_KIND, HandCategory.FULL_HOUSE, HandCategory.FLUSH)
    amounts += [(claim, settings.fixed_sum(claim.category))
                for claim in winners if claim.category in fixed]
    return amounts


def pay_jackpot(
    pool_before: Decimal, claims: Iterable[JackpotClaim], settings: JackpotPoolSettings
) -> JackpotPayout:
    """Art. 10, 2)-8): the round's jackpot prizes, who pays each, and the pool left after."""
    claims = sorted(claims, key=lambda claim: claim.box)
    boxes = [claim.box for claim in claims]
    if len(set(boxes)) != len(boxes):
        raise InvalidInput(f"a box claims the jackpot twice: boxes {boxes}.")
    if pool_before < 0:
        raise InvalidInput(f"a jackpot pool of {pool_before} is impossible: it is never negative.")
    pool, prizes = pool_before, []
    for claim, amount in _prize_amounts(pool_before, [c for c in claims if c.eligible], settings):
        by_pool = min(amount, pool)
        prizes.append(JackpotPrize(claim.box, claim.category, amount, pool, by_pool,
                                   amount - by_pool, pool - by_pool))
        pool -= by_pool
    reset = bool(prizes) and pool == 0  # art. 10, 8)
    return JackpotPayout(pool_before, tuple(prizes), pool, reset, settings.seed if reset else pool)


@dataclass(frozen=True, slots=True)
class CarriedJackpotBet:
    """A jackpot bet a void round moved to the next round on the same box (art. 11, 1), 4))."""

    box: int
    stake: Decimal


def carry_over(void_results: Iterable[BetResult]) -> tuple[CarriedJackpotBet, ...]:
    """The jackpot bets a void round's settlement (`stud_poker.settle_void`) carried over."""
    return tuple(
        CarriedJackpotBet(result.box, result.stake)
        for result in void_results
        if result.spot == JACKPOT and result.outcome is Outcome.CARRIED
    )


def admit_carried(
    carried: Iterable[CarriedJackpotBet], antes: Mapping[int, Decimal]
) -> tuple[tuple[CarriedJackpotBet, ...], tuple[BetResult, ...]]:
    """Carried bets that stand in the next round (their box has an ante, art. 10, 1)) and the
    BetResults that return the others to their players."""
    carried = tuple(carried)
    standing = tuple(bet for bet in carried if antes.get(bet.box))
    returned = tuple(
        BetResult(bet.box, JACKPOT, bet.stake, Outcome.RETURNED, returned=bet.stake)
        for bet in carried
        if not antes.get(bet.box)
    )
    return standing, returned
