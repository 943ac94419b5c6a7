"""Q Poker's house edges and variances per unit staked, exact over one deck (arts. 8-10).

The bonus bet is settled on the box's three cards alone: counted over all C(52,3) = 22,100
hands. The play bet is decided after the box's cards are seen: surrender loses half (art.
9(3)); continuing meets the dealer's three cards from the 49 left, C(49,3) = 18,424 hands,
each as likely. Every box hand is played the way that is best for the player (continue when
continuing is worth more than -1/2), and its result against every dealer hand is counted.

Counting is done once for all hands: the 22,100 hands are valued with the engine's `evaluate`
and their values sorted; the dealer hands below a value that share no card with the box are
all the hands below it, less those holding one of the box's cards, plus those holding two of
them (inclusion-exclusion), each count a bisection in a sorted list.

`ante_play_edge` plays the same machinery with three card poker's rules, whose published
figures check it.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations

from ledger.core.cards import DECK, Card
from ledger.games.odds import BetOdds, Moments, RoundOdds, Stake, covariances, from_results
from ledger.games.q_poker import round_data
from ledger.games.q_poker.hands import QUEEN_HIGH, Category, HandValue, evaluate
from ledger.games.q_poker.settlement import (
    BONUS_ODDS,
    DEALER_NOT_QUALIFIED_ODDS,
    PLAY_ODDS,
    SURRENDER_KEEPS,
)
from ledger.games.q_poker.table import QPokerSettings, Spot

Hand = tuple[int, int, int]  # card indices, ascending
Key = tuple[int, ...]
DEALER_HANDS = 18_424  # C(49, 3)
SURRENDER = -SURRENDER_KEEPS  # art. 9(3): half the play bet is lost
# Three card poker, the published game the machinery is checked against.
ANTE_BONUS = {Category.STRAIGHT_FLUSH: 5, Category.THREE_OF_A_KIND: 4, Category.STRAIGHT: 1}


@lru_cache(maxsize=1)
def _hands() -> tuple[tuple[Hand, ...], tuple[HandValue, ...]]:
    hands = tuple(combinations(range(len(DECK)), 3))  # DECK[i].index == i
    return hands, tuple(evaluate(DECK[i] for i in hand) for hand in hands)


def _rank_key(value: HandValue) -> Key:
    """Art. 8's key without its suit: every tie-break ends with a suit but three of a kind's."""
    return value.key if value.category is Category.THREE_OF_A_KIND else value.key[:-1]


@dataclass(frozen=True, slots=True)
class _Against:
    """One box hand's dealer hands, counted by the comparison the settlement makes."""

    not_qualifying: int  # the dealer has less than Q-high (art. 9(4))
    below: int  # the dealer qualifies and is below the box
    level: int  # the dealer qualifies and ties the box
    above: int  # the dealer qualifies and beats the box


class _Table:
    """Every hand's key as its place among the distinct keys, in sorted lists: of all hands,
    of the hands holding each card, of the hands holding each pair of cards."""

    def __init__(self, key: Callable[[HandValue], Key]) -> None:
        hands, values = _hands()
        keys = [key(value) for value in values]
        distinct = sorted(set(keys))
        place = {k: i for i, k in enumerate(distinct)}
        self.places = [place[k] for k in keys]
        self.qualifying = bisect_left(distinct, QUEEN_HIGH)  # places below it do not qualify
        self.every = sorted(self.places)
        self.holding: dict[tuple[int, ...], list[int]] = {}
        for hand, at in zip(hands, self.places, strict=True):
            for held in (*combinations(hand, 1), *combinations(hand, 2)):
                self.holding.setdefault(held, []).append(at)
        for places in self.holding.values():
            places.sort()

    def _disjoint(self, hand: Hand, place: int, count: Callable[[list[int], int], int]) -> int:
        """Hands sharing no card with `hand` whose place is counted by `count` (bisect_left
        counts those below `place`, bisect_right those at or below it)."""
        a, b, c = hand
        total = count(self.every, place)
        total -= sum(count(self.holding[(card,)], place) for card in hand)
        total += sum(count(self.holding[pair], place) for pair in ((a, b), (a, c), (b, c)))
        return total - count([self.place_of(hand)], place)

    def place_of(self, hand: Hand) -> int:
        return self.places[_index()[hand]]

    def against(self, hand: Hand) -> _Against:
        at = self.place_of(hand)
        short = self._disjoint(hand, self.qualifying, bisect_left)
        below = self._disjoint(hand, at, bisect_left)
        level = self._disjoint(hand, at, bisect_right) - below
        if at < self.qualifying:  # every dealer hand at or below the box does not qualify
            below = level = 0
        else:
            below -= short
        return _Against(short, below, level, DEALER_HANDS - short - below - level)


