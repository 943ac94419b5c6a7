"""Baccarat's house edges and variances per unit staked, exact for a fresh shoe.

The first coup of a freshly shuffled shoe of `decks` decks is enumerated card by card without
replacement. The winner depends on card values only, so the ten values are enumerated (value
0 holds T, J, Q and K: 16 cards a deck; the others 4) and each value sequence is weighted by
how many ordered card sequences it stands for, in integers scaled to the shoe's first six
cards. Who draws is asked of the tableau itself (`next_card_to`) and who wins of `play_coup`,
so the figures are the engine's, not a restatement of art. 9.

>>> from ledger.games.baccarat.settings import BaccaratSettings
>>> settings = BaccaratSettings(decks=8, effective_from="2026-01-01", authorisation="test",
...                             min_bet=100, max_bet=1000)
>>> [(odds.spot, str(odds.edge)) for odds in bet_odds(settings)][:3]
[('player', '0.0123508'), ('banker', '0.0105791'), ('tie', '0.1435963')]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from fractions import Fraction
from functools import cache, lru_cache
from itertools import product

from ledger.core.cards import DECK, Card, Rank, Suit
from ledger.games.baccarat.coup import Side, Winner, next_card_to, play_coup
from ledger.games.baccarat.settings import BaccaratSettings
from ledger.games.baccarat.settlement import ODDS, Spot
from ledger.games.odds import BetOdds, Moments, RoundOdds, Stake, covariances, from_results

VALUES = range(10)
_REPRESENTATIVE = {
    value: Card(Rank.TEN if value == 0 else Rank.ACE if value == 1 else Rank(value), Suit.SPADES)
    for value in VALUES
}
_CONVENTION = (
    "a tie pushes the player and banker bets (art. 12): counted as a resolved bet with result "
    "0, so the edge is per unit staked including ties"
)

Totals = tuple[tuple[int, ...], ...]  # [player total][banker total] -> weight


def _cards(*values: int) -> list[Card]:
    return [_REPRESENTATIVE[value] for value in values]


@lru_cache(maxsize=1)
def _tableau() -> tuple[dict[tuple[int, int], Side | None], dict[tuple[int, int, int], bool]]:
    """The engine's tableau by two-card totals: who takes the fifth card, and whether the
    banker draws after the player's third card worth x. Two cards 0 + t stand for total t."""
    after_four = {
        (player, banker): next_card_to(_cards(player, banker, 0, 0))
        for player in VALUES for banker in VALUES
    }
    banker_draws = {
        (player, banker, x): next_card_to(_cards(player, banker, 0, 0, x)) is Side.BANKER
        for (player, banker), side in after_four.items() if side is Side.PLAYER
        for x in VALUES
    }
    return after_four, banker_draws


@lru_cache(maxsize=1)
def _winners() -> dict[tuple[int, int], Winner]:
    """The winner for each pair of final totals, from a six-card coup the engine plays:
    0 + 0 draws for both sides, so the third cards are the final totals."""
    return {
        (player, banker): play_coup(_cards(0, 0, 0, 0, player, banker)).winner
        for player in VALUES for banker in VALUES
    }


def _falling(n: int, k: int) -> int:
    product = 1
    for i in range(k):
        product *= n - i
    return product


def _final_totals(decks: int) -> Totals:
    """Ordered six-card starts of the shoe giving each pair of final totals."""
    after_four, banker_draws = _tableau()
    left = [16 * decks] + [4 * decks] * 9
    rest = 52 * decks - 5  # the sixth card of a coup that used five
    tally = [[0] * 10 for _ in VALUES]
    for p1, b1, p2, b2 in _four_card_starts():
        weight = 1
        for value in (p1, b1, p2, b2):
            weight *= left[value]
            left[value] -= 1
        player, banker = (p1 + p2) % 10, (b1 + b2) % 10
        side = after_four[player, banker]
        if side is None:
            tally[player][banker] += weight * (rest + 1) * rest
        elif side is Side.BANKER:  # the player stood; the banker draws
            for y in VALUES:
                tally[player][(banker + y) % 10] += weight * left[y] * rest
        else:
            for x in VALUES:
                drawn, left[x] = weight * left[x], left[x] - 1
                final = (player + x) % 10
                if banker_draws[player, banker, x]:
                    for y in VALUES:
                        tally[final][(banker + y) % 10] += drawn * left[y]
                else:
                    tally[final][banker] += drawn * rest
                left[x] += 1
        for value in (p1, b1, p2, b2):
            left[value] += 1
    return tuple(tuple(row) for row in tally)


