"""Stud Poker's bets: house edge and variance per unit staked (arts. 6, 9 and 10).

The ante's figures are per ante and include the additional bet's result (the industry's "house
edge per ante"): the box antes 1, then raises 2 or folds. The box plays to maximise its
expectation, seeing its five cards and the dealer's up card: it raises when raising is worth
more than folding's -1. The raise spot's result is counted in the ante's.

The figures come from an exact enumeration of every deal, box hand by up card by the dealer's
four hidden cards (2,598,960 x 47 x 163,185), made by `scripts/stud-odds` and stored per hand
category in `odds_data`: how many deals the box folds, and of those it raises, how many the
dealer does not qualify, the box wins, loses or (rank-only order) pushes. That part does not
depend on the paytable: a hand whose decision depends on the up card is A-K high, paid 1:1
under every paytable, and a pair or better raises against every up card. So the settings'
royal flush odds apply here, exactly, in rational arithmetic.

Both rule versions share art. 8's order and art. 9's play: 2003 fixes the royal flush at 50:1,
2004 lets the house set 50..100:1. Art. 8's suit tie-breaks make every showdown decided (no
pushes); `ante_figures(..., ties_push=True)` gives the industry's Caribbean Stud instead
(ranks only, equal hands push), the published 5.224% at 100:1.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_UP, Decimal
from fractions import Fraction

from ledger.core.cards import Card, Rank
from ledger.core.errors import InvalidInput
from ledger.core.formatting import money
from ledger.games.jackpot import POOL_SHARE, PRIZE_CATEGORIES, JackpotPoolSettings
from ledger.games.odds import BetOdds, Moments, RoundOdds, Stake, exact
from ledger.games.settings import HouseSettings
from ledger.games.stud_poker import odds_data, round_data
from ledger.games.stud_poker.hands import (
    ANTE,
    JACKPOT,
    RAISE,
    HandCategory,
    _qualifies,
    evaluate,
)
from ledger.games.stud_poker.settings import RAISE_ODDS, StudPokerSettings

AVO = Decimal("0.01")
HANDS = 2_598_960
CATEGORY_COUNTS = {  # five-card hands of one deck (RULES.md's reference figures)
    HandCategory.ROYAL_FLUSH: 4, HandCategory.STRAIGHT_FLUSH: 36,
    HandCategory.FOUR_OF_A_KIND: 624, HandCategory.FULL_HOUSE: 3_744,
    HandCategory.FLUSH: 5_108, HandCategory.STRAIGHT: 10_200,
    HandCategory.THREE_OF_A_KIND: 54_912, HandCategory.TWO_PAIRS: 123_552,
    HandCategory.ONE_PAIR: 1_098_240, HandCategory.HIGH_CARD: 1_302_540,
}


@dataclass(frozen=True, slots=True)
class Deals:
    """One order's enumeration; the tuples are indexed by `HandCategory.strength`."""

    folded: int
    not_qualified: tuple[int, ...]  # raised; the dealer does not qualify: ante 1:1
    won: tuple[int, ...]  # raised; the box beats a qualifying dealer
    lost: tuple[int, ...]  # raised; a qualifying dealer beats the box
    pushed: tuple[int, ...]  # raised; equal hands (rank-only order only)
    ak_raised: int  # A-K high (hand, up card) cases raised, of `ak_cases`
    ak_cases: int

    def moments(self, odds: Sequence[int]) -> tuple[Fraction, Fraction]:
        """The box's mean and mean square result per ante, `odds` the raise's per category."""
        total = (self.folded + sum(self.not_qualified) + sum(self.won) + sum(self.lost)
                 + sum(self.pushed))
        wins = [1 + 2 * paid for paid in odds]  # ante 1:1 and a raise of 2 at its odds
        mean = (-self.folded + sum(self.not_qualified) - 3 * sum(self.lost)
                + sum(n * win for n, win in zip(self.won, wins, strict=True)))
        square = (self.folded + sum(self.not_qualified) + 9 * sum(self.lost)
                  + sum(n * win * win for n, win in zip(self.won, wins, strict=True)))
        return Fraction(mean, total), Fraction(square, total)


SUIT_TIE_BREAKS = Deals(*odds_data.SUIT_TIE_BREAKS)
RANK_ONLY = Deals(*odds_data.RANK_ONLY)