@lru_cache(maxsize=1)
def _index() -> dict[Hand, int]:
    return {hand: i for i, hand in enumerate(_hands()[0])}


def _play_win(value: HandValue) -> Fraction:
    return PLAY_ODDS.get(value.category, Fraction(1))  # art. 9(7)


def _continue_results(value: HandValue, count: _Against) -> Counter[Fraction]:
    """The play bet's results when the box continues, in dealer hands. The settlement pays the
    box unless the dealer is above it (`dealer > box`), so a tie would pay; none occurs."""
    results = Counter({DEALER_NOT_QUALIFIED_ODDS: count.not_qualifying})
    results[_play_win(value)] += count.below + count.level
    results[Fraction(-1)] += count.above
    return results


def _mean(results: Counter[Fraction]) -> Fraction:
    return sum((r * n for r, n in results.items()), Fraction(0)) / sum(results.values())


@dataclass(frozen=True, slots=True)
class PlayTable:
    """The play bet under the best strategy: each result's chance and the hands continued."""

    results: dict[Fraction, Fraction]
    continued: frozenset[Hand]
    ties: int  # box and dealer hands that tie: none, as hands from one deck never do


@lru_cache(maxsize=1)
def play_table() -> PlayTable:
    table = _Table(lambda value: value.key)
    hands, values = _hands()
    tally: dict[Fraction, int] = {SURRENDER: 0}
    continued, ties = set(), 0
    for hand, value in zip(hands, values, strict=True):
        count = table.against(hand)
        ties += count.level
        results = _continue_results(value, count)
        if _mean(results) > SURRENDER:
            continued.add(hand)
            for result, n in results.items():
                tally[result] = tally.get(result, 0) + n
        else:
            tally[SURRENDER] += DEALER_HANDS
    deals = len(hands) * DEALER_HANDS
    return PlayTable(
        {result: Fraction(n, deals) for result, n in tally.items()}, frozenset(continued), ties
    )


def continues(cards: Iterable[Card]) -> bool:
    """Whether the best strategy continues the play bet with these three cards."""
    hand = tuple(sorted(card.index for card in cards))
    return hand in play_table().continued


def _ranks(value: HandValue) -> str:
    return "-".join(card.rank.symbol for card in value.cards)


def _cards(hand: Hand) -> str:
    return " ".join(str(DECK[i]) for i in sorted(hand, key=lambda i: -i))


def strategy() -> str:
    """The best strategy in words: the lowest rank pattern from which every hand continues
    (art. 8's order without suits), and the hands below it that continue all the same."""
    hands, values = _hands()
    continued = play_table().continued
    patterns: dict[Key, list[tuple[HandValue, Hand]]] = {}
    for value, hand in zip(values, hands, strict=True):
        patterns.setdefault(_rank_key(value), []).append((value, hand))
    ordered = sorted(patterns)
    lowest = len(ordered)
    while lowest and all(hand in continued for _, hand in patterns[ordered[lowest - 1]]):
        lowest -= 1
    value = patterns[ordered[lowest]][0][0]
    words = f"continue with {value.category.replace('_', ' ')} {_ranks(value)} or better"
    below = [hand for key in ordered[:lowest] for _, hand in patterns[key] if hand in continued]
    if below:
        words += f", and with {len(below)} hands below it ({', '.join(map(_cards, below))})"
    return words + ", else surrender"


def _play_odds() -> BetOdds:
    table = play_table()
    method = (
        "exact: every box hand (22,100) against every dealer hand of the 49 cards left "
        "(18,424), results as settle_play gives them (dealer below Q-high: box wins 1:2; box "
        "beats a qualifying dealer: 3:1, 2:1, 3:2 or 1:1; else loses); the box plays the "
        f"strategy best for the player, surrender when continuing is worth -1/2 or less: "
        f"{strategy()} ({len(table.continued)} of 22,100 hands continue)"
    )
    return from_results(Spot.PLAY.value, table.results, method)