@lru_cache(maxsize=1)
def _four_card_starts() -> tuple[tuple[int, int, int, int], ...]:
    return tuple(
        (p1, b1, p2, b2) for p1 in VALUES for b1 in VALUES for p2 in VALUES for b2 in VALUES
    )


@cache
def coup_chances(decks: int) -> dict[Winner, Fraction]:
    """P(player), P(banker), P(tie) for the first coup of a fresh shoe of `decks` decks."""
    totals = _final_totals(decks)
    starts = _falling(52 * decks, 6)
    if sum(map(sum, totals)) != starts:
        raise ArithmeticError("the enumeration did not count every six-card start once")
    tally: Counter[Winner] = Counter()
    for (player, banker), winner in _winners().items():
        tally[winner] += totals[player][banker]
    return {winner: Fraction(tally[winner], starts) for winner in Winner}


@cache
def pair_chance(decks: int) -> Fraction:
    """P(a side's first two cards share a rank, art. 13(4)): the player's are the shoe's cards
    1 and 3, the banker's 2 and 4; in a shuffled shoe any two places hold a uniform pair."""
    ranks = Counter(card.rank for card in DECK)
    cards = 52 * decks
    same = sum(decks * count * (decks * count - 1) for count in ranks.values())
    return Fraction(same, cards * (cards - 1))


def _side_odds(spot: Spot, chances: dict[Winner, Fraction], win: Fraction, how: str) -> BetOdds:
    lose = Winner.PLAYER if spot is Spot.BANKER else Winner.BANKER
    results = {
        win: chances[Winner(spot.value)],
        Fraction(-1): chances[lose],
        Fraction(0): chances[Winner.TIE],
    }
    return from_results(spot.value, results, f"{how}; {_CONVENTION}")


@cache
def _bet_odds(decks: int, commission: Fraction) -> tuple[BetOdds, ...]:
    chances = coup_chances(decks)
    pair = pair_chance(decks)
    shoe = (
        f"exact: every first coup of a fresh {decks}-deck shoe enumerated without replacement "
        f"through the tableau (card values, weighted by ordered card sequences)"
    )
    banker_win = ODDS[Spot.BANKER] * (1 - commission)
    tie = {ODDS[Spot.TIE]: chances[Winner.TIE], Fraction(-1): 1 - chances[Winner.TIE]}
    pair_method = (
        f"exact: a side's first two cards share a rank, {pair.numerator}/{pair.denominator} "
        f"in a fresh {decks}-deck shoe; pays {ODDS[Spot.PLAYER_PAIR]}:1"
    )
    pairs = {ODDS[Spot.PLAYER_PAIR]: pair, Fraction(-1): 1 - pair}
    return (
        _side_odds(Spot.PLAYER, chances, ODDS[Spot.PLAYER], f"{shoe}; pays 1:1"),
        _side_odds(
            Spot.BANKER, chances, banker_win,
            f"{shoe}; pays 1:1 less {commission * 100}% commission on the win, taken exactly "
            "(the ledger rounds commission down to the avo, in the player's favour)",
        ),
        from_results(Spot.TIE.value, tie, f"{shoe}; pays {ODDS[Spot.TIE]}:1"),
        from_results(Spot.PLAYER_PAIR.value, pairs, pair_method),
        from_results(Spot.BANKER_PAIR.value, pairs, pair_method),
    )


def bet_odds(settings: BaccaratSettings) -> tuple[BetOdds, ...]:
    """Every baccarat bet's edge and variance per unit staked under `settings`."""
    return _bet_odds(settings.decks, Fraction(settings.commission_rate))


# --- the coup's bets together ---------------------------------------------------------------

CoupOutcome = tuple[Winner, bool, bool]  # the winner, a player pair, a banker pair
_RANK_VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0)  # A to 9, then T, J, Q, K


def _draws(start: tuple[int, int, int, int], left: list[int],
           rest: int) -> list[tuple[int, int, int]]:
    """After the four values `start` (player, banker, player, banker) with `left` cards of each
    value in the shoe: each pair of final totals and its count of ordered fifth-sixth cards."""
    after_four, banker_draws = _tableau()
    p1, b1, p2, b2 = start
    player, banker = (p1 + p2) % 10, (b1 + b2) % 10
    side = after_four[player, banker]
    if side is None:
        return [(player, banker, (rest + 1) * rest)]
    if side is Side.BANKER:
        return [(player, (banker + y) % 10, left[y] * rest) for y in VALUES]
    found = []
    for x in VALUES:
        drawn, left[x] = left[x], left[x] - 1
        final = (player + x) % 10
        if banker_draws[player, banker, x]:
            found += [(final, (banker + y) % 10, drawn * left[y]) for y in VALUES]
        else:
            found.append((final, banker, drawn * rest))
        left[x] += 1
    return found