def raise_paytable(royal_odds: int) -> tuple[int, ...]:
    """Art. 9, 5)'s odds by category strength, high card first; the royal flush's from settings."""
    return tuple(royal_odds if category is HandCategory.ROYAL_FLUSH else RAISE_ODDS[category]
                 for category in sorted(HandCategory, key=lambda category: category.strength))


def ante_figures(royal_odds: int, *, ties_push: bool = False) -> tuple[Fraction, Fraction]:
    """Exact (house edge, variance) per ante, raise included, under optimal play.

    `ties_push` compares ranks only and pushes equal hands: the industry's Caribbean Stud.

    >>> edge, variance = ante_figures(100, ties_push=True)
    >>> exact(edge), exact(variance)
    (Decimal('0.0522431'), Decimal('5.0308259'))
    """
    deals = RANK_ONLY if ties_push else SUIT_TIE_BREAKS
    mean, square = deals.moments(raise_paytable(royal_odds))
    return -mean, square - mean * mean


def raises(cards: Sequence[Card], up_card: Card) -> bool:
    """The box's play: a pair or better raises, below A-K high folds, A-K high by the ranks
    table `odds_data.AK_RAISES`. That table is the exact best play but where the suits of a
    rank pattern decide a near-even case (71 of 2,132 patterns): it takes the majority, which
    costs `AK_RAISES_LOSS` deals' worth, under a millionth of an ante per ante.

    >>> from ledger.core.cards import parse_card, parse_cards
    >>> raises(parse_cards("AS KD 7C 4H 2S"), parse_card("4D"))
    True
    >>> raises(parse_cards("AS KD 7C 4H 2S"), parse_card("QD"))
    False
    """
    value = evaluate(cards)
    if value.category is not HandCategory.HIGH_CARD:
        return True
    if value.ranks[:2] != (Rank.ACE, Rank.KING):
        return False
    low = "".join(rank.symbol for rank in value.ranks[2:])
    return up_card.rank.symbol in odds_data.AK_RAISES[low]


def _ante_method(settings: StudPokerSettings) -> str:
    deals = SUIT_TIE_BREAKS
    first_capped = settings.max_payout / (2 * settings.royal_odds)
    return (
        f"exact: every deal enumerated (2,598,960 box hands x 47 up cards x 163,185 hidden "
        f"dealer cards), rule version {settings.rule_version} with the royal flush at "
        f"{settings.royal_odds}:1, art. 8's suit tie-breaks (no pushes); per ante, the raise's "
        f"result included. The box maximises its expectation seeing its cards and the up card: "
        f"a pair or better always raises, below A-K high always folds, A-K high raises in "
        f"{deals.ak_raised:,} of {deals.ak_cases:,} (hand, up card) cases "
        f"({odds_data.AK_STRATEGY}). The payout cap is taken as not binding: true for antes "
        f"up to {money(first_capped.quantize(AVO))}."
    )


def bet_odds(settings: HouseSettings) -> tuple[BetOdds, ...]:
    """The ante (per ante, raise included) and the raise (counted in the ante). The jackpot
    bet's figures depend on the pool as it stands: `jackpot_odds`."""
    if not isinstance(settings, StudPokerSettings):
        raise InvalidInput(f"Stud Poker's odds need Stud Poker settings, not {settings!r}.")
    edge, variance = ante_figures(settings.royal_odds)
    return (
        BetOdds(ANTE, exact(edge), exact(variance), _ante_method(settings)),
        BetOdds(RAISE, Decimal(0), Decimal(0),
                "counted in the ante's figures: the raise is exactly twice the ante, placed "
                "after seeing the cards, and its result is part of the ante's per ante"),
    )


def jackpot_prizes(pool: JackpotPoolSettings, pool_amount: Decimal) -> dict[HandCategory, Decimal]:
    """Art. 10, 2): each prize for one box alone in its round (10% rounded up to the avo)."""
    prizes = {category: pool.fixed_sum(category) for category in PRIZE_CATEGORIES}
    for category, share in POOL_SHARE.items():
        part = Fraction(pool_amount) * share
        of_pool = (Decimal(part.numerator) / Decimal(part.denominator)).quantize(AVO, ROUND_UP)
        prizes[category] = max(prizes[category], of_pool)
    return prizes