def _bonus_odds() -> BetOdds:
    _, values = _hands()
    tally: dict[Fraction, int] = {}
    for value in values:
        result = BONUS_ODDS.get(value.category, Fraction(-1))  # art. 9(1): a high card loses
        tally[result] = tally.get(result, 0) + 1
    method = (
        "exact: the box's three cards over all C(52,3) = 22,100 hands, paid "
        + "/".join(str(BONUS_ODDS[category]) for category in BONUS_ODDS)
        + " (straight flush, three of a kind, straight, flush, pair); a high card loses"
    )
    return from_results(
        Spot.BONUS.value, {r: Fraction(n, len(values)) for r, n in tally.items()}, method
    )


@lru_cache(maxsize=1)
def _bet_odds() -> tuple[BetOdds, ...]:
    return _bonus_odds(), _play_odds()


def bet_odds(settings: QPokerSettings) -> tuple[BetOdds, ...]:
    """The bonus and play bets' edge and variance per unit staked: the regulation fixes every
    payout and the deck, so no house setting changes them."""
    return _bet_odds()


@lru_cache(maxsize=1)
def ante_play_edge() -> Fraction:
    """Three card poker's ante-play edge per ante, by the same counting: ante and play of one
    unit each; fold loses the ante; a dealer below Q-high pays the ante 1:1 and pushes the play;
    a box above a qualifying dealer wins both 1:1, below loses both, level pushes both (ranks
    only); the ante bonus pays 5, 4, 1 for a straight flush, three, straight whatever the
    dealer holds. The box plays when that is worth more than folding."""
    table = _Table(_rank_key)
    hands, values = _hands()
    total = Fraction(0)
    for hand, value in zip(hands, values, strict=True):
        count = table.against(hand)
        played = ANTE_BONUS.get(value.category, 0) + Fraction(
            count.not_qualifying + 2 * count.below - 2 * count.above, DEALER_HANDS
        )
        total += max(played, Fraction(-1))
    return -total / len(hands)


def bonus_edge() -> Fraction:
    """The bonus bet's exact edge (three card poker's pair plus on the same pay table)."""
    _, values = _hands()
    paid = sum(BONUS_ODDS.get(value.category, Fraction(-1)) for value in values)
    return -Fraction(paid) / len(values)


# --- a round's bets together ------------------------------------------------------------------


@lru_cache(maxsize=1)
def box_outcomes() -> dict[tuple[Fraction, Fraction], Fraction]:
    """The joint chance of a box's bonus and play results per unit, exact: every box hand
    against every dealer hand of the 49 cards left, the box playing as `play_table` does (every
    player sharing a box sees its cards, so plays it alike)."""
    table = _Table(lambda value: value.key)
    hands, values = _hands()
    continued = play_table().continued
    tally: Counter[tuple[Fraction, Fraction]] = Counter()
    for hand, value in zip(hands, values, strict=True):
        bonus = BONUS_ODDS.get(value.category, Fraction(-1))
        if hand not in continued:
            tally[bonus, SURRENDER] += DEALER_HANDS
            continue
        for play, n in _continue_results(value, table.against(hand)).items():
            tally[bonus, play] += n
    deals = len(hands) * DEALER_HANDS
    return {outcome: Fraction(n, deals) for outcome, n in tally.items() if n}


@lru_cache(maxsize=1)
def _round_odds() -> RoundOdds:
    means, within = covariances(
        box_outcomes(), lambda o: {Spot.BONUS.value: o[0], Spot.PLAY.value: o[1]})
    return RoundOdds(
        {spot: -mean for spot, mean in means.items()}, within, round_data.ACROSS,
        "one box: exact, the joint chance of its bonus and play results over every box hand "
        "against every dealer hand, the box played as the best strategy says; two boxes of a "
        f"round (the same dealer hand): {round_data.METHOD}", round_data.ERROR)


def round_odds(settings: QPokerSettings) -> RoundOdds:
    """How a round's bets move together: no house setting changes it."""
    return _round_odds()


def round_moments(settings: QPokerSettings, bets: Iterable[Stake]) -> Moments:
    """The mean and variance of the house's win on one round holding `bets` (several players'
    bets on one box share its cards).

    >>> from decimal import Decimal
    >>> from ledger.games.q_poker.table import QPokerSettings
    >>> settings = QPokerSettings(effective_from="2026-01-01", authorisation="test",
    ...                           min_bet=100, max_bet=1000)
    >>> round_moments(settings, [Stake(1, "play", Decimal(100))]).mean
    Decimal('2.7591')
    """
    return round_odds(settings).moments(bets)