@cache
def coup_outcomes(decks: int) -> dict[CoupOutcome, Fraction]:
    """The joint chance of the coup's winner and of each side's pair (art. 13(4)), for the first
    coup of a fresh shoe of `decks` decks: the first four cards enumerated by rank, the draws
    by value, every ordered six-card start of the shoe counted once."""
    ranks, values = [4 * decks] * 13, [16 * decks] + [4 * decks] * 9
    rest = 52 * decks - 5
    drawn: dict[tuple[int, int, int, int], list[tuple[int, int, int]]] = {}
    tally: Counter[tuple[int, int, bool, bool]] = Counter()

    def take(rank: int) -> int:
        count = ranks[rank]
        ranks[rank] -= 1
        values[_RANK_VALUES[rank]] -= 1
        return count

    def put(rank: int) -> None:
        ranks[rank] += 1
        values[_RANK_VALUES[rank]] += 1

    for start in product(range(13), repeat=4):
        weight = 1
        for rank in start:
            weight *= take(rank)
        p1, b1, p2, b2 = (_RANK_VALUES[rank] for rank in start)
        key = (p1, b1, p2, b2)
        if key not in drawn:
            drawn[key] = _draws(key, values, rest)
        pairs = start[0] == start[2], start[1] == start[3]
        for player, banker, count in drawn[key]:
            tally[player, banker, *pairs] += weight * count
        for rank in start:
            put(rank)
    starts = _falling(52 * decks, 6)
    if sum(tally.values()) != starts:
        raise ArithmeticError("the enumeration did not count every six-card start once")
    winners = _winners()
    found: Counter[CoupOutcome] = Counter()
    for (player, banker, player_pair, banker_pair), count in tally.items():
        found[winners[player, banker], player_pair, banker_pair] += count
    return {outcome: Fraction(count, starts) for outcome, count in found.items()}


def _unit_results(outcome: CoupOutcome, commission: Fraction) -> dict[str, Fraction]:
    winner, player_pair, banker_pair = outcome
    lose, tie = Fraction(-1), winner is Winner.TIE
    return {
        Spot.PLAYER.value: Fraction(0) if tie else ODDS[Spot.PLAYER] if winner is Winner.PLAYER
        else lose,
        Spot.BANKER.value: Fraction(0) if tie else ODDS[Spot.BANKER] * (1 - commission)
        if winner is Winner.BANKER else lose,
        Spot.TIE.value: ODDS[Spot.TIE] if tie else lose,
        Spot.PLAYER_PAIR.value: ODDS[Spot.PLAYER_PAIR] if player_pair else lose,
        Spot.BANKER_PAIR.value: ODDS[Spot.BANKER_PAIR] if banker_pair else lose,
    }


@cache
def _round_odds(decks: int, commission: Fraction) -> RoundOdds:
    means, covariance = covariances(
        coup_outcomes(decks), lambda outcome: _unit_results(outcome, commission))
    return RoundOdds(
        {spot: -mean for spot, mean in means.items()}, covariance, covariance,
        f"exact: every bet of a coup is settled on the same cards, so every box is one: the "
        f"joint chance of the winner and of each side's pair over every first coup of a fresh "
        f"{decks}-deck shoe (first four cards by rank, the draws by value)")


def round_odds(settings: BaccaratSettings) -> RoundOdds:
    """How a coup's bets move together under `settings`."""
    return _round_odds(settings.decks, Fraction(settings.commission_rate))


def round_moments(settings: BaccaratSettings, bets: Iterable[Stake]) -> Moments:
    """The exact mean and variance of the house's win on one coup holding `bets`.

    >>> from decimal import Decimal
    >>> from ledger.games.baccarat.settings import BaccaratSettings
    >>> settings = BaccaratSettings(decks=8, effective_from="2026-01-01", authorisation="test",
    ...                             min_bet=100, max_bet=1000)
    >>> round_moments(settings, [Stake(1, "banker", Decimal(100)),
    ...                          Stake(2, "player", Decimal(100))]).mean
    Decimal('2.2930')
    """
    return round_odds(settings).moments(bets)