def jackpot_hit_chance() -> Fraction:
    """The chance that a jackpot bet wins a prize: a flush or better on the box's five cards
    (art. 10, 2)).

    >>> jackpot_hit_chance()  # 9,516 of 2,598,960 hands
    Fraction(61, 16660)
    """
    return Fraction(sum(CATEGORY_COUNTS[c] for c in PRIZE_CATEGORIES), HANDS)


def jackpot_odds(pool: JackpotPoolSettings, stake: Decimal, pool_amount: Decimal) -> BetOdds:
    """The jackpot bet: edge 1 - E[prize] / stake, variance of prize / stake, exact.

    The bet is always collected and a prize paid on the box's own five cards, whatever the
    dealer holds; a hand that wins a prize (flush or better) always raises, so no folded hand
    forfeits one. Taken alone in its round: a royal shared with another box is not counted.
    """
    if stake <= 0:
        raise InvalidInput(f"a jackpot bet of {money(stake)} is not a stake.")
    prizes = jackpot_prizes(pool, pool_amount)
    chances = {category: Fraction(CATEGORY_COUNTS[category], HANDS) for category in prizes}
    mean = sum((chances[c] * Fraction(prizes[c]) for c in prizes), Fraction(0))
    square = sum((chances[c] * Fraction(prizes[c]) ** 2 for c in prizes), Fraction(0))
    unit = Fraction(stake)
    return BetOdds(
        JACKPOT, exact(1 - mean / unit), exact((square - mean * mean) / unit / unit),
        f"exact: art. 10's prizes on the box's five cards over all 2,598,960 hands, with a "
        f"pool of {money(pool_amount)} and a bet of {money(stake)}; one box alone in its round",
    )


# --- a round's bets together ------------------------------------------------------------------


def ante_result(cards: Sequence[Card], dealer: Sequence[Card], up_card: Card,
                royal_odds: int) -> Fraction:
    """A box's result per ante, raise included, played as `raises` says: what the ante's
    figures average (one deal; for estimates and checks, not for settling).

    >>> from ledger.core.cards import parse_card, parse_cards
    >>> ante_result(parse_cards("AS AD 7C 4H 2S"), parse_cards("KS QD 9C 5H 3S"),
    ...             parse_card("3S"), 100)
    Fraction(1, 1)
    """
    if not raises(cards, up_card):
        return Fraction(-1)
    box, house = evaluate(cards), evaluate(dealer)
    if not _qualifies(house):
        return Fraction(1)
    if box < house:
        return Fraction(-3)
    if box == house:
        return Fraction(0)
    odds = royal_odds if box.category is HandCategory.ROYAL_FLUSH else RAISE_ODDS[box.category]
    return Fraction(1 + 2 * odds)


def round_odds(settings: HouseSettings) -> RoundOdds:
    """How a round's bets move together: a box's ante carries its raise's result; two boxes
    meet the same dealer hand. Jackpot bets go to the pool, not the table's win: left out."""
    if not isinstance(settings, StudPokerSettings):
        raise InvalidInput(f"Stud Poker's odds need Stud Poker settings, not {settings!r}.")
    edge, variance = ante_figures(settings.royal_odds)
    return RoundOdds(
        {ANTE: edge, RAISE: Fraction(0)}, {(ANTE, ANTE): variance}, round_data.ACROSS,
        f"one box: exact, per ante with its raise ({_ante_method(settings)}); two boxes of a "
        f"round (the same dealer hand): {round_data.METHOD}", round_data.ERROR)


def round_moments(settings: HouseSettings, bets: Iterable[Stake]) -> Moments:
    """The mean and variance of the house's win on one round holding `bets`: a box's raise
    is counted in its ante's figures, so only antes weigh.

    >>> from ledger.games.stud_poker.settings import StudPokerSettings
    >>> settings = StudPokerSettings(effective_from="2026-01-01", authorisation="test",
    ...     min_bet=100, max_bet=1000, rule_version="2004", royal_odds=100, max_payout=100000)
    >>> round_moments(settings, [Stake(1, "ante", Decimal(100)), Stake(1, "raise", Decimal(200)),
    ...                          Stake(1, "jackpot", Decimal(10))]).mean
    Decimal('5.2241')
    """
    return round_odds(settings).moments(bet for bet in bets if bet.spot != JACKPOT)
